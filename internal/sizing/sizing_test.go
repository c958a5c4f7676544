package sizing

import (
	"errors"
	"math"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
	"github.com/simdbloom/bloom/internal/errs"
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

// TestMathDomain: the classic helpers return NaN outside their domain, as
// package math does, and the right value at the legitimate edges.
func TestMathDomain(t *testing.T) {
	nan := []struct {
		name string
		got  float64
	}{
		{"ClassicFPR(0, 10, 7)", ClassicFPR(0, 10, 7)},
		{"ClassicFPR(100, 10, 0)", ClassicFPR(100, 10, 0)},
		{"ClassicFPR(100, 10, -1)", ClassicFPR(100, 10, -1)},
		{"ClassicFill(0, 10, 7)", ClassicFill(0, 10, 7)},
		{"ClassicFill(100, 10, 0)", ClassicFill(100, 10, 0)},
		{"OptimalK(0, 10)", OptimalK(0, 10)},
		{"OptimalK(100, 0)", OptimalK(100, 0)},
		{"ClassicBitsPerKey(2)", ClassicBitsPerKey(2)},
		{"ClassicBitsPerKey(-0.1)", ClassicBitsPerKey(-0.1)},
		{"ClassicBitsPerKey(NaN)", ClassicBitsPerKey(math.NaN())},
		{"ClassicBitsPerKey(+Inf)", ClassicBitsPerKey(math.Inf(1))},
	}
	for _, c := range nan {
		if !math.IsNaN(c.got) {
			t.Errorf("%s = %v, want NaN", c.name, c.got)
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"ClassicFill(1, 0, 1)", ClassicFill(1, 0, 1), 0}, // no keys, no bits set
		{"ClassicFill(1000, 0, 7)", ClassicFill(1000, 0, 7), 0},
		{"ClassicFill(1, 1, 1)", ClassicFill(1, 1, 1), 1}, // the one bit is set
		{"ClassicFill(2, 1, 1)", ClassicFill(2, 1, 1), 0.5},
		{"ClassicFPR(1000, 0, 7)", ClassicFPR(1000, 0, 7), 0},
		{"ClassicFPR(1, 1, 1)", ClassicFPR(1, 1, 1), -math.Expm1(-1)},
		{"ClassicBitsPerKey(1)", ClassicBitsPerKey(1), 0},
		{"ClassicBitsPerKey(0)", ClassicBitsPerKey(0), math.Inf(1)},
		{"ClassicBitsPerKey(0.5)", ClassicBitsPerKey(0.5), 1 / math.Ln2},
		// 2^-1074, the smallest subnormal: log2(1/p) = 1074 exactly.
		{"ClassicBitsPerKey(2^-1074)", ClassicBitsPerKey(math.SmallestNonzeroFloat64), 1074 / math.Ln2},
	} {
		if c.got != c.want && math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if k := OptimalKInt(0, 10); k != 0 {
		t.Errorf("OptimalKInt(0, 10) = %d, want 0", k)
	}
	if k := OptimalKInt(100, 0); k != 0 {
		t.Errorf("OptimalKInt(100, 0) = %d, want 0", k)
	}
	if k := OptimalKInt(1, 1000); k != 1 {
		t.Errorf("OptimalKInt(1, 1000) = %d, want 1", k)
	}
	if k := OptimalKInt(math.MaxUint64, 1); k < 1<<30 || k > math.MaxInt32 {
		t.Errorf("OptimalKInt(2^64-1, 1) = %d, want a large k that fits in 31 bits", k)
	}
	if p := blocked.FPR(1000, 100, 8); !(p > 0 && p < 1) {
		t.Errorf("blocked.FPR k=8 = %v", p)
	}
	for _, k := range []int{0, 1, 7, 9, 15, 17, 32, -8} {
		if p := blocked.FPR(1000, 100, k); !math.IsNaN(p) {
			t.Errorf("blocked.FPR(1000, 100, %d) = %v, want NaN", k, p)
		}
	}
}

func TestSizeBillionKeys(t *testing.T) {
	s, err := Size(1e9, 0.01, Classic)
	if err != nil {
		t.Fatal(err)
	}
	if gb := float64(s.Bytes) / 1e9; math.Abs(gb-1.2) > 0.01 || s.K != 7 || s.FPR > 0.01 {
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
		const n = 10_000_000
		s, err := Size(n, c.p, c.v)
		if err != nil {
			t.Fatal(err)
		}
		// Blocked is blocked.Size: the table's minimal size rounded up, by
		// less than 1%, to a block count that folds (blocked.Filter.Fold).
		hi := c.want
		if c.v == Blocked {
			hi *= 1.01
		}
		if got := s.BitsPerKey; got < c.want-0.02 || got > hi+0.02 {
			t.Errorf("%v at %v: %.2f bits/key, want %.2f (to %.2f)", c.v, c.p, got, c.want, hi)
		}
		if s.FPR > c.p {
			t.Errorf("%v at %v: formula FPR %v above the target", c.v, c.p, s.FPR)
		}
		// One shape: the fields agree with each other for every variant.
		if s.Keys != n || s.Bytes != (s.Bits+7)/8 || s.BitsPerKey != float64(s.Bits)/n || s.K < 1 {
			t.Errorf("%v at %v: fields disagree: %+v", c.v, c.p, s)
		}
		blockBytes := map[Variant]uint64{Classic: 0, Blocked: 64, Blocked8: 64, Blocked16: 64, SplitBlock: 32}[c.v]
		if c.v != Classic && s.Bits != s.Blocks*blockBytes*8 || (c.v != Classic) != (s.Blocks > 0) {
			t.Errorf("%v at %v: Bits %d is not Blocks %d whole blocks", c.v, c.p, s.Bits, s.Blocks)
		}
	}
}

// TestSizeTinyFPR: log2(1/p) is +Inf below about 5.6e-309; Classic must
// still answer a real size (or an error), never a zero size and no error.
func TestSizeTinyFPR(t *testing.T) {
	for _, p := range []float64{1e-300, 5e-309, 1e-310, math.SmallestNonzeroFloat64} {
		s, err := Size(1, p, Classic)
		if err != nil {
			t.Errorf("Size(1, %v, Classic): %v", p, err)
			continue
		}
		if s.Bits == 0 || s.K < 1 || !(s.FPR <= p) || s.Bits != uint64(math.Ceil(float64(s.Bits))) {
			t.Errorf("Size(1, %v, Classic) = %+v", p, s)
		}
		// About 1.44 log2(1/p) bits per key.
		if want := ClassicBitsPerKey(p); math.Abs(s.BitsPerKey-want) > 0.05*want {
			t.Errorf("Size(1, %v, Classic): %.1f bits/key, want about %.1f", p, s.BitsPerKey, want)
		}
		if _, err := Size(1e18, p, Classic); !errors.Is(err, errs.ErrTooLarge) {
			t.Errorf("Size(1e18, %v, Classic): %v, want ErrTooLarge", p, err)
		}
		for _, v := range []Variant{Blocked, Blocked8, Blocked16, SplitBlock} {
			if _, err := Size(1, p, v); !errors.Is(err, errs.ErrTooLarge) {
				t.Errorf("Size(1, %v, %v): %v, want ErrTooLarge", p, v, err)
			}
		}
	}
}

// TestSizeIsArithmetic: sizing answers sizes up to the format's limit on
// every platform; only constructors refuse what the platform cannot
// allocate (the bloom package's TestConstructorsRefuseWhat32BitCannotHold).
// This runs under GOARCH=386 too.
func TestSizeIsArithmetic(t *testing.T) {
	const n = 3_000_000_000 // 3.6 to 3.9 GB at 1%
	for _, v := range []Variant{Classic, Blocked, Blocked8, Blocked16, SplitBlock} {
		s, err := Size(n, 0.01, v)
		if err != nil || s.Bytes <= 1<<31 {
			t.Errorf("Size(3e9, 1%%, %v) = %+v, %v; want more than 2 GiB", v, s, err)
		}
	}
	if s, err := cuckoo.Size(n, 0.01); err != nil || s.Bytes <= 1<<31 {
		t.Errorf("cuckoo.Size(3e9, 1%%) = %+v, %v", s, err)
	}
	if s, err := blocked.SizeCounting(n, 0.01); err != nil || s.Bytes <= 1<<31 {
		t.Errorf("blocked.SizeCounting(3e9, 1%%) = %+v, %v", s, err)
	}
}

func TestSizeErrors(t *testing.T) {
	for _, v := range Variants() {
		if _, err := Size(0, 0.01, v); !errors.Is(err, errs.ErrKeys) {
			t.Errorf("%v n=0: %v", v, err)
		}
		for _, p := range []float64{0, 1, 2, -0.5, math.NaN(), math.Inf(-1), math.Inf(1)} {
			if _, err := Size(100, p, v); !errors.Is(err, errs.ErrFPR) {
				t.Errorf("%v fpr=%v: %v", v, p, err)
			}
		}
	}
	if _, err := Size(math.MaxUint64, 1e-300, Classic); !errors.Is(err, errs.ErrTooLarge) {
		t.Errorf("overflow: %v", err)
	}
	for _, v := range []Variant{-1, 5, 99} {
		if _, err := Size(10, 0.1, v); !errors.Is(err, errs.ErrOption) {
			t.Errorf("unknown variant %d: %v, want ErrOption", v, err)
		}
	}
}

func TestVariantsIsACopy(t *testing.T) {
	a := Variants()
	if len(a) != 5 || a[0] != Classic {
		t.Fatalf("Variants() = %v", a)
	}
	a[0] = Variant(99)
	if Variants()[0] != Classic {
		t.Fatal("changing the slice Variants returned changed the next call's")
	}
	for _, v := range a[1:] {
		if _, err := Size(100, 0.01, v); err != nil {
			t.Errorf("Size(%v): %v", v, err)
		}
	}
}

// TestSizeRateNearOne: for rates next to 1, fpr^(1/k) rounds to 1 and the
// textbook formula gives 0 bits; Classic must answer the smallest real size
// (1 bit for one key), as the blocked variants do, and never errs.ErrTooLarge.
func TestSizeRateNearOne(t *testing.T) {
	near1 := math.Nextafter(1, 0) // 0.9999999999999999
	for _, p := range []float64{near1, 1 - 1e-12, 0.999999, 0.99, 0.9} {
		for _, n := range []uint64{1, 2, 1000, 1 << 40} {
			s, err := Size(n, p, Classic)
			if err != nil {
				t.Errorf("Size(%d, %v, Classic): %v", n, p, err)
				continue
			}
			if s.Bits == 0 || s.K < 1 || !(s.FPR <= p) {
				t.Errorf("Size(%d, %v, Classic) = %+v: rate above the target or no bits", n, p, s)
			}
			// The smallest size: one bit fewer misses the target with every k
			// near the best one (for few keys: with many, a bit changes the
			// rate by less than a float64 next to 1 can tell).
			if s.Bits > 1 && n <= 1000 {
				for k := max(1, s.K-1); k <= s.K+1; k++ {
					if ClassicFPR(s.Bits-1, n, k) <= p {
						t.Errorf("Size(%d, %v, Classic) = %d bits, but %d bits with k = %d reach it", n, p, s.Bits, s.Bits-1, k)
					}
				}
			}
		}
	}
	if s, err := Size(1, near1, Classic); err != nil || s.Bits != 1 || s.Bytes != 1 || s.K != 1 {
		t.Errorf("Size(1, %v, Classic) = %+v, %v; want 1 bit, k = 1", near1, s, err)
	}
	for _, v := range Variants()[1:] {
		if s, err := Size(1, near1, v); err != nil || s.Blocks != 1 {
			t.Errorf("Size(1, %v, %v) = %+v, %v; want one block", near1, v, s, err)
		}
	}
}

// foldableBlocks is b rounded up to a multiple of the largest 2^t with
// 2^t - 1 < b/100, as blocked.Size rounds its block counts (so that
// filters fold), written again here from its definition.
func foldableBlocks(b uint64) uint64 {
	p := uint64(1)
	for 100*(2*p-1) < b {
		p *= 2
	}
	return (b + p - 1) / p * p
}

// TestBlockedSizeK: the fixed-k rows are the smallest sizes meeting the
// rate at their k, and blocked.Size is the one of the two with fewer blocks
// (k = 8 on a tie) once each is rounded up to a block count that folds
// (less than 1% more).
func TestBlockedSizeK(t *testing.T) {
	for _, n := range []uint64{1, 10, 1000, 123457, 1 << 30} {
		for _, fpr := range []float64{0.5, 0.1, 0.01, 1e-4, 1e-9} {
			var rows [2]Sizing
			for i, k := range []int{8, 16} {
				s, err := blockedSizeK(n, fpr, k)
				if err != nil {
					t.Fatalf("n=%d fpr=%v k=%d: %v", n, fpr, k, err)
				}
				if s.K != k || s.FPR > fpr || s.FPR != blocked.FPR(n, s.Blocks, k) || s.Bytes != s.Blocks*64 {
					t.Errorf("n=%d fpr=%v k=%d: %+v", n, fpr, k, s)
				}
				if s.Blocks > 1 && blocked.FPR(n, s.Blocks-1, k) <= fpr {
					t.Errorf("n=%d fpr=%v k=%d: %d blocks also meet the rate", n, fpr, k, s.Blocks-1)
				}
				nb := foldableBlocks(s.Blocks)
				if 100*(nb-s.Blocks) >= max(s.Blocks, 100) && nb != s.Blocks {
					t.Errorf("n=%d fpr=%v k=%d: rounding %d blocks to %d adds 1%% or more", n, fpr, k, s.Blocks, nb)
				}
				rows[i] = Sizing{Keys: n, FPR: blocked.FPR(n, nb, k), Bits: nb * 512, Bytes: nb * 64,
					BitsPerKey: float64(nb*512) / float64(n), Blocks: nb, K: k}
			}
			want := rows[0]
			if rows[1].Blocks < rows[0].Blocks {
				want = rows[1]
			}
			if got, err := blocked.Size(n, fpr); err != nil || got != want {
				t.Errorf("n=%d fpr=%v: blocked.Size %+v, %v; want %+v", n, fpr, got, err, want)
			}
		}
	}
	for _, c := range []struct {
		n   uint64
		fpr float64
		err error
	}{{0, 0.01, errs.ErrKeys}, {10, 0, errs.ErrFPR}, {10, math.NaN(), errs.ErrFPR}, {1 << 62, 1e-12, errs.ErrTooLarge}} {
		if _, err := blockedSizeK(c.n, c.fpr, 8); !errors.Is(err, c.err) {
			t.Errorf("n=%d fpr=%v: %v, want %v", c.n, c.fpr, err, c.err)
		}
	}
}
