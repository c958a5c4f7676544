//go:build purego || !(amd64 || arm64)

package blocked

// Without assembly every batch operation runs the generic kernel.

func addHashesArch(f *Filter, hs []uint64) bool { return false }

func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) { return 0, false }
