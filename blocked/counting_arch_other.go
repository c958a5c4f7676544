//go:build purego || !(amd64 || arm64)

package blocked

// Without assembly Counting.HasHashes runs the pure-Go loop.

func countingHasHashesArch(c *Counting, hs []uint64, out []bool) (int, bool) { return 0, false }
