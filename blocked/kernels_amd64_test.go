//go:build !purego

package blocked

import (
	"fmt"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// The assembly kernels against the generic ones on adversarial batches: every
// length from 1 to 70 (every tail, with and without prefetch), all keys in
// one block, duplicates, one-block filters, a large non-power-of-two number of
// blocks, the last block, and guard blocks and bools around the data.

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

// checkBatch adds hs with level l to f and with the generic kernel to ref,
// then looks up probe with both and compares filters, results and counts.
func checkBatch(t *testing.T, l cpu.Level, f, ref *Filter, guard *block, hs, probe []uint64) {
	t.Helper()
	withLevel(l, func() { f.AddHashes(hs) })
	withLevel(cpu.Generic, func() { ref.AddHashes(hs) })
	if !f.Equal(ref) {
		t.Fatalf("%v k=%d blocks=%d len=%d: AddHashes set different bits than generic", l, f.k, len(f.blocks), len(hs))
	}
	if *guard != (block{}) {
		t.Fatalf("%v k=%d blocks=%d len=%d: AddHashes wrote past the last block", l, f.k, len(f.blocks), len(hs))
	}
	// Results in the middle of a larger slice, poisoned with both values.
	for _, poison := range []bool{false, true} {
		buf := make([]bool, len(probe)+16)
		for i := range buf {
			buf[i] = poison
		}
		out := buf[8 : 8+len(probe)]
		var got int
		withLevel(l, func() { got = f.HasHashes(probe, out) })
		want := make([]bool, len(probe))
		var wantN int
		withLevel(cpu.Generic, func() { wantN = ref.HasHashes(probe, want) })
		if got != wantN {
			t.Fatalf("%v k=%d blocks=%d len=%d: HasHashes counted %d, generic %d", l, f.k, len(f.blocks), len(probe), got, wantN)
		}
		for i := range want {
			if out[i] != want[i] {
				t.Fatalf("%v k=%d blocks=%d len=%d: HasHashes[%d] = %v, generic %v", l, f.k, len(f.blocks), len(probe), i, out[i], want[i])
			}
		}
		for i := range 8 {
			if buf[i] != poison || buf[len(buf)-1-i] != poison {
				t.Fatalf("%v k=%d len=%d: HasHashes wrote outside out", l, f.k, len(probe))
			}
		}
	}
}

// mixed returns hs followed by as many random hashes, so about half of a
// lookup is present.
func mixed(hs []uint64, seed uint64) []uint64 {
	return append(append([]uint64(nil), hs...), randomHashes(len(hs), seed)...)
}

func forEachAsm(t *testing.T, fn func(t *testing.T, l cpu.Level, k int)) {
	ls := asmLevels()
	if len(ls) == 0 {
		t.Skip("no assembly kernels on this processor")
	}
	for _, l := range ls {
		for _, k := range []int{8, 16} {
			t.Run(fmt.Sprintf("%v/k=%d", l, k), func(t *testing.T) { fn(t, l, k) })
		}
	}
}

// withPrefetch runs fn twice: with the real prefetch threshold, and with
// prefetching forced on for every filter, so small filters exercise the
// prefetching loop and its end.
func withPrefetch(fn func()) {
	saved := prefetchAbove
	defer func() { prefetchAbove = saved }()
	fn()
	prefetchAbove = 0
	fn()
}

func TestAsmEveryLength(t *testing.T) {
	forEachAsm(t, func(t *testing.T, l cpu.Level, k int) {
		withPrefetch(func() {
			for _, nb := range []uint64{1, 2, 3, 7, 1000} {
				f, guard := guardedFilter(nb, k)
				ref := newFilter(nb, k)
				for n := 1; n <= 70; n++ {
					hs := randomHashes(n, uint64(n)*nb)
					checkBatch(t, l, f, ref, guard, hs, mixed(hs, uint64(n)))
				}
			}
		})
	})
}

func TestAsmOneBlockAndDuplicates(t *testing.T) {
	forEachAsm(t, func(t *testing.T, l cpu.Level, k int) {
		withPrefetch(func() {
			for _, nb := range []uint64{1, 64, 1001} {
				f, guard := guardedFilter(nb, k)
				ref := newFilter(nb, k)
				// All keys in one block (the same upper half), up to 70 keys.
				for n := 1; n <= 70; n++ {
					hs := randomHashes(n, uint64(n)+99)
					for i := range hs {
						hs[i] = 0xdeadbeef<<32 | hs[i]&0xffffffff
					}
					checkBatch(t, l, f, ref, guard, hs, mixed(hs, uint64(n)))
				}
				// Duplicates and alternating repeats in one batch.
				hs := randomHashes(40, nb)
				dup := append(append(append([]uint64(nil), hs...), hs...), hs[:7]...)
				for i := 0; i < 30; i++ {
					dup = append(dup, hs[i%3])
				}
				checkBatch(t, l, f, ref, guard, dup, mixed(dup, nb))
				checkBatch(t, l, f, ref, guard, adversarialHashes(), mixed(adversarialHashes(), nb))
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

func TestAsmLargeBlockCount(t *testing.T) {
	// 2^32 blocks (256 GiB) cannot be allocated; 3_000_001 blocks (183 MiB,
	// not a power of two, above the last-level cache so the kernels
	// prefetch) check the index arithmetic and the last block.
	const nb = 3_000_001
	forEachAsm(t, func(t *testing.T, l cpu.Level, k int) {
		f, guard := guardedFilter(nb, k)
		ref := newFilter(nb, k)
		edge := edgeHashes()
		checkBatch(t, l, f, ref, guard, edge, mixed(edge, 5))
		if f.blocks[nb-1] == (block{}) || f.blocks[0] == (block{}) {
			t.Fatal("edge hashes did not reach the first and last blocks")
		}
		for n := 1; n <= 70; n++ {
			hs := randomHashes(n, uint64(n)+1000)
			checkBatch(t, l, f, ref, guard, hs, mixed(hs, uint64(n)))
		}
		hs := randomHashes(100_000, 77)
		checkBatch(t, l, f, ref, guard, hs, mixed(hs, 78))
	})
}

func init() {
	floorKernels = append(floorKernels, struct {
		name string
		fn   func(f *Filter, hs []uint64) uint64
	}{"asm", touchLinesAsm})
}

// touchLinesAsm is the assembly floor, prefetching as the lookups do.
func touchLinesAsm(f *Filter, hs []uint64) uint64 {
	pf, npf := prefetchPlan(f, len(hs))
	return touchLines((*[8]uint64)(&f.blocks[0]), uint64(len(f.blocks)), hs, pf, npf)
}
