package blocked

import (
	"errors"
	"math"
	"testing"

	"github.com/simdbloom/bloom/internal/errs"
)

// TestSizingMatchesConstructors: every Size function describes exactly the
// filter its constructor makes, in the one Sizing shape.
func TestSizingMatchesConstructors(t *testing.T) {
	for _, n := range []uint64{1, 1000, 123_457} {
		for _, p := range []float64{0.1, 0.01, 1e-4} {
			s, err := Size(n, p)
			f, err2 := New(n, p)
			if err != nil || err2 != nil || f.NumBlocks() != s.Blocks || f.K() != s.K {
				t.Fatalf("Size(%d, %v) = %+v, %v; New: %v", n, p, s, err, err2)
			}
			check(t, "Size", s, n, p, 64)
			sp, err := SizeSplitBlock(n, p)
			g, err2 := NewSplitBlock(n, p)
			if err != nil || err2 != nil || g.NumBlocks() != sp.Blocks || sp.K != 8 {
				t.Fatalf("SizeSplitBlock(%d, %v) = %+v, %v; NewSplitBlock: %v", n, p, sp, err, err2)
			}
			check(t, "SizeSplitBlock", sp, n, p, 32)
			sc, err := SizeCounting(n, p)
			c, err2 := NewCounting(n, p)
			if err != nil || err2 != nil || c.NumBlocks() != sc.Blocks || sc.K != 8 {
				t.Fatalf("SizeCounting(%d, %v) = %+v, %v; NewCounting: %v", n, p, sc, err, err2)
			}
			check(t, "SizeCounting", sc, n, p, 64)
			if sc.FPR != CountingFPR(n, sc.Blocks) || sc.Blocks > 1 && CountingFPR(n, sc.Blocks-1) <= p {
				t.Fatalf("SizeCounting(%d, %v) = %+v is not the smallest", n, p, sc)
			}
		}
	}
	if _, err := sizeK(100, 0.01, 12); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("sizeK k=12: %v, want errs.ErrGeometry", err)
	}
	if _, err := SizeCounting(0, 0.01); !errors.Is(err, errs.ErrKeys) {
		t.Errorf("SizeCounting n=0: %v, want errs.ErrKeys", err)
	}
	if _, err := SizeCounting(math.MaxUint64, 0.01); !errors.Is(err, errs.ErrTooLarge) {
		t.Errorf("SizeCounting n=2^64-1: %v, want errs.ErrTooLarge", err)
	}
}

func check(t *testing.T, name string, s Sizing, n uint64, p float64, blockBytes uint64) {
	t.Helper()
	if s.Keys != n || s.FPR > p || s.Bytes != s.Blocks*blockBytes || s.Bits != 8*s.Bytes ||
		s.BitsPerKey != float64(s.Bits)/float64(n) || s.FingerprintBits != 0 || s.Load != 0 {
		t.Errorf("%s(%d, %v) = %+v: fields disagree", name, n, p, s)
	}
}
