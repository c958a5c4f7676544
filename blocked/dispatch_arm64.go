//go:build !purego

package blocked

import "github.com/simdbloom/bloom/internal/cpu"

// kNEON is every kernel of kernels_arm64.s: ARMv8.0 Advanced SIMD, nothing
// more (the "// Requires:" line above each, which TestKernelFeatures checks
// against the kernels table of kernels_check_arm64_test.go). They run only
// where cpu.Can allows it.
var kNEON = cpu.Kernel{Level: cpu.NEON, Needs: cpu.FeatureASIMD}

// Which arm64 kernel runs: the hand-written NEON of kernels_arm64.s at the
// NEON level. Every length check happens here; the assembly trusts
// len(out) == len(hs) > 0, a non-empty filter and 0 <= npf <= len(hs)-pf.
// Every fact about the processor comes from internal/cpu.

// oneKeyAsm is false: there is no one-key NEON kernel, so AddHash and
// HasHash run their pure-Go bodies and the calls below are compiled out.
const oneKeyAsm = false

func filterHasOne(*Filter, uint64) bool    { panic("blocked: no one-key assembly") }
func filterAddOne(*Filter, uint64)         { panic("blocked: no one-key assembly") }
func splitHasOne(*SplitBlock, uint64) bool { panic("blocked: no one-key assembly") }
func splitAddOne(*SplitBlock, uint64)      { panic("blocked: no one-key assembly") }

func filterLookupOne([]byte, uint64) (bool, error) { panic("blocked: no one-key assembly") }
func filterLookupKeyed([]byte, uint64, lookupWant) (bool, error) {
	panic("blocked: no one-key assembly")
}

// addHashesArch runs the Filter batch add of the current level and reports
// whether one ran.
func addHashesArch(f *Filter, hs []uint64) bool {
	if len(f.blocks) == 0 || len(hs) == 0 || !kNEON.Runs() {
		return false
	}
	b, nb := (*[8]uint64)(&f.blocks[0]), uint64(len(f.blocks))
	pf, npf := prefetchPlan(f.sizeBytes(), len(hs))
	if f.k == 8 {
		filterAdd8NEON(b, nb, hs, pf, npf)
	} else {
		filterAdd16NEON(b, nb, hs, pf, npf)
	}
	return true
}

// hasHashesArch runs the Filter batch lookup of the current level and
// reports whether one ran.
func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) {
	if len(f.blocks) == 0 || len(hs) == 0 || len(out) != len(hs) || !kNEON.Runs() {
		return 0, false
	}
	b, nb := (*[8]uint64)(&f.blocks[0]), uint64(len(f.blocks))
	pf, npf := prefetchPlan(f.sizeBytes(), len(hs))
	if f.k == 8 {
		return filterHas8NEON(b, nb, hs, out, pf, npf), true
	}
	return filterHas16NEON(b, nb, hs, out, pf, npf), true
}

// splitAddHashesArch runs the SplitBlock batch add of the current level and
// reports whether one ran.
func splitAddHashesArch(s *SplitBlock, hs []uint64) bool {
	if len(s.blocks) == 0 || len(hs) == 0 || !kNEON.Runs() {
		return false
	}
	pf, npf := prefetchPlan(s.sizeBytes(), len(hs))
	splitAddNEON((*[8]uint32)(&s.blocks[0]), uint64(len(s.blocks)), hs, pf, npf)
	return true
}

// splitHasHashesArch runs the SplitBlock batch lookup of the current level
// and reports whether one ran.
func splitHasHashesArch(s *SplitBlock, hs []uint64, out []bool) (int, bool) {
	if len(s.blocks) == 0 || len(hs) == 0 || len(out) != len(hs) || !kNEON.Runs() {
		return 0, false
	}
	pf, npf := prefetchPlan(s.sizeBytes(), len(hs))
	return splitHasNEON((*[8]uint32)(&s.blocks[0]), uint64(len(s.blocks)), hs, out, pf, npf), true
}

// countingHasHashesArch runs the Counting batch lookup of the current level
// and reports whether one ran.
func countingHasHashesArch(c *Counting, hs []uint64, out []bool) (int, bool) {
	if len(c.blocks) == 0 || len(hs) == 0 || len(out) != len(hs) || !kNEON.Runs() {
		return 0, false
	}
	pf, npf := prefetchPlan(c.sizeBytes(), len(hs))
	return countingHasNEON((*[8]uint64)(&c.blocks[0]), uint64(len(c.blocks)), hs, out, pf, npf), true
}

// countingAddHashesArch runs the Counting batch add of the current level and
// reports whether one ran.
func countingAddHashesArch(c *Counting, hs []uint64) bool {
	if len(c.blocks) == 0 || len(hs) == 0 || !kNEON.Runs() {
		return false
	}
	pf, npf := prefetchPlan(c.sizeBytes(), len(hs))
	countingAddNEON((*[8]uint64)(&c.blocks[0]), uint64(len(c.blocks)), hs, pf, npf)
	return true
}
