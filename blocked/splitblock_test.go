package blocked

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"

	"github.com/simdbloom/bloom/internal/errs"
)

func mustSplit[N ~int | ~uint64](t testing.TB, numBytes N) *SplitBlock {
	t.Helper()
	s, err := NewSplitBlockBytes(uint64(numBytes))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// refSplitInsert sets the bits of h in a serialized bitset, written straight
// from the Parquet specification with byte arithmetic only, so that it checks
// both the bit choice and the little-endian layout on any machine.
func refSplitInsert(bitset []byte, h uint64) {
	nblocks := uint64(len(bitset) / 32)
	blk := ((h >> 32) * nblocks) >> 32
	salts := [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}
	for i, s := range salts {
		bit := (uint32(h) * s) >> 27
		bitset[blk*32+uint64(i)*4+uint64(bit/8)] |= 1 << (bit % 8)
	}
}

func refSplitCheck(bitset []byte, h uint64) bool {
	c := make([]byte, len(bitset))
	copy(c, bitset)
	refSplitInsert(c, h)
	return string(c) == string(bitset)
}

func TestSplitBlockMatchesSpec(t *testing.T) {
	for _, nb := range []int{1, 3, 64, 1000} {
		s := mustSplit(t, nb*32)
		ref := make([]byte, nb*32)
		hs := append(randomHashes(3*nb, uint64(nb)), adversarialHashes()...)
		for _, h := range hs {
			s.AddHash(h)
			refSplitInsert(ref, h)
		}
		if string(s.Bitset()) != string(ref) {
			t.Fatalf("%d blocks: Bitset differs from the specification's bits", nb)
		}
		for _, h := range randomHashes(5000, 77) {
			if s.HasHash(h) != refSplitCheck(ref, h) {
				t.Fatalf("%d blocks: HasHash(%#x) = %v, specification says %v", nb, h, s.HasHash(h), !s.HasHash(h))
			}
		}
		back, err := SplitBlockFromBitset(ref)
		if err != nil || !back.Equal(s) {
			t.Fatalf("SplitBlockFromBitset did not round-trip: %v", err)
		}
	}
}

func TestSplitBlockKnownBits(t *testing.T) {
	// Hash 0 sets bit 0 of every word of block 0: x*salt = 0.
	s := mustSplit(t, 64)
	s.AddHash(0)
	want := make([]byte, 64)
	for i := 0; i < 8; i++ {
		want[4*i] = 1
	}
	if string(s.Bitset()) != string(want) {
		t.Fatalf("AddHash(0): bitset % x", s.Bitset())
	}
	// Upper half 0xffffffff picks the last block; low half 1 sets bit salt>>27.
	s.Clear()
	s.AddHash(0xffffffff_00000001)
	b := s.Bitset()
	for i, salt := range splitSalt {
		w := binary.LittleEndian.Uint32(b[32+4*i:])
		if w != 1<<(salt>>27) {
			t.Fatalf("word %d = %#x, want bit %d", i, w, salt>>27)
		}
	}
}

func TestSplitBlockAligned(t *testing.T) {
	for _, nb := range []int{1, 3, 1000} {
		s := mustSplit(t, nb*32)
		if p := uintptr(unsafe.Pointer(&s.blocks[0])); p%32 != 0 {
			t.Fatalf("%d blocks: bitset at %#x is not 32-byte aligned", nb, p)
		}
		if s.NumBlocks() != uint64(nb) || s.NumBits() != uint64(nb)*256 || s.sizeBytes() != uint64(nb)*32 {
			t.Fatalf("NumBlocks %d NumBits %d SizeBytes %d for %d blocks", s.NumBlocks(), s.NumBits(), s.sizeBytes(), nb)
		}
	}
}

func TestSplitBlockNoFalseNegatives(t *testing.T) { forEachLevel(t, testSplitNoFalseNegatives) }

func testSplitNoFalseNegatives(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	hs := randomHashes(n, 21)
	out := make([]bool, n)
	for _, nb := range []int{1, 2, 7, 1000, 12_345, 1 << 20, 3_000_001} {
		s := mustSplit(t, nb*32)
		if nb%2 == 0 {
			s.AddHashes(hs)
		} else {
			for _, h := range hs {
				s.AddHash(h)
			}
		}
		for i, h := range hs {
			if !s.HasHash(h) {
				t.Fatalf("blocks=%d: false negative for hash %d (%#x)", nb, i, h)
			}
		}
		if got := s.HasHashes(hs, out); got != n {
			t.Fatalf("blocks=%d: HasHashes found %d of %d added hashes", nb, got, n)
		}
	}
}

// TestSplitBlockBatchEqualsSingle checks every batch kernel against the
// pure-Go single-key path: the same bits set, the same answers.
func TestSplitBlockBatchEqualsSingle(t *testing.T) { forEachLevel(t, testSplitBatchEqualsSingle) }

func testSplitBatchEqualsSingle(t *testing.T) {
	for _, nb := range []int{1, 5, 256, 512, 10_007, 1 << 16} {
		for _, nadd := range []int{1, 7, 5000} {
			a, b := mustSplit(t, nb*32), mustSplit(t, nb*32)
			add := append(randomHashes(nadd, uint64(nb)), adversarialHashes()...)
			for _, h := range add {
				a.addHashGo(h) // pure Go, not the one-key assembly
			}
			b.AddHashes(add)
			if !a.Equal(b) {
				t.Fatalf("blocks=%d: AddHashes and AddHash set different bits", nb)
			}
			// Probe lengths that are not multiples of any vector width.
			for _, np := range []int{1, 3, 15, 17, 20001} {
				probe := append(randomHashes(np, uint64(nb+np)), add...)
				out := make([]bool, len(probe)+3)
				for i := range out {
					out[i] = true // HasHashes must overwrite, and leave the tail alone
				}
				count := a.HasHashes(probe, out)
				want := 0
				for i, h := range probe {
					if out[i] != a.hasHashGo(h) {
						t.Fatalf("blocks=%d: HasHashes[%d] = %v, HasHash = %v", nb, i, out[i], !out[i])
					}
					if out[i] {
						want++
					}
				}
				if count != want {
					t.Fatalf("HasHashes returned %d, counted %d", count, want)
				}
				if !out[len(probe)] || !out[len(probe)+2] {
					t.Fatal("HasHashes wrote past len(hs)")
				}
			}
		}
	}
}

func TestSplitBlockHasHashesShortOutPanics(t *testing.T) {
	s := mustSplit(t, 32)
	hs := randomHashes(4, 2)
	out := make([]bool, 3)
	s.AddHashes(hs)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "shorter") {
			t.Fatalf("want a panic naming the short slice, got %v", r)
		}
		for _, o := range out {
			if o {
				t.Fatal("out was written before the panic")
			}
		}
	}()
	s.HasHashes(hs, out)
}

// measureSplitFPR probes s with probes hashes from a stream independent of its keys.
func measureSplitFPR(s *SplitBlock, probes int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, 99))
	const chunk = 1 << 16
	hs := make([]uint64, chunk)
	out := make([]bool, chunk)
	fp := 0
	for done := 0; done < probes; done += chunk {
		for i := range hs {
			hs[i] = r.Uint64()
		}
		fp += s.HasHashes(hs, out)
	}
	return float64(fp) / float64(probes/chunk*chunk)
}

func TestSplitBlockFPRMatchesFormula(t *testing.T) {
	if testing.Short() {
		t.Skip("4M probes per case: runs without -short")
	}
	const n = 1_000_000
	const probes = 1 << 22 // 4,194,304
	keys := randomHashes(n, 17)
	type tc struct {
		name   string
		s      *SplitBlock
		target float64
	}
	cases := []tc{{name: "10 bits/key", s: mustSplit(t, n*10/8/32*32)}, {name: "power of two", s: mustSplit(t, 1<<20)}}
	for _, p := range []float64{0.01, 0.001} {
		s, err := NewSplitBlock(n, p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{name: "NewSplitBlock", s: s, target: p})
	}
	for i, c := range cases {
		c.s.AddHashes(keys)
		want := SplitBlockFPR(n, c.s.NumBlocks())
		got := measureSplitFPR(c.s, probes, uint64(i))
		sg := sigma(want, probes)
		t.Logf("%s: %.2f bits/key, measured FPR %.5f, formula %.5f (sigma %.5f), estimated %.5f",
			c.name, float64(c.s.NumBits())/n, got, want, sg, c.s.EstimatedFPR())
		if math.Abs(got-want) > 4*sg {
			t.Errorf("%s: measured FPR %.5f is more than 4 sigma from the formula %.5f", c.name, got, want)
		}
		if c.target > 0 && got > c.target+4*sigma(c.target, probes) {
			t.Errorf("NewSplitBlock(%d, %v): measured FPR %.5f exceeds the target beyond 4 sigma", n, c.target, got)
		}
		if est := c.s.EstimatedFPR(); math.Abs(est-want) > 0.05*want {
			t.Errorf("EstimatedFPR %.5f is more than 5%% from the formula %.5f", est, want)
		}
		if est := c.s.EstimatedCount(); math.Abs(est-n) > 0.02*n {
			t.Errorf("EstimatedCount %.0f is more than 2%% from %d", est, n)
		}
	}
}

func TestSplitBlockSizing(t *testing.T) {
	for _, p := range []float64{0.5, 0.01, 0.001, 1e-4, 1e-6} {
		for _, n := range []uint64{1, 10, 1000, 1_000_000} {
			s, err := NewSplitBlock(n, p)
			if err != nil {
				t.Fatalf("NewSplitBlock(%d, %v): %v", n, p, err)
			}
			nb := s.NumBlocks()
			if got := SplitBlockFPR(n, nb); got > p {
				t.Fatalf("NewSplitBlock(%d, %v): formula FPR %v above the target", n, p, got)
			}
			if nb > 1 && SplitBlockFPR(n, nb-1) <= p {
				t.Fatalf("NewSplitBlock(%d, %v): %d blocks is not the smallest", n, p, nb)
			}
		}
	}
	// DESIGN.md section 4's table: 10.53 bits/key at 1%, 16.89 at 0.1%.
	for _, c := range []struct{ p, bpk float64 }{{0.01, 10.53}, {0.001, 16.89}, {1e-4, 26.34}} {
		s, _ := NewSplitBlock(10_000_000, c.p)
		if got := float64(s.NumBits()) / 1e7; math.Abs(got-c.bpk) > 0.01 {
			t.Errorf("NewSplitBlock(1e7, %v): %.3f bits/key, want %.2f", c.p, got, c.bpk)
		}
	}
	// The common -8/ln(1-p^(1/8)) sizing misses the target: the exact formula says so.
	const n = 1_000_000
	bits := -8 / math.Log(1-math.Pow(0.01, 1.0/8)) * n
	if got := SplitBlockFPR(n, uint64(bits/256)); got < 0.014 {
		t.Errorf("the naive sizing gives FPR %v; expected about 1.46%%", got)
	}
}

func TestSplitBlockBadInput(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		p    float64
		want error
	}{
		{0, 0.01, errs.ErrKeys}, {10, 0, errs.ErrFPR}, {10, 1, errs.ErrFPR}, {10, math.NaN(), errs.ErrFPR},
		{10, -1, errs.ErrFPR}, {math.MaxUint64, 0.01, errs.ErrTooLarge},
	} {
		s, err := NewSplitBlock(c.n, c.p)
		if !errors.Is(err, c.want) || s != nil {
			t.Errorf("NewSplitBlock(%d, %v) = %v, %v; want error %v", c.n, c.p, s, err, c.want)
		}
	}
	for _, c := range []struct {
		bytes uint64
		want  error
	}{{0, errs.ErrGeometry}, {maxSplitBlocks*32 + 1, errs.ErrTooLarge}, {math.MaxUint64, errs.ErrTooLarge}} {
		if s, err := NewSplitBlockBytes(c.bytes); !errors.Is(err, c.want) || s != nil {
			t.Errorf("NewSplitBlockBytes(%d) = %v, %v; want error %v", c.bytes, s, err, c.want)
		}
	}
	for nbytes, want := range map[uint64]uint64{1: 1, 31: 1, 32: 1, 33: 2, 100: 4} {
		if s := mustSplit(t, nbytes); s.NumBlocks() != want {
			t.Errorf("NewSplitBlockBytes(%d) has %d blocks, want %d (rounded up)", nbytes, s.NumBlocks(), want)
		}
	}
	for _, b := range [][]byte{nil, {}, make([]byte, 31), make([]byte, 33), make([]byte, 65)} {
		if s, err := SplitBlockFromBitset(b); !errors.Is(err, errs.ErrGeometry) || s != nil {
			t.Errorf("SplitBlockFromBitset(%d bytes) = %v, %v; want errs.ErrGeometry", len(b), s, err)
		}
	}
}

func TestSplitBlockFromBitsetCopies(t *testing.T) {
	b := make([]byte, 96)
	s, err := SplitBlockFromBitset(b)
	if err != nil {
		t.Fatal(err)
	}
	b[0] = 0xff
	if s.FillRatio() != 0 {
		t.Fatal("SplitBlockFromBitset aliases its input")
	}
	s.AddHash(42)
	bs := s.Bitset()
	bs[5] ^= 0xff
	if string(bs) == string(s.Bitset()) {
		t.Fatal("Bitset returns the filter's own memory")
	}
}

func TestSplitBlockUnionIntersect(t *testing.T) {
	checkUnionIntersect(t, func() *SplitBlock { return mustSplit(t, 1000*32) }, 1500, 300, 31,
		[]*SplitBlock{mustSplit(t, 1001*32), mustSplit(t, 32), nil})
}

func TestSplitBlockCloneClearEqual(t *testing.T) {
	s := mustSplit(t, 32*100)
	s.AddHashes(randomHashes(300, 3))
	c := s.Clone()
	if !c.Equal(s) || c.Equal(mustSplit(t, 32*101)) || c.Equal(nil) {
		t.Fatal("Clone is not Equal, or Equal ignores geometry")
	}
	c.AddHash(12345)
	c.Clear()
	if c.FillRatio() != 0 || c.Equal(s) || s.FillRatio() == 0 {
		t.Fatal("Clear of a clone touched the original or left bits")
	}
	if c.EstimatedCount() != 0 || c.EstimatedFPR() != 0 {
		t.Fatal("an empty filter estimates keys")
	}
	s.AddHashes(randomHashes(30_000, 4)) // 10x overfull
	if s.FillRatio() < 0.5 || s.EstimatedFPR() < 0.3 {
		t.Fatalf("overfull filter: fill %.2f, estimated FPR %.3f; both should show it", s.FillRatio(), s.EstimatedFPR())
	}
}

func TestSplitBlockZeroAllocs(t *testing.T) {
	s := mustSplit(t, 16<<10)
	hs := randomHashes(1000, 4)
	out := make([]bool, len(hs))
	for name, fn := range map[string]func(){
		"AddHash":   func() { s.AddHash(hs[3]) },
		"HasHash":   func() { s.HasHash(hs[5]) },
		"AddHashes": func() { s.AddHashes(hs) },
		"HasHashes": func() { s.HasHashes(hs, out) },
	} {
		if a := testing.AllocsPerRun(100, fn); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}

// FuzzSplitBlockKernels checks that every kernel level sets the same bits
// and gives the same answers as the generic kernel, for any hashes and any
// number of blocks.
func FuzzSplitBlockKernels(f *testing.F) {
	le := func(hs ...uint64) []byte {
		b := make([]byte, 0, 8*len(hs))
		for _, h := range hs {
			b = binary.LittleEndian.AppendUint64(b, h)
		}
		return b
	}
	f.Add(uint32(1), le(0, 1, ^uint64(0)))
	f.Add(uint32(7), le(adversarialHashes()...))
	f.Add(uint32(512), le(randomHashes(100, 1)...))
	f.Add(uint32(1<<20), le(randomHashes(33, 2)...))
	f.Add(uint32(3), []byte{1, 2, 3})
	levels := childtest.NewFuzzLevels(f)
	f.Fuzz(func(t *testing.T, nblocks uint32, data []byte) {
		nb := int(nblocks%(1<<20)) + 1
		hs := make([]uint64, 0, len(data)/8+1)
		for len(data) >= 8 {
			hs = append(hs, binary.LittleEndian.Uint64(data))
			data = data[8:]
		}
		if len(hs) == 0 {
			return
		}
		// The generic reference: add half, probe all plus perturbed copies.
		add := hs[:(len(hs)+1)/2]
		probe := make([]uint64, 0, 3*len(hs))
		for _, h := range hs {
			probe = append(probe, h, h^1, h^(1<<40))
		}
		ref := mustSplit(t, nb*32)
		splitAddHashesGeneric(ref, add)
		refOut := make([]bool, len(probe))
		refN := splitHasHashesGeneric(ref, probe, refOut)

		levels.Run(t, func(t *testing.T, l cpu.Level) {
			out := make([]bool, len(probe))
			s := mustSplit(t, nb*32)
			s.AddHashes(add)
			if !s.Equal(ref) {
				t.Fatalf("level %v: AddHashes differs from the generic kernel", l)
			}
			n := s.HasHashes(probe, out)
			if n != refN {
				t.Fatalf("level %v: HasHashes counted %d, generic %d", l, n, refN)
			}
			for i := range out {
				if out[i] != refOut[i] || out[i] != s.HasHash(probe[i]) {
					t.Fatalf("level %v: HasHashes[%d] = %v, generic %v", l, i, out[i], refOut[i])
				}
			}
		})
	})
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return w.n, errors.New("short write")
	}
	w.n -= len(p)
	return len(p), nil
}
