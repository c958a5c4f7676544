package blocked

import (
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// hugeBytes is the size of the huge-filter tests: 513 MiB, a little more
// than 2^32 bits, so bit counts and block indexes need 64-bit math.
const hugeBytes = 513 << 20

// hugeHashes returns n hashes whose upper 32 bits are near 2^32-1, spread
// over the last few thousand blocks of a huge filter, plus a few at the
// start and in the middle.
func hugeHashes(n int) []uint64 {
	hs := randomHashes(n, 31)
	for i := range hs {
		var hi uint64
		switch i % 16 {
		case 0:
			hi = uint64(i) // first blocks
		case 1:
			hi = 1<<31 + uint64(i) // middle
		default:
			hi = 0xFFFFFFFF - uint64(i%4096-2)*512 // last ~4000 blocks, the very last included
		}
		hs[i] = hi<<32 | hs[i]&0xFFFFFFFF
	}
	return hs
}

// refAdd sets the bits of the in-block hash x in b, straight from the
// definition: bit (x*salt[i])>>26 of word i, and salt[i+8] too for k = 16.
func refAdd(b *block, x uint32, k int) {
	for i := range b {
		b[i] |= 1 << ((x * salt[i]) >> 26)
		if k == 16 {
			b[i] |= 1 << ((x * salt[i+8]) >> 26)
		}
	}
}

// TestHugeFilter adds keys to a filter of more than 2^32 bits, most of them
// landing in its last blocks, at every kernel level, and checks the block
// each landed in against 64-bit fastrange, the bits against the generic
// kernel, the lookups, the estimates and a streamed round trip.
func TestHugeFilter(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 513 MiB (twice for the round trip)")
	}
	hs := hugeHashes(40_000)
	forEachLevel(t, func(t *testing.T) {
		for _, k := range []int{8, 16} {
			t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) { checkHugeFilter(t, hs, k) })
			runtime.GC()
		}
	})
}

// checkHugeFilter is TestHugeFilter for k at the active level; the checks
// that do not depend on the level (the atomic adds, the estimates, the round
// trip) run at the generic level only.
func checkHugeFilter(t *testing.T, hs []uint64, k int) {
	f := mustBytes(t, hugeBytes, k)
	nb := f.NumBlocks()
	if f.NumBits() <= 1<<32 || f.NumBits() != nb*512 {
		t.Fatalf("NumBits %d for %d blocks", f.NumBits(), nb)
	}
	if last := f.blockAt(0xFFFFFFFF << 32); last != &f.blocks[nb-1] {
		t.Fatal("hash 0xFFFFFFFF<<32 does not choose the last block")
	}
	// The expected blocks, from the generic kernel on 64-bit fastrange.
	want := map[uint64]*block{}
	for _, h := range hs {
		i := (h >> 32) * nb >> 32
		if want[i] == nil {
			want[i] = new(block)
		}
		refAdd(want[i], uint32(h), k)
	}
	var wantBits uint64
	for _, b := range want {
		for _, w := range b {
			wantBits += uint64(bits.OnesCount64(w))
		}
	}
	f.AddHashes(hs[:len(hs)/2])
	for _, h := range hs[len(hs)/2:] {
		f.AddHash(h)
	}
	for i, b := range want {
		if f.blocks[i] != *b {
			t.Fatalf("k=%d: block %d of %d differs from the generic kernel's", k, i, nb)
		}
	}
	if got := f.popcount(); got != wantBits {
		t.Fatalf("k=%d: %d bits set, want %d (bits outside the expected blocks)", k, got, wantBits)
	}
	if f.blocks[nb-1] == (block{}) {
		t.Fatal("the last block is empty")
	}
	if got := f.HasHashes(hs, make([]bool, len(hs))); got != len(hs) {
		t.Fatalf("k=%d: HasHashes found %d of %d", k, got, len(hs))
	}
	for _, h := range hs {
		if !f.HasHash(h) || !f.HasHashAtomic(h) {
			t.Fatalf("k=%d: false negative for %#x", k, h)
		}
	}
	if cpu.Active != cpu.Generic {
		return
	}
	g := mustBytes(t, hugeBytes, k)
	g.AddHashesAtomic(hs)
	if !g.Equal(f) {
		t.Fatalf("k=%d: atomic adds differ on the huge filter", k)
	}
	g = nil
	if fr := f.FillRatio(); fr <= 0 || fr > float64(wantBits)/float64(f.NumBits())*1.0000001 {
		t.Fatalf("k=%d: FillRatio %v", k, fr)
	}
	if c := f.EstimatedCount(); c < float64(len(hs))/2 {
		t.Fatalf("k=%d: EstimatedCount %v for %d keys", k, c, len(hs))
	}
	hugeRoundTrip(t, f)
}

// hugeRoundTrip streams f through a pipe (no Len hint: ReadFrom grows its
// buffer as data arrives) and checks the copy.
func hugeRoundTrip(t *testing.T, f *Filter) {
	pr, pw := io.Pipe()
	go func() {
		_, err := f.WriteTo(pw)
		pw.CloseWithError(err)
	}()
	var g Filter
	n, err := g.ReadFrom(pr)
	if err != nil || uint64(n) != headerSize+f.sizeBytes() {
		t.Fatalf("ReadFrom: %d bytes, %v", n, err)
	}
	if !g.Equal(f) {
		t.Fatal("the huge filter changed in a WriteTo/ReadFrom round trip")
	}
}

// TestHugeSplitBlock is TestHugeFilter's lookup check for SplitBlock.
func TestHugeSplitBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 513 MiB")
	}
	hs := hugeHashes(40_000)
	forEachLevel(t, func(t *testing.T) {
		out := make([]bool, len(hs))
		s := mustSplit(t, hugeBytes)
		nb := s.NumBlocks()
		if s.NumBits() <= 1<<32 {
			t.Fatalf("NumBits %d", s.NumBits())
		}
		s.AddHashes(hs)
		for _, h := range hs {
			i := (h >> 32) * nb >> 32
			if s.blockAt(h) != &s.blocks[i] || !s.hasHashGo(h) {
				t.Fatalf("hash %#x is not in block %d of %d", h, i, nb)
			}
		}
		if s.blocks[nb-1] == (splitBlock{}) {
			t.Fatal("the last block is empty")
		}
		if got := s.HasHashes(hs, out); got != len(hs) {
			t.Fatalf("HasHashes found %d of %d", got, len(hs))
		}
	})
}
