//go:build purego || !(amd64 || arm64)

package cuckoo

// Without assembly (the purego tag, or an architecture other than amd64 and
// arm64) every batch lookup runs the grouped Go loop of filter.go.

func archInit() {}

func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) { return 0, false }
