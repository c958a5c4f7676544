package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
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
	Checksums      string   `json:"checksums"`
}

// figures is what every filter view reports.
type figures interface {
	FillRatio() float64
	EstimatedFPR() float64
	NumBits() uint64
}

func runInfo(args []string, stdout, _ io.Writer) error {
	fs := newFlags("info", "bloom info [--json] FILTER: a filter file's variant, k, size, fill ratio, estimated number of\n"+
		"keys, estimated false-positive rate as the filter is now, and key hash. Reads the whole file\n"+
		"to check both checksums; a damaged file is an error (exit 2).")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseArgs(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want one FILTER, got %d arguments", fs.NArg())
	}
	name := fs.Arg(0)
	b, _, release, err := loadFile(name)
	if err != nil {
		return err
	}
	defer release()
	info, err := describe(b)
	if err != nil {
		return badFile(fmt.Errorf("%s: %w", name, err))
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
	fmt.Fprintf(tw, "bytes\t%d (%s)\n", info.Bytes, humanBytes(uint64(info.Bytes)))
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
	fmt.Fprintf(tw, "checksums\t%s\n", info.Checksums)
	return tw.Flush()
}

// describe checks the encoding b whole and returns its figures.
func describe(b []byte) (filterInfo, error) {
	h, err := blocked.ParseHeader(b)
	if err != nil {
		return filterInfo{}, err
	}
	if err := blocked.Verify(b); err != nil {
		return filterInfo{}, err
	}
	info := filterInfo{Variant: variantName(h.Variant), K: h.K, Bytes: int64(len(b)), Blocks: h.Blocks,
		Hash: h.Hash.String(), Checksums: "ok"}
	var fig figures
	var count func() float64
	switch h.Variant {
	case blocked.VariantFilter:
		v, err := blocked.View(b)
		if errors.Is(err, blocked.ErrByteOrder) {
			f := new(blocked.Filter)
			v, err = nil, f.UnmarshalBinary(b)
			fig, count = f, f.EstimatedCount
		} else if err == nil {
			fig, count = v, v.EstimatedCount
		}
		if err != nil {
			return filterInfo{}, err
		}
	case blocked.VariantSplitBlock:
		v, err := blocked.ViewSplitBlock(b)
		if errors.Is(err, blocked.ErrByteOrder) {
			f := new(blocked.SplitBlock)
			v, err = nil, f.UnmarshalBinary(b)
			fig, count = f, f.EstimatedCount
		} else if err == nil {
			fig, count = v, v.EstimatedCount
		}
		if err != nil {
			return filterInfo{}, err
		}
	case blocked.VariantCounting:
		v, err := blocked.ViewCounting(b)
		if errors.Is(err, blocked.ErrByteOrder) {
			f := new(blocked.Counting)
			v, err = nil, f.UnmarshalBinary(b)
			fig = f
		} else if err == nil {
			fig = v
		}
		if err != nil {
			return filterInfo{}, err
		}
	case blocked.VariantScalable:
		s := new(bloom.Scalable[[]byte])
		if err := s.UnmarshalBinary(b); err != nil {
			return filterInfo{}, err
		}
		info.K, info.Blocks, info.Stages = 0, 0, s.Stages()
		fig, count = s, s.EstimatedCount
	default: // the cuckoo filter: its header only
		return info, nil
	}
	info.Bits = fig.NumBits()
	fill, fpr := fig.FillRatio(), fig.EstimatedFPR()
	info.FillRatio, info.EstimatedFPR = &fill, &fpr
	if count != nil {
		c := count()
		info.EstimatedCount = &c
	}
	return info, nil
}
