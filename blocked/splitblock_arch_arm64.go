//go:build !purego

package blocked

import "github.com/simdbloom/bloom/internal/cpu"

// The split-block NEON kernels are hand-written in splitblock_arch_arm64.s.
// Every length check happens here, before the assembly.

func splitAddHashesArch(s *SplitBlock, hs []uint64) bool {
	if len(s.blocks) == 0 || len(hs) == 0 {
		return false
	}
	pf, npf := prefetchPlan(s.SizeBytes(), len(hs))
	switch cpu.Active {
	case cpu.NEON:
		splitAddNEON(s.blocks, hs, pf, npf)
		return true
	}
	return false
}

func splitHasHashesArch(s *SplitBlock, hs []uint64, out []bool) (int, bool) {
	if len(s.blocks) == 0 || len(hs) == 0 || len(out) != len(hs) {
		return 0, false
	}
	pf, npf := prefetchPlan(s.SizeBytes(), len(hs))
	switch cpu.Active {
	case cpu.NEON:
		return splitHasNEON(s.blocks, hs, out, pf, npf), true
	}
	return 0, false
}

// splitHasNEON sets out[i] to whether hs[i] is in the split-block filter of
// blocks and returns the number of true results, prefetching the block of
// hs[i+pf] for i < npf. It requires len(out) == len(hs) > 0,
// len(blocks) > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func splitHasNEON(blocks []splitBlock, hs []uint64, out []bool, pf, npf int) int

// splitAddNEON adds every hash of hs, in order, to the split-block filter of
// blocks, prefetching the block of hs[i+pf] for i < npf. It requires
// len(hs) > 0, len(blocks) > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func splitAddNEON(blocks []splitBlock, hs []uint64, pf, npf int)
