//go:build !purego

package blocked

// The Go declarations of the hand-written NEON kernels in kernels_arm64.s
// (avo cannot target arm64). They are named and take their arguments as the
// amd64 kernels do (filterHas8AVX2 and the like): blocks points at the first
// of nblocks blocks. dispatch_arm64.go chooses among them and checks every
// length first.

// filterHas8NEON sets out[i] to whether hs[i] is in the k = 8 filter of
// nblocks blocks at blocks and returns the number of true results,
// prefetching the block of hs[i+pf] for i < npf. It requires
// len(out) == len(hs) > 0, nblocks > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func filterHas8NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int

// filterHas16NEON is filterHas8NEON for k = 16.
//
//go:noescape
func filterHas16NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int

// filterAdd8NEON adds every hash of hs, in order, to the k = 8 filter of
// nblocks blocks at blocks, prefetching the block of hs[i+pf] for i < npf.
// It requires len(hs) > 0, nblocks > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func filterAdd8NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, pf int, npf int)

// filterAdd16NEON is filterAdd8NEON for k = 16.
//
//go:noescape
func filterAdd16NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, pf int, npf int)

// splitHasNEON sets out[i] to whether hs[i] is in the split-block filter of
// nblocks blocks at blocks and returns the number of true results,
// prefetching the block of hs[i+pf] for i < npf. It requires
// len(out) == len(hs) > 0, nblocks > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func splitHasNEON(blocks *[8]uint32, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int

// splitAddNEON adds every hash of hs, in order, to the split-block filter of
// nblocks blocks at blocks, prefetching the block of hs[i+pf] for i < npf.
// It requires len(hs) > 0, nblocks > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func splitAddNEON(blocks *[8]uint32, nblocks uint64, hs []uint64, pf int, npf int)

// countingHasNEON sets out[i] to whether hs[i] is in the Counting filter of
// nblocks blocks at blocks (all 8 counters non-zero) and returns the number
// of true results, prefetching the block of hs[i+pf] for i < npf. It
// requires len(out) == len(hs) > 0, nblocks > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func countingHasNEON(blocks *[8]uint64, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int

// countingAddNEON adds every hash of hs, in order, to the Counting filter of
// nblocks blocks at blocks: it increments the hash's 8 counters, leaving
// those at 15, exactly as countingAddHashesGeneric does. It prefetches the
// block of hs[i+pf] for i < npf and requires len(hs) > 0, nblocks > 0 and
// 0 <= npf <= len(hs)-pf.
//
//go:noescape
func countingAddNEON(blocks *[8]uint64, nblocks uint64, hs []uint64, pf int, npf int)
