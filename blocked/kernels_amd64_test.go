//go:build !purego

package blocked

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/longtest"
)

// The assembly kernels against the generic ones on adversarial batches: every
// length from 1 to 70 (every tail, with and without prefetch), all keys in
// one block, duplicates, one-block filters, a large non-power-of-two number of
// blocks, the last block, and guard blocks and bools around the data.
// (Length 0 returns before any kernel; it is checked all the same.)

// guardedFilter returns a filter of nb blocks followed by one guard block
// that no kernel may touch, and the guard.
func guardedFilter(nb uint64, k int) (*Filter, *block) {
	all := alignedBlocks(nb + 1)
	return &Filter{blocks: all[:nb:nb], k: k}, &all[nb]
}

// asmLevels returns the usable levels that have assembly kernels.
func asmLevels() []cpu.Level {
	var ls []cpu.Level
	for _, l := range cpu.Usable() {
		if l != cpu.Generic {
			ls = append(ls, l)
		}
	}
	return ls
}

// withLevel runs fn with cpu.Active set to l.
func withLevel(l cpu.Level, fn func()) {
	saved := cpu.Active
	defer func() { cpu.Active = saved }()
	cpu.Active = l
	fn()
}

// batcher is the batch API shared by Filter and SplitBlock.
type batcher interface {
	AddHashes(hs []uint64)
	HasHashes(hs []uint64, out []bool) int
}

// pair is a filter under test, guarded (see guardedFilter), and its
// generic-kernel reference.
type pair struct {
	f, ref batcher
	equal  func() bool // f and ref hold the same bits
	intact func() bool // the guard block after f is still zero
	desc   string
}

func filterPair(nb uint64, k int) pair {
	f, guard := guardedFilter(nb, k)
	ref := newFilter(nb, k)
	return pair{f, ref, func() bool { return f.Equal(ref) }, func() bool { return *guard == block{} },
		fmt.Sprintf("Filter k=%d blocks=%d", k, nb)}
}

func splitPair(nb uint64) pair {
	all := alignedSplitBlocks(nb + 1)
	f, ref := &SplitBlock{blocks: all[:nb:nb]}, newSplitBlock(nb)
	equal := func() bool {
		for i := range ref.blocks {
			if f.blocks[i] != ref.blocks[i] {
				return false
			}
		}
		return true
	}
	return pair{f, ref, equal, func() bool { return all[nb] == splitBlock{} }, fmt.Sprintf("SplitBlock blocks=%d", nb)}
}

// checkBatch adds hs with level l to p.f and with the generic kernel to
// p.ref, then looks up probe with both and compares bits, results and counts.
func checkBatch(t *testing.T, l cpu.Level, p pair, hs, probe []uint64) {
	t.Helper()
	addBoth(l, p, hs)
	checkBits(t, l, p, len(hs))
	checkLookups(t, l, p, probe)
}

// addBoth adds hs with level l to p.f and with the generic kernel to p.ref.
func addBoth(l cpu.Level, p pair, hs []uint64) {
	withLevel(l, func() { p.f.AddHashes(hs) })
	withLevel(cpu.Generic, func() { p.ref.AddHashes(hs) })
}

// checkBits checks that p.f and p.ref hold the same bits and that the guard
// after p.f is intact, after batches of n hashes.
func checkBits(t *testing.T, l cpu.Level, p pair, n int) {
	t.Helper()
	if !p.equal() {
		t.Fatalf("%v %s len=%d: AddHashes set different bits than generic", l, p.desc, n)
	}
	if !p.intact() {
		t.Fatalf("%v %s len=%d: AddHashes wrote past the last block", l, p.desc, n)
	}
}

// checkLookups looks up probe with level l in p.f and with the generic
// kernel in p.ref, and compares results and counts.
func checkLookups(t *testing.T, l cpu.Level, p pair, probe []uint64) {
	t.Helper()
	// Results in the middle of a larger slice, poisoned with both values.
	for _, poison := range []bool{false, true} {
		buf := make([]bool, len(probe)+16)
		for i := range buf {
			buf[i] = poison
		}
		out := buf[8 : 8+len(probe)]
		var got int
		withLevel(l, func() { got = p.f.HasHashes(probe, out) })
		want := make([]bool, len(probe))
		var wantN int
		withLevel(cpu.Generic, func() { wantN = p.ref.HasHashes(probe, want) })
		if got != wantN {
			t.Fatalf("%v %s len=%d: HasHashes counted %d, generic %d", l, p.desc, len(probe), got, wantN)
		}
		for i := range want {
			if out[i] != want[i] {
				t.Fatalf("%v %s len=%d: HasHashes[%d] = %v, generic %v", l, p.desc, len(probe), i, out[i], want[i])
			}
		}
		for i := range 8 {
			if buf[i] != poison || buf[len(buf)-1-i] != poison {
				t.Fatalf("%v %s len=%d: HasHashes wrote outside out", l, p.desc, len(probe))
			}
		}
	}
}

// mixed returns hs followed by as many random hashes, so about half of a
// lookup is present.
func mixed(hs []uint64, seed uint64) []uint64 {
	return append(append([]uint64(nil), hs...), randomHashes(len(hs), seed)...)
}

// forEachAsm runs fn for every assembly level, for the Filter with k = 8
// and k = 16 (k > 0) and for the SplitBlock (k = 0). newPair makes the
// filters of nb blocks under test.
func forEachAsm(t *testing.T, fn func(t *testing.T, l cpu.Level, newPair func(nb uint64) pair)) {
	forEachAsmLevel(t, func(t *testing.T, l cpu.Level) {
		for _, k := range []int{8, 16} {
			t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
				fn(t, l, func(nb uint64) pair { return filterPair(nb, k) })
			})
		}
		t.Run("split", func(t *testing.T) { fn(t, l, splitPair) })
	})
}

// forEachAsmLevel runs fn(t, l) for every assembly level l (asmLevels), as
// the subtest named by the level, in a child process of its own (see
// childtest.Levels), so that an illegal instruction in one level's kernels
// fails that level only. It skips t if there is no assembly level.
func forEachAsmLevel(t *testing.T, fn func(t *testing.T, l cpu.Level)) {
	t.Helper()
	ls := asmLevels()
	if len(ls) == 0 {
		t.Skipf("no assembly kernel level usable here (usable: %v; SIMDBLOOM_CPU may lower it)", cpu.Usable())
	}
	childtest.Levels(t, ls, fn)
}

// withPrefetch runs fn with the real prefetch threshold, with prefetching
// forced on for every filter (so small filters exercise the prefetching loop
// and its end), each again without BITALG, and then without BMI2.
func withPrefetch(fn func()) {
	saved := prefetchFrom
	defer func() { prefetchFrom = saved }()
	fn()
	withoutBITALG(fn)
	prefetchFrom = 0
	fn()
	withoutBITALG(fn)
	withoutBMI2(fn)
}

// withoutBITALG runs fn as on an AVX-512 processor without BITALG, where the
// Filter lookups use the VPSRLVQ kernels (filterHas8AVX512, filterHas16AVX512).
func withoutBITALG(fn func()) {
	defer withoutFeature(cpu.FeatureAVX512BITALG)()
	fn()
}

// withoutBMI2 runs fn as on a processor without BMI2, where the AVX-512
// level looks up with the AVX2 kernels.
func withoutBMI2(fn func()) {
	defer withoutFeature(cpu.FeatureBMI2)()
	fn()
}

// withoutFeature clears f from cpu.Features and returns the function that
// restores them.
func withoutFeature(f cpu.Feature) (restore func()) {
	saved := cpu.Features
	cpu.Features &^= f
	return func() { cpu.Features = saved }
}

func TestAsmEveryLength(t *testing.T) {
	forEachAsm(t, func(t *testing.T, l cpu.Level, newPair func(uint64) pair) {
		withPrefetch(func() {
			for _, nb := range []uint64{1, 2, 3, 7, 1000} {
				p := newPair(nb)
				for n := 0; n <= 70; n++ {
					hs := randomHashes(n, uint64(n)*nb)
					checkBatch(t, l, p, hs, mixed(hs, uint64(n)))
				}
			}
		})
	})
}

func TestAsmOneBlockAndDuplicates(t *testing.T) {
	forEachAsm(t, func(t *testing.T, l cpu.Level, newPair func(uint64) pair) {
		withPrefetch(func() {
			for _, nb := range []uint64{1, 64, 1001} {
				p := newPair(nb)
				// All keys in one block (the same upper half), up to 70 keys.
				for n := 1; n <= 70; n++ {
					hs := randomHashes(n, uint64(n)+99)
					for i := range hs {
						hs[i] = 0xdeadbeef<<32 | hs[i]&0xffffffff
					}
					checkBatch(t, l, p, hs, mixed(hs, uint64(n)))
				}
				// Duplicates and alternating repeats in one batch.
				hs := randomHashes(40, nb)
				dup := append(append(append([]uint64(nil), hs...), hs...), hs[:7]...)
				for i := 0; i < 30; i++ {
					dup = append(dup, hs[i%3])
				}
				checkBatch(t, l, p, dup, mixed(dup, nb))
				checkBatch(t, l, p, adversarialHashes(), mixed(adversarialHashes(), nb))
			}
		})
	})
}

// edgeHashes covers the first and last block and the extremes of the low
// half for any number of blocks.
func edgeHashes() []uint64 {
	var hs []uint64
	for _, hi := range []uint64{0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff} {
		for _, lo := range []uint64{0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678} {
			hs = append(hs, hi<<32|lo)
		}
	}
	return hs
}

// reachesEnds reports whether the first and last of the nb blocks of f have bits set.
func reachesEnds(f batcher, nb uint64) bool {
	switch f := f.(type) {
	case *Filter:
		return f.blocks[0] != block{} && f.blocks[nb-1] != block{}
	case *SplitBlock:
		return f.blocks[0] != splitBlock{} && f.blocks[nb-1] != splitBlock{}
	}
	return false
}

func TestAsmLargeBlockCount(t *testing.T) {
	// 2^32 blocks (256 GiB) cannot be allocated; 3_000_001 blocks (183 MiB,
	// 92 MiB for the split block; not a power of two, far above the L2
	// cache so the kernels prefetch) check the index arithmetic and the last
	// block. Above 2^21 blocks, the product of a hash's upper half and the
	// block count (fastrange) takes more than 53 bits, and the block offsets
	// more than 27: arithmetic through float64 or 32-bit registers breaks.
	const nb = 3_000_001
	forEachAsm(t, func(t *testing.T, l cpu.Level, newPair func(uint64) pair) {
		p := newPair(nb)
		edge := edgeHashes()
		checkBatch(t, l, p, edge, mixed(edge, 5))
		if !reachesEnds(p.f, nb) {
			t.Fatal("edge hashes did not reach the first and last blocks")
		}
		// Under -short the bits are compared once after the 70 batches, not
		// after each: the scans of both filters (366 MiB each time) were
		// most of the test's time. A bit set wrongly stays set, so the one
		// comparison still finds it (without the batch that set it); the
		// lookups are still compared after each batch.
		for n := 1; n <= 70; n++ {
			hs := randomHashes(n, uint64(n)+1000)
			addBoth(l, p, hs)
			if !testing.Short() {
				checkBits(t, l, p, n)
			}
			checkLookups(t, l, p, mixed(hs, uint64(n)))
		}
		checkBits(t, l, p, 70)
		hs := randomHashes(100_000, 77)
		checkBatch(t, l, p, hs, mixed(hs, 78))
		withoutBITALG(func() { checkBatch(t, l, p, hs, mixed(hs, 79)) })
	})
}

func init() {
	// Without POPCNT the AVX2 lookups run one key at a time, as they did
	// before the offset ring.
	benchVariants = append(benchVariants, benchVariant{"avx2-noring", cpu.AVX2, func() func() {
		return withoutFeature(cpu.FeaturePOPCNT)
	}})
	if cpu.Features&cpu.FeatureAVX512BITALG != 0 {
		benchVariants = append(benchVariants, benchVariant{"avx512-nobitalg", cpu.AVX512, func() func() {
			return withoutFeature(cpu.FeatureAVX512BITALG)
		}})
	}
}

// The one-key assembly (AddHash and HasHash: the AVX-512 or AVX2 bodies at
// those levels, the scalar bodies at the generic level) against the pure-Go
// bodies addHashGo and hasHashGo: random and adversarial hashes, a hash in
// every block, the first and last block, one-block filters and 3,000,001
// blocks.

// single is the one-key API of Filter and SplitBlock, with its pure-Go body.
type single interface {
	AddHash(h uint64)
	HasHash(h uint64) bool
	addHashGo(h uint64)
	hasHashGo(h uint64) bool
}

// blockStarts returns, for every block i of nb (at most 5000 of them,
// spread over all nb and always including the last), the smallest upper
// half that fastrange maps to i, with a few low halves each.
func blockStarts(nb uint64) []uint64 {
	step := max(1, nb/5000)
	var hs []uint64
	for i := uint64(0); i < nb; i += step {
		for _, j := range []uint64{i, nb - 1 - i} {
			hi := (j<<32 + nb - 1) / nb // ceil(j * 2^32 / nb)
			for _, lo := range []uint64{0, 0xffffffff, j * 0x9e3779b9 & 0xffffffff} {
				hs = append(hs, hi<<32|lo)
			}
		}
	}
	return hs
}

// checkSingle adds hs to f with level l and to ref with the pure-Go body,
// compares the bits, then looks up probe both ways on both filters.
func checkSingle(t *testing.T, l cpu.Level, f, ref single, equal func() bool, hs, probe []uint64, desc string) {
	t.Helper()
	withLevel(l, func() {
		for _, h := range hs {
			f.AddHash(h)
		}
	})
	for _, h := range hs {
		ref.addHashGo(h)
	}
	if !equal() {
		t.Fatalf("%v %s: AddHash set different bits than addHashGo", l, desc)
	}
	withLevel(l, func() {
		for _, h := range probe {
			if got, want := f.HasHash(h), ref.hasHashGo(h); got != want {
				t.Fatalf("%v %s: HasHash(%#x) = %v, hasHashGo %v", l, desc, h, got, want)
			}
		}
		for _, h := range hs {
			if !f.HasHash(h) {
				t.Fatalf("%v %s: HasHash(%#x) = false after AddHash", l, desc, h)
			}
		}
	})
}

func TestAsmSingleEqualsGo(t *testing.T) {
	ls := cpu.Usable()
	if ls[0] != cpu.Generic {
		t.Fatalf("usable levels %v do not start with generic: the scalar one-key assembly would go untested", ls)
	}
	sizes := []uint64{1, 2, 3, 7, 64, 1000, 1001}
	if !testing.Short() {
		sizes = append(sizes, 3_000_001)
	}
	childtest.Levels(t, ls, func(t *testing.T, l cpu.Level) {
		for _, nb := range sizes {
			hs := append(append(randomHashes(3000, nb), adversarialHashes()...), edgeHashes()...)
			hs = append(hs, blockStarts(nb)...)
			probe := mixed(hs, nb+1)
			for i := range 2000 { // neighbours of added hashes: same block, other bits
				probe = append(probe, hs[i]^1, hs[i]^(1<<31))
			}
			// A sparse filter first (about two keys per block, so that most
			// probes miss), then the dense one (3000+ keys: small filters
			// saturate, every probe hits).
			for _, n := range []int{min(len(hs), 2*int(nb)+3), len(hs)} {
				checkSingleAll(t, l, nb, hs[:n], probe, n == len(hs))
			}
		}
	})
}

// checkSingleAll runs checkSingle on Filters with k = 8 and 16 and on a
// SplitBlock of nb blocks, checks the guard block after each and, if ends,
// that hs reached the first and last blocks.
func checkSingleAll(t *testing.T, l cpu.Level, nb uint64, hs, probe []uint64, ends bool) {
	t.Helper()
	for _, k := range []int{8, 16} {
		f, guard := guardedFilter(nb, k)
		ref := newFilter(nb, k)
		desc := fmt.Sprintf("Filter k=%d blocks=%d keys=%d", k, nb, len(hs))
		checkSingle(t, l, f, ref, func() bool { return f.Equal(ref) }, hs, probe, desc)
		if *guard != (block{}) {
			t.Fatalf("%v %s: AddHash wrote past the last block", l, desc)
		}
		if ends && !reachesEnds(f, nb) {
			t.Fatalf("%s: the hashes did not reach the first and last blocks", desc)
		}
	}
	p := splitPair(nb)
	s, ref := p.f.(*SplitBlock), p.ref.(*SplitBlock)
	desc := fmt.Sprintf("%s keys=%d", p.desc, len(hs))
	checkSingle(t, l, s, ref, p.equal, hs, probe, desc)
	if !p.intact() {
		t.Fatalf("%v %s: AddHash wrote past the last block", l, desc)
	}
}

// randomCounters fills c with counters that are zero with probability 1/12
// and otherwise 1 to 15 (15 included: saturated), so about half of random
// lookups find all 8 counters non-zero.
func randomCounters(c *Counting, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 11))
	for i := range c.blocks {
		for j := range c.blocks[i] {
			var w uint64
			for n := 0; n < 16; n++ {
				if r.IntN(12) != 0 {
					w |= uint64(1+r.IntN(15)) << (4 * n)
				}
			}
			c.blocks[i][j] = w
		}
	}
}

// checkCountingBatch compares HasHashes at level l with the pure-Go batch on
// probe, with the results poisoned both ways in the middle of a larger slice.
func checkCountingBatch(t *testing.T, l cpu.Level, c *Counting, probe []uint64) {
	t.Helper()
	want := make([]bool, len(probe))
	wantN := countingHasHashesGeneric(c, probe, want)
	for _, poison := range []bool{false, true} {
		buf := make([]bool, len(probe)+16)
		for i := range buf {
			buf[i] = poison
		}
		out := buf[8 : 8+len(probe)]
		var got int
		withLevel(l, func() { got = c.HasHashes(probe, out) })
		if got != wantN {
			t.Fatalf("%v blocks=%d len=%d: HasHashes counted %d, generic %d", l, len(c.blocks), len(probe), got, wantN)
		}
		for i := range want {
			if out[i] != want[i] {
				t.Fatalf("%v blocks=%d len=%d: HasHashes[%d] = %v, generic %v", l, len(c.blocks), len(probe), i, out[i], want[i])
			}
		}
		for i := range 8 {
			if buf[i] != poison || buf[len(buf)-1-i] != poison {
				t.Fatalf("%v blocks=%d len=%d: HasHashes wrote outside out", l, len(c.blocks), len(probe))
			}
		}
	}
}

func TestAsmCountingEqualsGeneric(t *testing.T) {
	sizes := []uint64{1, 2, 3, 7, 1000, 1001}
	if longtest.Enabled() {
		sizes = append(sizes, 3_000_001)
	}
	forEachAsmLevel(t, func(t *testing.T, l cpu.Level) {
		withPrefetch(func() {
			for _, nb := range sizes {
				c := &Counting{blocks: alignedBlocks(nb)}
				randomCounters(c, nb)
				for n := 1; n <= 70; n++ {
					checkCountingBatch(t, l, c, randomHashes(n, uint64(n)*nb))
				}
				probe := append(append(edgeHashes(), adversarialHashes()...), blockStarts(nb)...)
				checkCountingBatch(t, l, c, append(probe, randomHashes(20_000, nb)...))
				// Present keys: every counter non-zero, some saturated.
				hs := randomHashes(5000, nb+7)
				for range 16 {
					c.AddHashes(hs)
				}
				checkCountingBatch(t, l, c, mixed(hs, nb))
				c.Clear() // all zero: every lookup false
				checkCountingBatch(t, l, c, hs)
			}
		})
	})
}

// The AVX2 and AVX-512 lookups that work eight keys at a time keep block
// offsets in a ring computed five groups (40 keys) ahead and wrapping every
// 64 keys: lengths past the look-ahead, around the ring's wrap and not
// multiples of 8 (TestAsmEveryLength covers 1 to 70).
func TestAsmRingLengths(t *testing.T) {
	lengths := []int{71, 72, 73, 79, 80, 81, 100, 127, 128, 129, 135, 136, 255, 256, 257, 1001}
	forEachAsm(t, func(t *testing.T, l cpu.Level, newPair func(uint64) pair) {
		withPrefetch(func() {
			for _, nb := range []uint64{1, 3, 1000} {
				p := newPair(nb)
				for _, n := range lengths {
					hs := randomHashes(n, uint64(n)*nb+5)
					checkBatch(t, l, p, hs, mixed(hs, uint64(n)))
				}
			}
		})
	})
}

// sameBlockAt returns n random hashes in which hash i, for i >= d with
// i%d <= d/2, has the upper half (the block) of hash i-d and its own low
// half, so that keys of one block set different bits. d = 1 puts neighbours
// of a group in one block, d = 8 a key and the same key of the next group,
// d = 40 keys as far apart as the ring computes offsets ahead, and d = 64
// keys a ring's wrap apart.
func sameBlockAt(n, d int, seed uint64) []uint64 {
	hs := randomHashes(n, seed)
	for i := d; i < n; i++ {
		if i%d <= d/2 {
			hs[i] = hs[i-d]&^0xffffffff | hs[i]&0xffffffff
		}
	}
	return hs
}

// TestAsmAddSameBlock adds batches whose keys share blocks within a group
// of eight, across neighbouring groups and across the ring's look-ahead and
// wrap: every key's bits must land, as in the generic loop, which adds one
// key after another.
func TestAsmAddSameBlock(t *testing.T) {
	forEachAsm(t, func(t *testing.T, l cpu.Level, newPair func(uint64) pair) {
		withPrefetch(func() {
			for _, nb := range []uint64{1, 3, 1000} {
				p := newPair(nb)
				for _, d := range []int{1, 2, 7, 8, 9, 40, 64} {
					for _, n := range []int{d + 1, 16, 71, 137, 300} {
						hs := sameBlockAt(n, d, uint64(n*d)+nb)
						checkBatch(t, l, p, hs, mixed(hs, uint64(n)))
					}
				}
			}
		})
	})
}
