//go:build !purego

package blocked

import "github.com/simdbloom/bloom/internal/cpu"

// The arm64 batch kernels: hand-written NEON in kernels_arm64.s. Every length
// check happens here; the assembly trusts len(out) == len(hs) > 0 and a
// non-empty filter.

func addHashesArch(f *Filter, hs []uint64) bool {
	if len(f.blocks) == 0 || len(hs) == 0 {
		return false
	}
	switch cpu.Active {
	case cpu.NEON:
		switch f.k {
		case 8:
			addHashes8NEON(f.blocks, hs)
			return true
		case 16:
			addHashes16NEON(f.blocks, hs)
			return true
		}
	}
	return false
}

func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) {
	if len(f.blocks) == 0 || len(hs) == 0 || len(out) < len(hs) {
		return 0, false
	}
	out = out[:len(hs)]
	switch cpu.Active {
	case cpu.NEON:
		switch f.k {
		case 8:
			return hasHashes8NEON(f.blocks, hs, out), true
		case 16:
			return hasHashes16NEON(f.blocks, hs, out), true
		}
	}
	return 0, false
}

// hasHashes8NEON sets out[i] to whether hs[i] is in the k = 8 filter of
// blocks and returns the number of true results. It requires
// len(out) == len(hs) > 0 and len(blocks) > 0.
//
//go:noescape
func hasHashes8NEON(blocks []block, hs []uint64, out []bool) int

// hasHashes16NEON is hasHashes8NEON for k = 16.
//
//go:noescape
func hasHashes16NEON(blocks []block, hs []uint64, out []bool) int

// addHashes8NEON adds every hash of hs to the k = 8 filter of blocks, in
// order. It requires len(hs) > 0 and len(blocks) > 0.
//
//go:noescape
func addHashes8NEON(blocks []block, hs []uint64)

// addHashes16NEON is addHashes8NEON for k = 16.
//
//go:noescape
func addHashes16NEON(blocks []block, hs []uint64)
