//go:build purego || !amd64

package cuckoo

// Without assembly (the purego tag, or an architecture other than amd64)
// every batch lookup runs the grouped Go loop of filter.go. arm64 has no
// NEON kernel: none has been modelled or measured to beat the Go loop.

func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) { return 0, false }
