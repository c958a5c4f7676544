package blocked

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/errs"
)

// foldKeys returns n hashes from seed.
func foldKeys(n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 7))
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

// TestFoldKeepsKeysAndEqualsDirect: at every kernel level, every key added
// (by AddHash and AddHashes) is found (by HasHash and HasHashes) after
// folding 1, 2, ... times, as far as the block count allows, and each
// folding equals bit for bit the filter built directly at the smaller size
// from the same keys.
func TestFoldKeepsKeysAndEqualsDirect(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		for _, k := range []int{8, 16} {
			for _, nb := range []uint64{2, 96, 1024, 3 << 7} {
				keys := foldKeys(int(nb)*40, nb+uint64(k))
				f, err := NewBytes(nb*64, k)
				if err != nil {
					t.Fatal(err)
				}
				f.SetKeyHash(HashXXH3)
				f.AddHashes(keys[:len(keys)/2])
				for _, h := range keys[len(keys)/2:] {
					f.AddHash(h)
				}
				before := f.Clone()
				for times := 1; nb>>times<<times == nb; times++ {
					g, err := f.Fold(times)
					if err != nil {
						t.Fatalf("k=%d %d blocks, Fold(%d): %v", k, nb, times, err)
					}
					if g.NumBlocks() != nb>>times || g.K() != k || g.KeyHash() != HashXXH3 {
						t.Fatalf("k=%d Fold(%d) of %d blocks: %d blocks, k=%d, hash %v", k, times, nb, g.NumBlocks(), g.K(), g.KeyHash())
					}
					out := make([]bool, len(keys))
					if n := g.HasHashes(keys, out); n != len(keys) {
						t.Fatalf("k=%d %d blocks folded %d times: HasHashes finds %d of %d keys", k, nb, times, n, len(keys))
					}
					for _, h := range keys {
						if !g.HasHash(h) {
							t.Fatalf("k=%d %d blocks folded %d times: HasHash(%#x) false", k, nb, times, h)
						}
					}
					direct, _ := NewBytes((nb>>times)*64, k)
					direct.SetKeyHash(HashXXH3)
					direct.AddHashes(keys)
					if !g.Equal(direct) {
						t.Fatalf("k=%d %d blocks folded %d times differs from the filter built at %d blocks", k, nb, times, nb>>times)
					}
				}
				if !f.Equal(before) {
					t.Fatalf("k=%d %d blocks: Fold changed its receiver", k, nb)
				}
			}
		}
	})
}

// TestFoldErrors: a count that does not divide, times out of range and the
// zero Filter are errors wrapping ErrGeometry that say why.
func TestFoldErrors(t *testing.T) {
	f, _ := NewBytes(12*64, 8) // 12 blocks: folds twice
	for _, c := range []struct {
		times int
		want  string
	}{
		{0, "at least once"}, {-1, "at least once"}, {3, "12 is not divisible by 2^3 (it folds at most 2 times)"},
		{4, "no block left"}, {64, "no block left"}, {math.MaxInt, "no block left"},
	} {
		g, err := f.Fold(c.times)
		if g != nil || !errors.Is(err, errs.ErrGeometry) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Fold(%d) = %v, %v; want ErrGeometry saying %q", c.times, g, err, c.want)
		}
	}
	if _, err := f.Fold(2); err != nil {
		t.Errorf("Fold(2) of 12 blocks: %v", err)
	}
	var z Filter
	if _, err := z.Fold(1); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("zero Filter Fold: %v", err)
	}
	if _, err := z.FoldTo(0.1); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("zero Filter FoldTo: %v", err)
	}
	for _, p := range []float64{0, -1, 1.5, math.NaN()} {
		if _, err := f.FoldTo(p); !errors.Is(err, errs.ErrFPR) {
			t.Errorf("FoldTo(%v): %v, want ErrFPR", p, err)
		}
	}
}

// measuredFPR returns the fraction of m random hashes (none of them added,
// but for a chance of 2^-64 each) that f reports present.
func measuredFPR(f *Filter, m int, seed uint64) float64 {
	hs := foldKeys(m, seed)
	out := make([]bool, m)
	return float64(f.HasHashes(hs, out)) / float64(m)
}

// TestFoldFPR: the measured false-positive rate of each folding is within
// 5 standard deviations (binomial, of 200,000 lookups) plus 1% of its
// EstimatedFPR, and FoldTo stops at the last folding at or under its
// target, with the next one above it.
func TestFoldFPR(t *testing.T) {
	const n = 20_000
	f, err := New(n*16, 0.001) // planned for 16x the keys it gets
	if err != nil {
		t.Fatal(err)
	}
	keys := foldKeys(n, 1)
	f.AddHashes(keys)
	folds := bits.TrailingZeros64(f.NumBlocks())
	if folds < 5 {
		t.Fatalf("New(%d, 0.001) has %d blocks, which folds only %d times", n*16, f.NumBlocks(), folds)
	}
	const m = 200_000
	for times := 1; times <= folds; times++ {
		g, _ := f.Fold(times)
		est, got := g.EstimatedFPR(), measuredFPR(g, m, uint64(times)+100)
		if bound := 5*math.Sqrt(est*(1-est)/m) + 0.01*est; math.Abs(got-est) > bound {
			t.Errorf("folded %d times: measured FPR %.5f, estimated %.5f (bound %.5f)", times, got, est, bound)
		}
	}
	for _, target := range []float64{0.001, 0.01, 0.05} {
		g, err := f.FoldTo(target)
		if err != nil {
			t.Fatal(err)
		}
		if g.EstimatedFPR() > target && g.NumBlocks() != f.NumBlocks() {
			t.Errorf("FoldTo(%v): estimated FPR %v above the target", target, g.EstimatedFPR())
		}
		if g.NumBlocks()%2 == 0 {
			if h, _ := g.Fold(1); h.EstimatedFPR() <= target {
				t.Errorf("FoldTo(%v) stopped at %d blocks, but %d blocks have FPR %v", target, g.NumBlocks(), h.NumBlocks(), h.EstimatedFPR())
			}
		}
		out := make([]bool, n)
		if c := g.HasHashes(keys, out); c != n {
			t.Errorf("FoldTo(%v): %d of %d keys found", target, c, n)
		}
	}
}

// TestUnionFolds: Union takes a filter 2^t times larger, folding it in the
// same pass, leaves it unchanged, and equals the union with its folding;
// it takes one 2^t times smaller, spread, finding all its keys, and
// folding the result back gives the union of the foldings; other ratios
// are ErrGeometry, and f unchanged.
func TestUnionFolds(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		a, _ := NewBytes(48*64, 16)
		keysA, keysB := foldKeys(2000, 3), foldKeys(6000, 4)
		a.AddHashes(keysA)
		for _, times := range []int{0, 1, 2, 4} {
			b, _ := NewBytes(48<<times*64, 16)
			b.AddHashes(keysB)
			bb := b.Clone()
			u := a.Clone()
			if err := u.Union(b); err != nil {
				t.Fatalf("Union with %d blocks: %v", b.NumBlocks(), err)
			}
			if !b.Equal(bb) {
				t.Fatalf("Union changed its argument")
			}
			want := a.Clone()
			fb := b
			if times > 0 {
				fb, _ = b.Fold(times)
			}
			if err := want.Union(fb); err != nil || !u.Equal(want) {
				t.Fatalf("Union with %d blocks differs from Union with its folding (%v)", b.NumBlocks(), err)
			}
			if c := u.HasHashes(append(keysA, keysB...), make([]bool, len(keysA)+len(keysB))); c != len(keysA)+len(keysB) {
				t.Fatalf("Union with %d blocks: %d of %d keys found", b.NumBlocks(), c, len(keysA)+len(keysB))
			}
		}
		for _, nb := range []uint64{36, 72, 144, 96 * 3, 47} {
			b, _ := NewBytes(nb*64, 16)
			b.AddHashes(keysB)
			u := a.Clone()
			if err := u.Union(b); !errors.Is(err, errs.ErrGeometry) || !u.Equal(a) {
				t.Errorf("Union of 48 blocks with %d: %v (changed: %v), want ErrGeometry", nb, err, !u.Equal(a))
			}
		}
		for _, nb := range []uint64{24, 12, 3} { // smaller: spread over a
			b, _ := NewBytes(nb*64, 16)
			b.AddHashes(keysB)
			bb := b.Clone()
			u := a.Clone()
			if err := u.Union(b); err != nil || !b.Equal(bb) {
				t.Fatalf("Union of 48 blocks with %d: %v (argument changed: %v)", nb, err, !b.Equal(bb))
			}
			all := append(keysA[:len(keysA):len(keysA)], keysB...)
			if c := u.HasHashes(all, make([]bool, len(all))); c != len(all) {
				t.Fatalf("Union of 48 blocks with %d: %d of %d keys found", nb, c, len(all))
			}
			// Folding the result back to o's size gives o's bits ORed with a's folding.
			back, _ := u.Fold(bits.TrailingZeros64(48 / nb))
			want, _ := a.Fold(bits.TrailingZeros64(48 / nb))
			want.Union(b)
			if !back.Equal(want) {
				t.Fatalf("Union of 48 blocks with %d, folded back, is not the union of the foldings", nb)
			}
		}
		b8, _ := NewBytes(96*64, 8)
		if err := a.Clone().Union(b8); !errors.Is(err, errs.ErrGeometry) {
			t.Errorf("Union of k=16 with k=8: %v", err)
		}
		i := a.Clone()
		b2, _ := NewBytes(96*64, 16)
		if err := i.Intersect(b2); !errors.Is(err, errs.ErrGeometry) {
			t.Errorf("Intersect with twice the blocks: %v, want ErrGeometry (only Union folds)", err)
		}
	})
}

// TestSizeFolds: the filters New makes fold as Size says, for less than 1%
// more blocks than the fewest that reach the rate.
func TestSizeFolds(t *testing.T) {
	for _, n := range []uint64{1, 1000, 10_000, 123_457, 1_000_000, 1 << 30} {
		for _, p := range []float64{0.3, 0.01, 1e-4, 1e-9} {
			s, err := Size(n, p)
			if err != nil {
				t.Fatal(err)
			}
			min, _ := sizeMin(n, p, s.K)
			if s.Blocks < min || 100*(s.Blocks-min) >= max(min, 100) && s.Blocks != min {
				t.Errorf("n=%d p=%v: %d blocks, the fewest are %d: 1%% or more added", n, p, s.Blocks, min)
			}
			want := 0
			for 100*(uint64(1)<<(want+1)-1) < min {
				want++
			}
			if tz := bits.TrailingZeros64(s.Blocks); tz < want {
				t.Errorf("n=%d p=%v: %d blocks fold %d times, want %d", n, p, s.Blocks, tz, want)
			}
			if min > 12_700 && bits.TrailingZeros64(s.Blocks) < 7 {
				t.Errorf("n=%d p=%v: %d blocks fold fewer than 7 times", n, p, s.Blocks)
			}
			if s.FPR > p || s.FPR != FPR(n, s.Blocks, s.K) {
				t.Errorf("n=%d p=%v: %+v", n, p, s)
			}
		}
	}
}

// sizeMin returns the fewest blocks that reach p for n keys at k.
func sizeMin(n uint64, p float64, k int) (uint64, error) {
	return blocksFor(n, p, MaxBlocks, func(n, nb uint64) float64 { return FPR(n, nb, k) })
}
