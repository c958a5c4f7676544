package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/simdbloom/bloom"
)

// sizeRow is one line of "bloom size".
type sizeRow struct {
	Variant    string  `json:"variant"`
	Bits       uint64  `json:"bits"`
	Bytes      uint64  `json:"bytes"`
	K          int     `json:"k"`
	BitsPerKey float64 `json:"bits_per_key"`
	FPR        float64 `json:"fpr"`
	Error      string  `json:"error,omitempty"`
}

func runSize(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("size", "bloom size -n N -p P: the size of a filter for N keys at false-positive rate P, per variant.", stderr)
	nStr := fs.String("n", "", "number of keys (e.g. 1000000 or 1e9)")
	p := fs.Float64("p", 0.01, "target false-positive rate, in (0, 1)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *nStr == "" {
		return usageError{"-n is required"}
	}
	n, err := parseCount(*nStr)
	if err != nil {
		return usageError{err.Error()}
	}
	var rows []sizeRow
	for _, v := range bloom.Variants() {
		s, err := bloom.Size(n, *p, v)
		if err != nil {
			if v == bloom.Classic {
				return err // the inputs themselves are bad
			}
			rows = append(rows, sizeRow{Variant: v.String(), Error: err.Error()})
			continue
		}
		rows = append(rows, sizeRow{Variant: v.String(), Bits: s.Bits, Bytes: s.Bytes, K: s.K, BitsPerKey: s.BitsPerKey, FPR: s.FPR})
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"n": n, "p": *p, "variants": rows})
	}
	fmt.Fprintf(stdout, "%d keys at false-positive rate %g\n\n", n, *p)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "variant\tbits\tbytes\tk\tbits/key\tFPR\t")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\n", r.Variant, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%.2f\t%.4g\t\n", r.Variant, r.Bits, humanBytes(r.Bytes), r.K, r.BitsPerKey, r.FPR)
	}
	return tw.Flush()
}

// parseCount parses a positive whole number, accepting 1e9-style notation.
func parseCount(s string) (uint64, error) {
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

// humanBytes formats a byte count with a decimal unit (1.20 GB).
func humanBytes(b uint64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
	f, i := float64(b), 0
	for f >= 1000 && i < len(units)-1 {
		f /= 1000
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", b)
	}
	return fmt.Sprintf("%.2f %s", f, units[i])
}
