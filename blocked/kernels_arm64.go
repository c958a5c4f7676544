//go:build !purego

package blocked

// Placeholder until the arm64 kernels land: the generic kernel runs.

func addHashesArch(f *Filter, hs []uint64) bool { return false }

func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) { return 0, false }
