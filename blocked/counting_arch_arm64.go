//go:build !purego

package blocked

// No NEON Counting lookup yet: HasHashes runs the pure-Go loop.

func countingHasHashesArch(c *Counting, hs []uint64, out []bool) (int, bool) { return 0, false }
