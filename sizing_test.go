package bloom

import (
	"errors"
	"math"
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

// The seed lesson's table for m/n = 10.
func TestClassicSeedTable(t *testing.T) {
	for _, c := range []struct {
		k    int
		want float64
	}{{1, 0.0952}, {3, 0.0174}, {7, 0.0082}, {14, 0.0190}} {
		if got := ClassicFPR(5000, 500, c.k); math.Abs(got-c.want) > 0.00005 {
			t.Errorf("ClassicFPR(m/n=10, k=%d) = %.5f, want %.4f", c.k, got, c.want)
		}
	}
	if got := ClassicFill(5000, 500, 7); math.Abs(got-0.503) > 0.0005 {
		t.Errorf("fill at k=7: %.4f, want 0.503", got)
	}
	if k := OptimalK(5000, 500); math.Abs(k-6.93) > 0.005 {
		t.Errorf("OptimalK = %.3f, want 6.93", k)
	}
	if k := OptimalKInt(5000, 500); k != 7 {
		t.Errorf("OptimalKInt = %d, want 7", k)
	}
	if b := ClassicBitsPerKey(0.01); math.Abs(b-9.585) > 0.001 {
		t.Errorf("ClassicBitsPerKey(1%%) = %.3f, want 9.585", b)
	}
}

func TestBitsBillionKeys(t *testing.T) {
	s, err := Bits(1e9, 0.01, Classic)
	if err != nil {
		t.Fatal(err)
	}
	if gb := float64(s.Bytes()) / 1e9; math.Abs(gb-1.2) > 0.01 || s.K != 7 || s.FPR > 0.01 {
		t.Errorf("a billion keys at 1%%: %.3f GB, k=%d, fpr %v; want 1.2 GB, k=7, <= 1%%", gb, s.K, s.FPR)
	}
	// DESIGN.md section 3's table, bits per key.
	for _, c := range []struct {
		v    Variant
		p    float64
		want float64
	}{
		{Classic, 0.01, 9.59}, {Classic, 1e-6, 28.76},
		{Blocked8, 0.01, 10.10}, {Blocked8, 0.001, 15.72}, {Blocked8, 1e-6, 51.87},
		{Blocked, 0.01, 10.10}, {Blocked, 1e-4, 22.88},
		{SplitBlock, 0.01, 10.53}, {SplitBlock, 1e-4, 26.34}, {SplitBlock, 1e-6, 64.66},
	} {
		s, err := Bits(10_000_000, c.p, c.v)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.BitsPerKey(10_000_000); math.Abs(got-c.want) > 0.02 {
			t.Errorf("%v at %v: %.2f bits/key, want %.2f", c.v, c.p, got, c.want)
		}
		if s.FPR > c.p {
			t.Errorf("%v at %v: formula FPR %v above the target", c.v, c.p, s.FPR)
		}
	}
}

func TestBitsErrors(t *testing.T) {
	for _, v := range Variants {
		if _, err := Bits(0, 0.01, v); !errors.Is(err, blocked.ErrKeys) {
			t.Errorf("%v n=0: %v", v, err)
		}
		for _, p := range []float64{0, 1, -0.5, math.NaN(), math.Inf(-1)} {
			if _, err := Bits(100, p, v); !errors.Is(err, blocked.ErrFPR) {
				t.Errorf("%v fpr=%v: %v", v, p, err)
			}
		}
	}
	if _, err := Bits(math.MaxUint64, 1e-300, Classic); !errors.Is(err, blocked.ErrTooLarge) {
		t.Errorf("overflow: %v", err)
	}
	if _, err := Bits(10, 0.1, Variant(99)); !errors.Is(err, ErrVariant) {
		t.Errorf("bad variant: %v", err)
	}
}
