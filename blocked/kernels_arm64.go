//go:build !purego

package blocked

import (
	"github.com/klauspost/cpuid/v2"

	"github.com/simdbloom/bloom/internal/cpu"
)

// The arm64 batch kernels: hand-written NEON in kernels_arm64.s. Every length
// check happens here; the assembly trusts len(out) == len(hs) > 0, a
// non-empty filter and 0 <= npf <= len(hs)-pf.

// prefetchDistance is how many keys ahead the batch kernels prefetch in a
// filter larger than the last-level cache. It is the amd64 value, NOT
// measured on arm64 hardware (only emulated arm64 was available, where
// timings mean nothing); measure on a real core before relying on it.
const prefetchDistance = 24

// prefetchAbove is the filter size in bytes above which the batch kernels
// prefetch: the last-level cache when cpuid reports it (it often does not on
// arm64), else 32 MiB.
var prefetchAbove = llcBytes()

func llcBytes() uint64 {
	if l3 := cpuid.CPU.Cache.L3; l3 > 0 {
		return uint64(l3)
	}
	return 32 << 20
}

// prefetchPlan returns, for a filter of size bytes and n keys, the prefetch
// distance pf and the number npf of keys whose successor pf places ahead
// exists: the kernels prefetch the block of hs[i+pf] only for i < npf, so
// they never read past hs.
func prefetchPlan(size uint64, n int) (pf, npf int) {
	if size <= prefetchAbove || n <= prefetchDistance {
		return 0, 0
	}
	return prefetchDistance, n - prefetchDistance
}

func addHashesArch(f *Filter, hs []uint64) bool {
	if len(f.blocks) == 0 || len(hs) == 0 {
		return false
	}
	pf, npf := prefetchPlan(f.SizeBytes(), len(hs))
	switch cpu.Active {
	case cpu.NEON:
		if f.k == 8 {
			addHashes8NEON(f.blocks, hs, pf, npf)
		} else {
			addHashes16NEON(f.blocks, hs, pf, npf)
		}
		return true
	}
	return false
}

func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) {
	if len(f.blocks) == 0 || len(hs) == 0 || len(out) != len(hs) {
		return 0, false
	}
	pf, npf := prefetchPlan(f.SizeBytes(), len(hs))
	switch cpu.Active {
	case cpu.NEON:
		if f.k == 8 {
			return hasHashes8NEON(f.blocks, hs, out, pf, npf), true
		}
		return hasHashes16NEON(f.blocks, hs, out, pf, npf), true
	}
	return 0, false
}

// hasHashes8NEON sets out[i] to whether hs[i] is in the k = 8 filter of
// blocks and returns the number of true results, prefetching the block of
// hs[i+pf] for i < npf. It requires len(out) == len(hs) > 0,
// len(blocks) > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func hasHashes8NEON(blocks []block, hs []uint64, out []bool, pf, npf int) int

// hasHashes16NEON is hasHashes8NEON for k = 16.
//
//go:noescape
func hasHashes16NEON(blocks []block, hs []uint64, out []bool, pf, npf int) int

// addHashes8NEON adds every hash of hs, in order, to the k = 8 filter of
// blocks, prefetching the block of hs[i+pf] for i < npf. It requires
// len(hs) > 0, len(blocks) > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func addHashes8NEON(blocks []block, hs []uint64, pf, npf int)

// addHashes16NEON is addHashes8NEON for k = 16.
//
//go:noescape
func addHashes16NEON(blocks []block, hs []uint64, pf, npf int)
