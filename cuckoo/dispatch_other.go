//go:build purego || !(amd64 || arm64)

package cuckoo

// Without assembly (the purego tag, or an architecture other than amd64 and
// arm64) every batch lookup runs the grouped Go loop of filter.go.

func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) { return 0, false }

// archInit runs at the end of semisort.go's init; without kernels there is
// nothing to build.
func archInit() {}
