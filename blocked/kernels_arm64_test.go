//go:build !purego && (linux || darwin)

package blocked

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/cpu"
)

// These tests call the NEON kernels directly (not through the dispatch) and
// compare them with the generic kernels, filter bytes and lookup results,
// on inputs chosen to break them: every tail length, keys sharing a block,
// duplicates, the first and last blocks, and buffers that end at an
// unmapped page.

func TestNEONDetected(t *testing.T) {
	t.Logf("cpu.Detected = %v, cpu.Active = %v, usable %v", cpu.Detected, cpu.Active, cpu.Usable())
	if cpu.Detected != cpu.NEON || !slices.Contains(cpu.Usable(), cpu.NEON) {
		t.Fatalf("arm64 without NEON detected (%v): the NEON kernels would not be tested", cpu.Detected)
	}
}

func addNEON(f *Filter, hs []uint64, pf, npf int) {
	b, nb := (*[8]uint64)(&f.blocks[0]), uint64(len(f.blocks))
	if f.k == 8 {
		filterAdd8NEON(b, nb, hs, pf, npf)
	} else {
		filterAdd16NEON(b, nb, hs, pf, npf)
	}
}

func hasNEON(f *Filter, hs []uint64, out []bool, pf, npf int) int {
	b, nb := (*[8]uint64)(&f.blocks[0]), uint64(len(f.blocks))
	if f.k == 8 {
		return filterHas8NEON(b, nb, hs, out, pf, npf)
	}
	return filterHas16NEON(b, nb, hs, out, pf, npf)
}

// The SplitBlock and Counting kernels on a slice of blocks.

func splitAddNEONOf(blocks []splitBlock, hs []uint64, pf, npf int) {
	splitAddNEON((*[8]uint32)(&blocks[0]), uint64(len(blocks)), hs, pf, npf)
}

func splitHasNEONOf(blocks []splitBlock, hs []uint64, out []bool, pf, npf int) int {
	return splitHasNEON((*[8]uint32)(&blocks[0]), uint64(len(blocks)), hs, out, pf, npf)
}

func countingAddNEONOf(blocks []block, hs []uint64, pf, npf int) {
	countingAddNEON((*[8]uint64)(&blocks[0]), uint64(len(blocks)), hs, pf, npf)
}

func countingHasNEONOf(blocks []block, hs []uint64, out []bool, pf, npf int) int {
	return countingHasNEON((*[8]uint64)(&blocks[0]), uint64(len(blocks)), hs, out, pf, npf)
}

// prefetchPlans returns the (pf, npf) pairs to test for n keys: none, the
// real plan, and the edges (every key prefetching, the farthest distance).
func prefetchPlans(n int) [][2]int {
	plans := [][2]int{{0, 0}, {0, n}, {1, n - 1}, {n - 1, 1}}
	if n > prefetchDistance {
		plans = append(plans, [2]int{prefetchDistance, n - prefetchDistance})
	}
	return plans
}

// checkNEON adds hs with both kernels to copies of base, compares the bits,
// then looks up probes with both kernels in the result and compares answers,
// counts, and that nothing past len(probes) of out was written; with and
// without prefetch.
func checkNEON(t *testing.T, name string, base *Filter, hs, probes []uint64) {
	t.Helper()
	g := base.Clone()
	if len(hs) > 0 {
		addHashesGeneric(g, hs)
		for _, p := range prefetchPlans(len(hs)) {
			n := base.Clone()
			addNEON(n, hs, p[0], p[1])
			for i := range g.blocks {
				if g.blocks[i] != n.blocks[i] {
					t.Fatalf("%s: k=%d blocks=%d prefetch %v: add differs at block %d: generic %x, neon %x",
						name, g.k, len(g.blocks), p, i, g.blocks[i], n.blocks[i])
				}
			}
		}
	}
	if len(probes) == 0 {
		return
	}
	want := make([]bool, len(probes))
	wantN := hasHashesGeneric(g, probes, want)
	for _, p := range prefetchPlans(len(probes)) {
		got := make([]bool, len(probes)+8)
		for i := range got {
			got[i] = i%2 == 0 // the kernel must overwrite both values
		}
		gotN := hasNEON(g, probes, got[:len(probes)], p[0], p[1])
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: k=%d blocks=%d prefetch %v: lookup %d of %d (%#x): neon %v, generic %v",
					name, g.k, len(g.blocks), p, i, len(probes), probes[i], got[i], want[i])
			}
		}
		if gotN != wantN {
			t.Fatalf("%s: k=%d blocks=%d prefetch %v: neon counted %d, generic %d", name, g.k, len(g.blocks), p, gotN, wantN)
		}
		for i := len(probes); i < len(got); i++ {
			if got[i] != (i%2 == 0) {
				t.Fatalf("%s: prefetch %v: lookup wrote out[%d], past %d results", name, p, i, len(probes))
			}
		}
	}
}

// mixed returns probes: half of present (in order), half random.
func mixed(present []uint64, n int, seed uint64) []uint64 {
	r := randomHashes(n, seed)
	for i := 0; i < n && i < len(present); i += 2 {
		r[i] = present[i]
	}
	return r
}

func TestNEONEveryLength(t *testing.T) {
	for _, k := range []int{8, 16} {
		for _, nb := range []uint64{1, 7, 1000} {
			base := mustBytes(t, nb*64, k)
			base.AddHashes(randomHashes(int(nb)*4, nb)) // some bits, some absent keys
			for n := 1; n <= 70; n++ {
				hs := randomHashes(n, uint64(n)*31+nb)
				checkNEON(t, "length", base, hs, mixed(hs, n, uint64(n)))
			}
		}
	}
}

func TestNEONOneBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sizes := []uint64{1, 2, 1000}
	if !testing.Short() {
		sizes = append(sizes, 3_000_001) // -short: covered by TestNEONFirstAndLastBlock
	}
	for _, k := range []int{8, 16} {
		for _, nb := range sizes {
			f := mustBytes(t, nb*64, k)
			hi := r.Uint64() &^ 0xffffffff // every key in the same block
			hs := make([]uint64, 300)
			for i := range hs {
				hs[i] = hi | uint64(r.Uint32())
			}
			probes := make([]uint64, 500)
			for i := range probes {
				probes[i] = hi | uint64(r.Uint32())
			}
			// Few keys: some probes in that block are absent. Then all of them.
			checkNEON(t, "one block, few keys", f, hs[:3], append(probes, hs[:3]...))
			checkNEON(t, "one block", f, hs, append(probes, hs...))
		}
	}
}

func TestNEONDuplicates(t *testing.T) {
	for _, k := range []int{8, 16} {
		f := mustBytes(t, 64*50, k)
		u := randomHashes(20, 9)
		var hs []uint64
		for i := range 200 {
			hs = append(hs, u[i%7], u[i%20], u[i%3]^uint64(i)) // repeats; same block, other bits
		}
		checkNEON(t, "duplicates", f, hs, mixed(hs, 1000, 10))
	}
}

func TestNEONFirstAndLastBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{8, 16} {
		for _, nb := range []uint64{1, 3, 3_000_001} {
			var last, first []uint64
			for range 40 {
				last = append(last, 0xffffffff<<32|uint64(r.Uint32()))
				first = append(first, uint64(r.Uint32()))
			}
			last = append(last, ^uint64(0), 0xffffffff<<32)
			first = append(first, 0, 0xffffffff)
			f := mustBytes(t, nb*64, k)
			addNEON(f, last, 0, 0)
			if f.blocks[nb-1] == (block{}) {
				t.Fatalf("k=%d blocks=%d: hashes with high half 0xffffffff did not reach the last block", k, nb)
			}
			if nb > 1 {
				for i := range f.blocks[:nb-1] {
					if f.blocks[i] != (block{}) {
						t.Fatalf("k=%d blocks=%d: a last-block hash set bits in block %d", k, nb, i)
					}
				}
			}
			base := mustBytes(t, nb*64, k)
			base.AddHashes(randomHashes(1000, nb))
			all := append(append(slices.Clone(last), first...), randomHashes(1000, nb+1)...)
			checkNEON(t, "first and last blocks", base, all, append(all, randomHashes(3000, 77)...))
		}
	}
}

func TestNEONLarge(t *testing.T) {
	for _, k := range []int{8, 16} {
		const nb = 3_000_001
		base := mustBytes(t, nb*64, k)
		base.AddHashes(randomHashes(100_000, 1))
		hs := randomHashes(50_000, 2)
		checkNEON(t, "3000001 blocks", base, hs, mixed(hs, 100_000, 3))
	}
}

// TestNEONStaysInBounds puts the filter, the hashes and the results against
// unmapped pages: a kernel that reads or writes one byte outside them
// crashes the test.
func TestNEONStaysInBounds(t *testing.T) {
	for _, atEnd := range []bool{false, true} {
		for _, k := range []int{8, 16} {
			for _, nb := range []int{1, 3, 100} {
				for _, n := range []int{1, 2, 3, 8, 17, 64} {
					src := randomHashes(n, uint64(n))
					src[0] = 0xffffffff<<32 | src[0] // the last block, first or last key
					src[n-1] |= 0xffffffff << 32
					fb := unsafe.Slice((*block)(fenced(t, nb*64, atEnd)), nb)
					hs := unsafe.Slice((*uint64)(fenced(t, n*8, atEnd)), n)
					out := unsafe.Slice((*bool)(fenced(t, n, atEnd)), n)
					copy(hs, src)
					f := &Filter{blocks: fb, k: k}
					ref := mustBytes(t, uint64(nb)*64, k)
					addHashesGeneric(ref, src)
					want := make([]bool, n)
					wantN := hasHashesGeneric(ref, src, want)
					for _, p := range prefetchPlans(n) {
						clear(f.blocks)
						addNEON(f, hs, p[0], p[1])
						if !slices.Equal(f.blocks, ref.blocks) {
							t.Fatalf("guarded k=%d blocks=%d n=%d prefetch %v: add differs from generic", k, nb, n, p)
						}
						if got := hasNEON(f, hs, out, p[0], p[1]); got != wantN || !slices.Equal(out, want) {
							t.Fatalf("guarded k=%d blocks=%d n=%d prefetch %v: lookup %v (%d), want %v (%d)", k, nb, n, p, out, got, want, wantN)
						}
					}
				}
			}
		}
	}
}

// TestNEONPrefetchDispatch runs the batch-equals-single test through the
// dispatch with prefetching forced on for every filter size.
func TestNEONPrefetchDispatch(t *testing.T) {
	saved := prefetchFrom
	defer func() { prefetchFrom = saved }()
	prefetchFrom = 0
	forEachLevel(t, testBatchEqualsSingle)
}

// The split-block (Parquet) NEON kernels, against the generic ones.

// checkSplitNEON is checkNEON for SplitBlock.
func checkSplitNEON(t *testing.T, name string, base *SplitBlock, hs, probes []uint64) {
	t.Helper()
	g := base.Clone()
	if len(hs) > 0 {
		splitAddHashesGeneric(g, hs)
		for _, p := range prefetchPlans(len(hs)) {
			n := base.Clone()
			splitAddNEONOf(n.blocks, hs, p[0], p[1])
			for i := range g.blocks {
				if g.blocks[i] != n.blocks[i] {
					t.Fatalf("%s: split blocks=%d prefetch %v: add differs at block %d: generic %x, neon %x",
						name, len(g.blocks), p, i, g.blocks[i], n.blocks[i])
				}
			}
		}
	}
	want := make([]bool, len(probes))
	wantN := splitHasHashesGeneric(g, probes, want)
	for _, p := range prefetchPlans(len(probes)) {
		got := make([]bool, len(probes)+8)
		for i := range got {
			got[i] = i%2 == 0
		}
		gotN := splitHasNEONOf(g.blocks, probes, got[:len(probes)], p[0], p[1])
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: split blocks=%d prefetch %v: lookup %d of %d (%#x): neon %v, generic %v",
					name, len(g.blocks), p, i, len(probes), probes[i], got[i], want[i])
			}
		}
		if gotN != wantN {
			t.Fatalf("%s: split blocks=%d prefetch %v: neon counted %d, generic %d", name, len(g.blocks), p, gotN, wantN)
		}
		for i := len(probes); i < len(got); i++ {
			if got[i] != (i%2 == 0) {
				t.Fatalf("%s: split prefetch %v: lookup wrote out[%d], past %d results", name, p, i, len(probes))
			}
		}
	}
}

func TestSplitNEON(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, nb := range []uint64{1, 2, 7, 1000, 3_000_001} {
		base := newSplitBlock(nb)
		base.AddHashes(randomHashes(int(min(nb, 100_000))*3, nb)) // some bits, some absent keys
		if nb < 3_000_001 {
			for n := 1; n <= 70; n++ { // every tail
				hs := randomHashes(n, uint64(n)*37+nb)
				checkSplitNEON(t, "length", base, hs, mixed(hs, n, uint64(n)+nb))
			}
		}
		hi := r.Uint64() &^ 0xffffffff // keys sharing one block: few, then many
		one := make([]uint64, 400)
		for i := range one {
			one[i] = hi | uint64(r.Uint32())
		}
		checkSplitNEON(t, "one block, few keys", base, one[:3], one)
		checkSplitNEON(t, "one block", base, one[:200], one)
		u := randomHashes(20, nb+5) // duplicates in one batch
		var dup []uint64
		for i := range 200 {
			dup = append(dup, u[i%7], u[i%20], u[i%3]^uint64(i))
		}
		checkSplitNEON(t, "duplicates", base, dup, mixed(dup, 1000, nb+6))
		var edges []uint64 // first and last blocks
		for range 40 {
			edges = append(edges, 0xffffffff<<32|uint64(r.Uint32()), uint64(r.Uint32()))
		}
		edges = append(edges, ^uint64(0), 0xffffffff<<32, 0, 0xffffffff)
		checkSplitNEON(t, "first and last blocks", base, edges, append(slices.Clone(edges), randomHashes(2000, nb+7)...))
		last := newSplitBlock(nb)
		splitAddNEONOf(last.blocks, edges[:1], 0, 0)
		if last.blocks[nb-1] == (splitBlock{}) {
			t.Fatalf("split blocks=%d: a hash with high half 0xffffffff did not reach the last block", nb)
		}
		hs := randomHashes(20_000, nb+8)
		checkSplitNEON(t, "random", base, hs, mixed(hs, 40_000, nb+9))
	}
}

// TestSplitNEONStaysInBounds is TestNEONStaysInBounds for SplitBlock.
func TestSplitNEONStaysInBounds(t *testing.T) {
	for _, atEnd := range []bool{false, true} {
		for _, nb := range []int{1, 3, 100} {
			for _, n := range []int{1, 2, 3, 8, 17, 64} {
				src := randomHashes(n, uint64(n))
				src[0] |= 0xffffffff << 32
				src[n-1] |= 0xffffffff << 32
				blocks := unsafe.Slice((*splitBlock)(fenced(t, nb*32, atEnd)), nb)
				hs := unsafe.Slice((*uint64)(fenced(t, n*8, atEnd)), n)
				out := unsafe.Slice((*bool)(fenced(t, n, atEnd)), n)
				copy(hs, src)
				ref := newSplitBlock(uint64(nb))
				splitAddHashesGeneric(ref, src)
				want := make([]bool, n)
				wantN := splitHasHashesGeneric(ref, src, want)
				for _, p := range prefetchPlans(n) {
					clear(blocks)
					splitAddNEONOf(blocks, hs, p[0], p[1])
					if !slices.Equal(blocks, ref.blocks) {
						t.Fatalf("guarded split blocks=%d n=%d prefetch %v: add differs from generic", nb, n, p)
					}
					if got := splitHasNEONOf(blocks, hs, out, p[0], p[1]); got != wantN || !slices.Equal(out, want) {
						t.Fatalf("guarded split blocks=%d n=%d prefetch %v: lookup %v (%d), want %v (%d)", nb, n, p, out, got, want, wantN)
					}
				}
			}
		}
	}
}

// TestSplitNEONPrefetchDispatch runs the split-block batch-equals-single test
// through the dispatch with prefetching forced on.
func TestSplitNEONPrefetchDispatch(t *testing.T) {
	saved := prefetchFrom
	defer func() { prefetchFrom = saved }()
	prefetchFrom = 0
	forEachLevel(t, testSplitBatchEqualsSingle)
}

// checkCountingNEON looks up probes in c with the NEON kernel and the
// generic loop and compares answers and counts, with every prefetch plan,
// and that nothing past len(probes) of out was written.
func checkCountingNEON(t *testing.T, name string, c *Counting, probes []uint64) {
	t.Helper()
	want := make([]bool, len(probes))
	wantN := countingHasHashesGeneric(c, probes, want)
	for _, p := range prefetchPlans(len(probes)) {
		got := make([]bool, len(probes)+8)
		for i := range got {
			got[i] = i%2 == 0
		}
		gotN := countingHasNEONOf(c.blocks, probes, got[:len(probes)], p[0], p[1])
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: blocks=%d prefetch %v: lookup %d of %d (%#x): neon %v, generic %v",
					name, len(c.blocks), p, i, len(probes), probes[i], got[i], want[i])
			}
		}
		if gotN != wantN {
			t.Fatalf("%s: blocks=%d prefetch %v: neon counted %d, generic %d", name, len(c.blocks), p, gotN, wantN)
		}
		for i := len(probes); i < len(got); i++ {
			if got[i] != (i%2 == 0) {
				t.Fatalf("%s: prefetch %v: lookup wrote out[%d], past %d results", name, p, i, len(probes))
			}
		}
	}
}

// TestCountingNEON covers every length 0-70 (across the generic loop's
// groups of 16), counters at 0, 1-14 and saturated at 15 (every nibble
// value and both nibbles of a byte), one block, and the first and last
// blocks of a huge filter.
func TestCountingNEON(t *testing.T) {
	for _, nb := range []uint64{1, 7, 1000} {
		c := mustCounting(t, nb*64)
		hs := randomHashes(int(nb)*3, nb)
		c.AddHashes(hs)
		for range 16 {
			c.AddHashes(hs[:len(hs)/4]) // saturate some counters
		}
		for n := 1; n <= 70; n++ {
			checkCountingNEON(t, "length", c, mixed(hs, n, uint64(n)))
		}
		out := make([]bool, 1)
		if got := c.HasHashes(nil, out[:0]); got != 0 {
			t.Fatalf("no keys: %d true", got)
		}
	}

	r := rand.New(rand.NewPCG(7, 8))
	c := mustCounting(t, 64)
	var hs []uint64
	for range 60 {
		hs = append(hs, uint64(r.Uint32()))
	}
	c.AddHashes(hs[:6]) // few keys: many probes absent
	checkCountingNEON(t, "one block, few keys", c, mixed(hs, 60, 1))
	for i := range 20 {
		c.AddHashes(hs[:i%7+1]) // counts 1..15 and saturation
	}
	checkCountingNEON(t, "one block, counted", c, append(randomHashes(200, 3), hs...))

	nb := uint64(3_000_001)
	if testing.Short() {
		nb = 100_003
	}
	c = mustCounting(t, nb*64)
	var edge []uint64
	for range 30 {
		edge = append(edge, 0xffffffff<<32|uint64(r.Uint32()), uint64(r.Uint32()))
	}
	edge = append(edge, ^uint64(0), 0xffffffff<<32, 0, 0xffffffff)
	c.AddHashes(edge[:len(edge)/2])
	checkCountingNEON(t, "first and last blocks", c, append(edge, randomHashes(100, 4)...))
	if c.blocks[nb-1] == (block{}) || c.blocks[0] == (block{}) {
		t.Fatal("the edge hashes did not reach the first and last blocks")
	}
}

// TestCountingNEONDispatch checks that HasHashes runs the NEON kernel, with
// and without prefetch, and answers as the generic loop does.
func TestCountingNEONDispatch(t *testing.T) {
	saved := prefetchFrom
	defer func() { prefetchFrom = saved }()
	c := mustCounting(t, 500*64)
	hs := randomHashes(2000, 11)
	c.AddHashes(hs[:1000])
	probes := mixed(hs, 2000, 12)
	want := make([]bool, len(probes))
	wantN := countingHasHashesGeneric(c, probes, want)
	for _, above := range []uint64{saved, 0} {
		prefetchFrom = above
		got := make([]bool, len(probes))
		if n := c.HasHashes(probes, got); n != wantN || !slices.Equal(got, want) {
			t.Fatalf("prefetchFrom %d: HasHashes counted %d (generic %d) or answered differently", above, n, wantN)
		}
		if _, ok := countingHasHashesArch(c, probes, got); !ok {
			t.Fatal("the NEON Counting lookup did not run")
		}
	}
}

// checkCountingAddNEON adds hs with both kernels to copies of base and
// compares every counter, with and without prefetch.
func checkCountingAddNEON(t *testing.T, name string, base *Counting, hs []uint64) {
	t.Helper()
	want := base.Clone()
	if len(hs) > 0 {
		countingAddHashesGeneric(want, hs)
	}
	for _, p := range prefetchPlans(len(hs)) {
		got := base.Clone()
		if len(hs) > 0 {
			countingAddNEONOf(got.blocks, hs, p[0], p[1])
		}
		if !got.Equal(want) {
			for i := range want.blocks {
				if got.blocks[i] != want.blocks[i] {
					t.Fatalf("%s: blocks=%d n=%d prefetch %v: block %d: neon %x, generic %x",
						name, len(base.blocks), len(hs), p, i, got.blocks[i], want.blocks[i])
				}
			}
		}
	}
}

// sameBlock returns n hashes of the block of h in a filter of any size
// (equal upper halves), with random counter halves and, every third, h
// itself again.
func sameBlock(h uint64, n int, seed uint64) []uint64 {
	hs := randomHashes(n, seed)
	for i := range hs {
		hs[i] = h&^0xffffffff | hs[i]&0xffffffff
		if i%3 == 0 {
			hs[i] = h
		}
	}
	return hs
}

// TestCountingAddNEON covers every length 0-70 (across the generic loop's
// groups of 16) on empty, partly counted and saturated counters, runs of
// keys in one block and duplicates (each must see the previous ones'
// increments), one block, and the first and last blocks of a huge filter.
func TestCountingAddNEON(t *testing.T) {
	for _, nb := range []uint64{1, 7, 1000} {
		c := mustCounting(t, nb*64)
		hs := randomHashes(int(nb)*3, nb)
		for n := 0; n <= 70; n++ {
			checkCountingAddNEON(t, "length, empty", c, mixed(hs, n, uint64(n)))
		}
		c.AddHashes(hs)
		for range 16 {
			c.AddHashes(hs[:len(hs)/4+1]) // saturate some counters
		}
		if c.Saturated() == 0 {
			t.Fatal("no counter saturated")
		}
		for n := 0; n <= 70; n++ {
			checkCountingAddNEON(t, "length, counted", c, mixed(hs, n, uint64(n)+100))
		}
		checkCountingAddNEON(t, "same block", c, sameBlock(hs[0], 70, nb))
		checkCountingAddNEON(t, "duplicates", c, slices.Repeat(hs[:3], 20))
	}

	// One block: 40 adds of one key take its counters from 0 to 15 and keep
	// them there.
	c := mustCounting(t, 64)
	h := uint64(0x9e3779b97f4a7c15)
	checkCountingAddNEON(t, "one key repeated", c, slices.Repeat([]uint64{h}, 40))
	countingAddNEONOf(c.blocks, slices.Repeat([]uint64{h}, 40), 0, 0)
	if c.Saturated() != 8 || !c.HasHash(h) {
		t.Fatalf("40 adds of one key: %d counters saturated, want 8", c.Saturated())
	}
	checkCountingAddNEON(t, "one block, saturated", c, append(sameBlock(h, 50, 5), randomHashes(30, 6)...))

	nb := uint64(3_000_001)
	if testing.Short() {
		nb = 100_003
	}
	c = mustCounting(t, nb*64)
	r := rand.New(rand.NewPCG(9, 10))
	var edge []uint64
	for range 30 {
		edge = append(edge, 0xffffffff<<32|uint64(r.Uint32()), uint64(r.Uint32()))
	}
	edge = append(edge, ^uint64(0), 0xffffffff<<32, 0, 0xffffffff)
	checkCountingAddNEON(t, "first and last blocks", c, append(edge, randomHashes(100, 4)...))
	countingAddNEONOf(c.blocks, edge, 0, 0)
	if c.blocks[nb-1] == (block{}) || c.blocks[0] == (block{}) {
		t.Fatal("the edge hashes did not reach the first and last blocks")
	}
}

// TestCountingAddNEONStaysInBounds puts the counters and the hashes against
// unmapped pages: a kernel that reads or writes one byte outside them
// crashes the test.
func TestCountingAddNEONStaysInBounds(t *testing.T) {
	for _, atEnd := range []bool{false, true} {
		for _, nb := range []int{1, 3, 100} {
			for _, n := range []int{1, 2, 17, 64} {
				src := randomHashes(n, uint64(n))
				src[0] |= 0xffffffff << 32 // the last block, first and last key
				src[n-1] |= 0xffffffff << 32
				hs := unsafe.Slice((*uint64)(fenced(t, n*8, atEnd)), n)
				copy(hs, src)
				c := &Counting{blocks: unsafe.Slice((*block)(fenced(t, nb*64, atEnd)), nb)}
				want := mustCounting(t, uint64(nb)*64)
				countingAddHashesGeneric(want, src)
				for _, p := range prefetchPlans(n) {
					clear(c.blocks)
					countingAddNEONOf(c.blocks, hs, p[0], p[1])
					if !slices.Equal(c.blocks, want.blocks) {
						t.Fatalf("guarded blocks=%d n=%d prefetch %v: add differs from generic", nb, n, p)
					}
				}
			}
		}
	}
}

// TestCountingAddNEONDispatch checks that AddHashes runs the NEON kernel,
// with and without prefetch, and counts as the generic loop does.
func TestCountingAddNEONDispatch(t *testing.T) {
	saved := prefetchFrom
	defer func() { prefetchFrom = saved }()
	hs := randomHashes(2000, 13)
	hs = append(hs, hs[:500]...) // duplicates
	want := mustCounting(t, 500*64)
	countingAddHashesGeneric(want, hs)
	for _, above := range []uint64{saved, 0} {
		prefetchFrom = above
		c := mustCounting(t, 500*64)
		c.AddHashes(hs)
		if !c.Equal(want) {
			t.Fatalf("prefetchFrom %d: AddHashes counted differently from the generic loop", above)
		}
		if !countingAddHashesArch(c, hs[:1]) {
			t.Fatal("the NEON Counting add did not run")
		}
	}
}
