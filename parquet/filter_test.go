package sbparquet

import (
	"errors"
	"math"
	"testing"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"

	"github.com/simdbloom/bloom/internal/format"
)

func TestNewSizing(t *testing.T) {
	for _, p := range []float64{0.5, 0.05, 0.01, 0.001, 1e-4, 1e-6} {
		for _, n := range []uint64{1, 100, 10_000, 1_000_000, 10_000_000} {
			f, err := New(n, p)
			if err != nil {
				t.Fatalf("New(%d, %v): %v", n, p, err)
			}
			size := (f.NumBits() / 8)
			if size < MinFilterBytes || size > MaxFilterBytes || size&(size-1) != 0 {
				t.Fatalf("New(%d, %v): %d bytes is not a power of two in range", n, p, size)
			}
			if got := blocked.SplitBlockFPR(n, f.NumBlocks()); got > p {
				t.Fatalf("New(%d, %v): exact FPR %v above the target", n, p, got)
			}
			if size > MinFilterBytes && blocked.SplitBlockFPR(n, f.NumBlocks()/2) <= p {
				t.Fatalf("New(%d, %v): %d bytes is not the smallest power of two", n, p, size)
			}
		}
	}
	// The naive -8/ln(1-p^(1/8)) formula, rounded up to a power of two, gives
	// 2 MiB for 1.6M values at 1%; its exact FPR is above 1%, so New
	// must pick 4 MiB.
	const n = 1_600_000
	naive := -8 / math.Log(1-math.Pow(0.01, 1.0/8)) * n / 8
	if naive > 2<<20 {
		t.Fatalf("test premise: naive size %v > 2 MiB", naive)
	}
	s, err := Size(n, 0.01)
	if err != nil || s.Bytes != 4<<20 {
		t.Fatalf("Size(1.6M, 1%%) = %+v, %v; want 4 MiB", s, err)
	}
	if s.Bits != 8*s.Bytes || s.Blocks != s.Bytes/32 || s.K != 8 || s.Keys != n ||
		s.FPR != blocked.SplitBlockFPR(n, s.Blocks) || s.FPR > 0.01 || s.BitsPerKey != float64(s.Bits)/n {
		t.Fatalf("Size(1.6M, 1%%) = %+v: fields disagree", s)
	}
	if s, err := Size(0, 0.01); !errors.Is(err, errs.ErrKeys) || s != (blocked.Sizing{}) {
		t.Fatalf("Size(0, 1%%) = %+v, %v; want errs.ErrKeys", s, err)
	}
}

func TestNewErrors(t *testing.T) {
	for _, p := range []float64{0, 1, -0.5, 2, math.NaN()} {
		if f, err := New(10, p); !errors.Is(err, errs.ErrFPR) || f != nil {
			t.Errorf("New(10, %v) = %v, %v; want errs.ErrFPR", p, f, err)
		}
	}
	// 128 MiB holds about 100M values at 1%; a billion cannot fit.
	if f, err := New(1_000_000_000, 0.01); !errors.Is(err, errs.ErrTooLarge) || f != nil {
		t.Errorf("New(1e9, 1%%) = %v, %v; want errs.ErrTooLarge", f, err)
	}
}

// TestNewRecordsXXH64 checks that a Parquet filter's encoding says
// how its keys are hashed.
func TestNewRecordsXXH64(t *testing.T) {
	f, err := New(100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.MarshalBinary()
	if h, err := format.Parse(b, 0); err != nil || blocked.HashID(h.Hash) != blocked.HashXXH64 {
		t.Fatalf("encoding of New: key hash %v (%v), want %v", h.Hash, err, blocked.HashXXH64)
	}
}
