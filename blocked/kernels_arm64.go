//go:build !purego

package blocked

// The Go declarations of the hand-written NEON kernels in kernels_arm64.s
// (avo cannot target arm64). dispatch_arm64.go chooses among them and checks
// every length first.

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

// countingHasNEON sets out[i] to whether hs[i] is in the Counting filter of
// blocks (all 8 counters non-zero) and returns the number of true results,
// prefetching the block of hs[i+pf] for i < npf. It requires
// len(out) == len(hs) > 0, len(blocks) > 0 and 0 <= npf <= len(hs)-pf.
//
//go:noescape
func countingHasNEON(blocks []block, hs []uint64, out []bool, pf, npf int) int

// countingAddNEON adds every hash of hs, in order, to the Counting filter of
// blocks: it increments the hash's 8 counters, leaving those at 15, exactly
// as countingAddHashesGeneric does. It prefetches the block of hs[i+pf] for
// i < npf and requires len(hs) > 0, len(blocks) > 0 and
// 0 <= npf <= len(hs)-pf.
//
//go:noescape
func countingAddNEON(blocks []block, hs []uint64, pf, npf int)
