package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/memlimit"

	"github.com/simdbloom/bloom/internal/format"
)

// filterInfo is what "bloom info" prints. Figures a variant does not have
// are left out (a cuckoo filter's are not read: only its header).
type filterInfo struct {
	File           string   `json:"file"`
	Variant        string   `json:"variant"`
	K              int      `json:"k,omitempty"`
	Bytes          int64    `json:"bytes"`
	Bits           uint64   `json:"bits,omitempty"`
	Blocks         uint64   `json:"blocks,omitempty"`
	Stages         int      `json:"stages,omitempty"`
	FillRatio      *float64 `json:"fill_ratio,omitempty"`
	EstimatedCount *float64 `json:"estimated_count,omitempty"`
	EstimatedFPR   *float64 `json:"estimated_fpr,omitempty"`
	Hash           string   `json:"hash"`
	KeyFamily      string   `json:"key_family"`
	Checksums      string   `json:"checksums"`
}

// figures is what every filter reports.
type figures interface {
	FillRatio() float64
	EstimatedFPR() float64
}

func runInfo(args []string, stdout, _ io.Writer) error {
	fs := newFlags("info", "bloom info [--json] FILTER: a filter file's variant, k, size, fill ratio, estimated number of\n"+
		"keys, estimated false-positive rate as the filter is now, key hash and key family (byte strings,\n"+
		"integers, or unrecorded). It describes every filter file bloom build and the Go library write.\n"+
		"Reads the whole file to check every checksum; a damaged file is an error (exit 2). A FILTER that\n"+
		"cannot be mapped (a pipe, a device) is read whole, after its header: one larger than the memory\n"+
		"bloom may use is refused, exit 2.")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseArgs(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want one FILTER, got %d arguments", fs.NArg())
	}
	name := fs.Arg(0)
	b, mapped, release, err := loadFilter(name)
	if err != nil {
		return err
	}
	defer release()
	var info filterInfo
	err = guardMapped(b, mapped, name, func() error {
		var err error
		if info, err = describe(b); err != nil {
			return badFile(fmt.Errorf("%s: %w", name, err))
		}
		return nil
	})
	if err != nil {
		return err
	}
	info.File = name
	if *asJSON {
		return writeJSON(stdout, info)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", info.File)
	fmt.Fprintf(tw, "variant\t%s\n", info.Variant)
	if info.Stages > 0 {
		fmt.Fprintf(tw, "stages\t%d\n", info.Stages)
	}
	if info.K > 0 {
		fmt.Fprintf(tw, "k\t%d\n", info.K)
	}
	fmt.Fprintf(tw, "bytes\t%d (%s)\n", info.Bytes, memlimit.Human(uint64(info.Bytes)))
	if info.FillRatio != nil {
		fmt.Fprintf(tw, "fill ratio\t%.4f\n", *info.FillRatio)
	}
	if info.EstimatedCount != nil {
		fmt.Fprintf(tw, "estimated keys\t%.0f\n", *info.EstimatedCount)
	}
	if info.EstimatedFPR != nil {
		fmt.Fprintf(tw, "estimated FPR\t%.4g\n", *info.EstimatedFPR)
	}
	fmt.Fprintf(tw, "key hash\t%s\n", info.Hash)
	fmt.Fprintf(tw, "key family\t%s\n", info.KeyFamily)
	fmt.Fprintf(tw, "checksums\t%s\n", info.Checksums)
	return tw.Flush()
}

// describe checks the encoding b whole and returns its figures.
func describe(b []byte) (filterInfo, error) {
	h, err := format.Parse(b, 0)
	if err != nil {
		return filterInfo{}, err
	}
	if err := checkEncoding(b, true); err != nil {
		return filterInfo{}, err
	}
	family := blocked.KeyFamily(h.Compat & format.CompatKeyMask)
	info := filterInfo{Variant: variantName(h.Variant), K: int(h.K), Bytes: int64(len(b)), Blocks: h.Blocks,
		Hash: blocked.HashID(h.Hash).String(), KeyFamily: family.String(), Checksums: "ok", Bits: h.PayloadBytes * 8}
	var fig figures
	switch h.Variant {
	case format.Filter:
		fig, err = decode[blocked.Filter](b)
	case format.SplitBlock:
		fig, err = decode[blocked.SplitBlock](b)
	case format.Counting:
		fig, err = decode[blocked.Counting](b)
	case format.Scalable:
		// Decoded with a key type of the family its header records: the
		// figures do not depend on it, but the decoder refuses another.
		var s scalableFigures
		if family == blocked.KeysIntegers {
			s, err = decodeScalable[uint64](b)
		} else {
			s, err = decodeScalable[[]byte](b)
		}
		if err == nil {
			info.K, info.Blocks, info.Stages, info.Bits = 0, 0, s.Stages(), s.NumBits()
			fig = s
		}
	default: // the cuckoo filter: its header only
		info.Bits = 0
		return info, nil
	}
	if err != nil {
		return filterInfo{}, err
	}
	fill, fpr := fig.FillRatio(), fig.EstimatedFPR()
	info.FillRatio, info.EstimatedFPR = &fill, &fpr
	if c, ok := fig.(interface{ EstimatedCount() float64 }); ok {
		n := c.EstimatedCount()
		info.EstimatedCount = &n
	}
	return info, nil
}

// scalableFigures is what info reads of a decoded Scalable of any key type.
type scalableFigures interface {
	figures
	Stages() int
	NumBits() uint64
}

// decodeScalable decodes the Scalable encoding b with key type K.
func decodeScalable[K bloom.Key](b []byte) (scalableFigures, error) {
	s := new(bloom.Scalable[K])
	return s, s.UnmarshalBinary(b)
}

// decode returns the filter of type *T encoded in b (a copy: views answer
// lookups only, so the figures come from the decoded filter).
func decode[T any, PT interface {
	*T
	figures
	UnmarshalBinary([]byte) error
}](b []byte) (figures, error) {
	f := PT(new(T))
	return f, f.UnmarshalBinary(b)
}
