//go:build !purego

package blocked

// Kernel tests that need Linux's mmap: memory fenced by unmapped pages, and
// a 256 GiB mapping that is never backed by memory.

import (
	"slices"
	"syscall"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/cpu"
)

// TestAsmStaysInBounds puts the hashes of every add and lookup, and the
// results of every lookup, against unmapped pages, before and after: a
// kernel that reads one hash or writes one result outside them crashes the
// test (the ring kernels load each group's hashes 4 bytes in).
func TestAsmStaysInBounds(t *testing.T) {
	forEachAsmLevel(t, func(t *testing.T, l cpu.Level) {
		f8, f16, s := newFilter(100, 8), newFilter(100, 16), newSplitBlock(100)
		c := &Counting{blocks: alignedBlocks(100)}
		randomCounters(c, 1)
		withPrefetch(func() {
			for _, atEnd := range []bool{false, true} {
				for _, n := range []int{1, 7, 8, 9, 40, 41, 64, 65, 72} {
					hs := unsafe.Slice((*uint64)(fenced(t, n*8, atEnd)), n)
					copy(hs, randomHashes(n, uint64(n)))
					out := unsafe.Slice((*bool)(fenced(t, n, atEnd)), n)
					want := make([]bool, n)
					for _, p := range []pair{filterPair(100, 8), filterPair(100, 16), splitPair(100)} {
						withLevel(l, func() { p.f.AddHashes(hs) })
						withLevel(cpu.Generic, func() { p.ref.AddHashes(hs) })
						if !p.equal() || !p.intact() {
							t.Fatalf("%v %s n=%d: AddHashes differs from generic", l, p.desc, n)
						}
					}
					for _, b := range []interface {
						HasHashes(hs []uint64, out []bool) int
					}{f8, f16, s, c} {
						var got, wantN int
						withLevel(l, func() { got = b.HasHashes(hs, out) })
						withLevel(cpu.Generic, func() { wantN = b.HasHashes(hs, want) })
						if got != wantN || !slices.Equal(out, want) {
							t.Fatalf("%v %T n=%d: HasHashes differs from generic", l, b, n)
						}
					}
				}
			}
		})
	})
}

// TestAsmHugeBlockCount runs the lookups on 2^32-1 blocks (the most the
// AVX2 ring kernels take: their offsets come from 32-bit multiplies) and
// 2^32 blocks (the one-key kernels), mapped but not backed: 256 GiB of
// address space of which only the blocks the hashes reach are touched.
func TestAsmHugeBlockCount(t *testing.T) {
	if testing.Short() {
		t.Skip("maps 256 GiB of address space")
	}
	forEachAsmLevel(t, checkHugeBlockCount)
}

// checkHugeBlockCount is TestAsmHugeBlockCount at level l.
func checkHugeBlockCount(t *testing.T, l cpu.Level) {
	const most = 1 << 32
	mem, err := syscall.Mmap(-1, 0, (most+1)*64, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	all := unsafe.Slice((*block)(unsafe.Pointer(&mem[0])), most)
	// Hashes near the first and last blocks, where a product that lost
	// its upper bits would land elsewhere, and random ones.
	hs := append(edgeHashes(), blockStarts(most - 1)[:60]...)
	for _, hi := range []uint64{most - 1, most - 2, most - 3, 1 << 31, 3} {
		hs = append(hs, hi<<32|0x12345678, hi<<32|0xfedcba98)
	}
	hs = append(hs, randomHashes(500, 9)...)
	probe := mixed(hs, 10)
	checkHugeAdds(t, l, all, hs)
	for _, nb := range []uint64{most - 1, most} {
		for _, k := range []int{8, 16} {
			f := &Filter{blocks: all[:nb:nb], k: k}
			c := &Counting{blocks: all[:nb:nb]}
			s := &SplitBlock{blocks: unsafe.Slice((*splitBlock)(unsafe.Pointer(&mem[0])), nb)}
			withLevel(cpu.Generic, func() { f.AddHashes(hs); s.AddHashes(hs) })
			withPrefetch(func() {
				for _, b := range []interface {
					HasHashes(hs []uint64, out []bool) int
				}{f, s, c} {
					got, want := make([]bool, len(probe)), make([]bool, len(probe))
					var n, wantN int
					withLevel(l, func() { n = b.HasHashes(probe, got) })
					withLevel(cpu.Generic, func() { wantN = b.HasHashes(probe, want) })
					if n != wantN || !slices.Equal(got, want) {
						t.Fatalf("%v %T k=%d blocks=%d: HasHashes differs from generic", l, b, k, nb)
					}
					if n < len(hs) {
						t.Fatalf("%v %T k=%d blocks=%d: %d of %d added hashes found", l, b, k, nb, n, len(hs))
					}
				}
			})
		}
	}
}

// checkHugeAdds adds hs at level l to Filters and SplitBlocks of
// 2^32-1 blocks (the ring adds) and 2^32 blocks (the one-key adds) over all,
// which must be zero, and compares the blocks of every hash, and their
// neighbours, with the same filters' generic adds over a second mapping.
// It zeroes those blocks again before it returns.
func checkHugeAdds(t *testing.T, l cpu.Level, all []block, hs []uint64) {
	t.Helper()
	mem, err := syscall.Mmap(-1, 0, len(all)*64, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	refAll := unsafe.Slice((*block)(unsafe.Pointer(&mem[0])), len(all))
	splits := func(bs []block, nb uint64) []splitBlock {
		return unsafe.Slice((*splitBlock)(unsafe.Pointer(&bs[0])), nb)
	}
	for _, nb := range []uint64{uint64(len(all)) - 1, uint64(len(all))} {
		// The blocks the hashes reach, and their neighbours.
		var touched []uint64
		for _, h := range hs {
			i := ((h >> 32) * nb) >> 32
			touched = append(touched, max(i, 1)-1, i, min(i+1, nb-1))
		}
		for _, k := range []int{0, 8, 16} { // 0: the SplitBlock
			withPrefetch(func() {
				f, ref := &Filter{blocks: all[:nb:nb], k: k}, &Filter{blocks: refAll[:nb:nb], k: k}
				s, sref := &SplitBlock{blocks: splits(all, nb)}, &SplitBlock{blocks: splits(refAll, nb)}
				if k == 0 {
					withLevel(l, func() { s.AddHashes(hs) })
					withLevel(cpu.Generic, func() { sref.AddHashes(hs) })
				} else {
					withLevel(l, func() { f.AddHashes(hs) })
					withLevel(cpu.Generic, func() { ref.AddHashes(hs) })
				}
				for _, i := range touched {
					if k == 0 && s.blocks[i] != sref.blocks[i] || k > 0 && all[i] != refAll[i] {
						t.Fatalf("%v k=%d blocks=%d: AddHashes differs from generic in block %d", l, k, nb, i)
					}
				}
				for _, i := range touched {
					all[i], refAll[i] = block{}, block{}
					if k == 0 {
						s.blocks[i], sref.blocks[i] = splitBlock{}, splitBlock{}
					}
				}
			})
		}
	}
}
