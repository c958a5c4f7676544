package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
	"github.com/simdbloom/bloom/internal/memlimit"
	"github.com/simdbloom/bloom/internal/sizing"
)

// sizeRow is one line of "bloom size". A variant that cannot be sized has
// only Variant and Error: no zero size is ever reported as a size.
type sizeRow struct {
	Variant string `json:"variant"`
	Bits    uint64 `json:"bits,omitempty"`
	Bytes   uint64 `json:"bytes,omitempty"`
	K       int    `json:"k,omitempty"`
	// FingerprintBits is the cuckoo filter's fingerprint width (its k is 0).
	FingerprintBits int     `json:"fingerprint_bits,omitempty"`
	BitsPerKey      float64 `json:"bits_per_key,omitempty"`
	FPR             float64 `json:"fpr,omitempty"`
	Error           string  `json:"error,omitempty"`
}

// errNoVariant is returned when no variant can be sized (exit code 1): the
// table with every variant's reason has been printed.
var errNoVariant = errors.New("no variant can hold these keys at this false-positive rate")

func runSize(args []string, stdout, _ io.Writer) error {
	fs := newFlags("size", "bloom size -n N -p P: the size of a filter for N keys at false-positive rate P, per variant.\n"+
		"A variant that cannot be sized (too large, or P too small for its formulas) is listed with the reason;\n"+
		"the exit code is 1 when none can.")
	nStr := fs.String("n", "", "number of keys, a decimal number (e.g. 1000000 or 1e9)")
	pStr := fs.String("p", "0.01", "target false-positive rate, a decimal number in (0, 1) (e.g. 0.01 or 1e-6)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, stdout); err != nil {
		return err
	}
	if *nStr == "" {
		return usageError{"-n is required"}
	}
	n, err := parseCount(*nStr)
	if err != nil {
		return usageError{err.Error()}
	}
	p, err := parseRate(*pStr)
	if err != nil {
		return usageError{err.Error()}
	}
	rows, ok := sizeRows(n, p)
	if *asJSON {
		if err := writeJSON(stdout, map[string]any{"n": n, "p": p, "variants": rows}); err != nil {
			return err
		}
	} else if err := printSize(stdout, n, p, rows); err != nil {
		return err
	}
	if !ok {
		return errNoVariant
	}
	return nil
}

// sizeRows sizes every variant, then the two filters that can delete (the
// counting filter and the cuckoo filter); ok says whether at least one could
// be sized.
func sizeRows(n uint64, p float64) (rows []sizeRow, ok bool) {
	type sizer struct {
		name string
		size func(uint64, float64) (sizing.Sizing, error)
	}
	var sizers []sizer
	for _, v := range sizing.Variants() {
		sizers = append(sizers, sizer{v.String(), func(n uint64, p float64) (sizing.Sizing, error) { return sizing.Size(n, p, v) }})
	}
	sizers = append(sizers, sizer{"counting", blocked.SizeCounting}, sizer{"cuckoo", cuckoo.Size})
	for _, z := range sizers {
		s, err := z.size(n, p)
		if err == nil {
			err = checkSize(s)
		}
		if err != nil {
			rows = append(rows, sizeRow{Variant: z.name, Error: toolWords(err)})
			continue
		}
		ok = true
		rows = append(rows, sizeRow{Variant: z.name, Bits: s.Bits, Bytes: s.Bytes, K: s.K,
			FingerprintBits: s.FingerprintBits, BitsPerKey: s.BitsPerKey, FPR: s.FPR})
	}
	return rows, ok
}

// checkSize refuses a size the library returned without an error but that
// is not one: no bits, neither k nor a fingerprint width, or a rate that is not a rate (for a p so small
// that log2(1/p) overflows, the sizing formulas break down).
func checkSize(s sizing.Sizing) error {
	if s.Bits == 0 || (s.K <= 0 && s.FingerprintBits <= 0) || math.IsNaN(s.FPR) || s.FPR < 0 || s.FPR >= 1 {
		return fmt.Errorf("no valid size (the formulas give %d bits, k = %d): the false-positive rate is too small to size", s.Bits, s.K)
	}
	return nil
}

func printSize(w io.Writer, n uint64, p float64, rows []sizeRow) error {
	keys := "keys"
	if n == 1 {
		keys = "key"
	}
	fmt.Fprintf(w, "%d %s at false-positive rate %g\n\n", n, keys, p)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "variant\tbits\tbytes\tk\tbits/key\tFPR\t")
	var notes []string
	for _, r := range rows {
		if r.Error != "" {
			// The reason goes under the table: a long message in a cell
			// would widen its column for every row.
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t\n", r.Variant)
			notes = append(notes, fmt.Sprintf("%s: %s", r.Variant, r.Error))
			continue
		}
		k := strconv.Itoa(r.K)
		if r.FingerprintBits > 0 {
			k = fmt.Sprintf("f=%d", r.FingerprintBits)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%.4g\t\n", r.Variant, r.Bits, memlimit.Human(r.Bytes), k, compact(r.BitsPerKey), r.FPR)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, s := range notes {
			fmt.Fprintln(w, s)
		}
	}
	return nil
}

// compact formats x with two decimals while that stays short, and in
// exponent form above 10^6, so one huge value does not widen a column.
func compact(x float64) string {
	if math.Abs(x) < 1e6 {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// parseRate parses a false-positive rate: a finite number strictly between 0 and 1.
func parseRate(s string) (float64, error) {
	if !decimal(s) {
		return 0, fmt.Errorf("-p: %q is not a decimal number (such as 0.01 or 1e-3)", s)
	}
	p, err := strconv.ParseFloat(s, 64)
	if errors.Is(err, strconv.ErrSyntax) {
		return 0, fmt.Errorf("-p: %q is not a number", s)
	}
	if !(p > 0 && p < 1) { // also refuses NaN and ±Inf
		return 0, fmt.Errorf("-p must be in (0, 1), got %s", s)
	}
	return p, nil
}

// parseCount parses a positive whole number, accepting 1e9-style notation.
func parseCount(s string) (uint64, error) {
	if !decimal(s) {
		return 0, fmt.Errorf("-n: %q is not a decimal number (such as 1000000 or 1e6)", s)
	}
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		if n == 0 {
			return 0, fmt.Errorf("-n must be positive, got %s", s)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) {
		return 0, fmt.Errorf("-n: %q is not a number", s)
	}
	if f < 1 || f != math.Trunc(f) || f >= 1<<64 {
		return 0, fmt.Errorf("-n must be a whole number from 1 to 2^64-1, got %s", s)
	}
	return uint64(f), nil
}

// decimal reports whether s is free of what strconv.ParseFloat reads beyond
// decimal notation: Go's hexadecimal floats (0x1p-3 is 0.125) and digit
// separators (1_000), which are not what a user typing a rate or a count
// means.
func decimal(s string) bool { return !strings.ContainsAny(s, "xX_") }
