// Package sizing is the textbook Bloom filter's math (the floor every
// blocked layout pays a little above) and the sizes of every layout side by
// side, for the bloom command's size and experiment reports. The library's
// constructors size with package blocked's exact formulas.
package sizing

import (
	"errors"
	"fmt"
	"math"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
)

// ClassicFPR returns the false-positive rate of a classic Bloom filter of m
// bits holding n keys with k hash functions: (1 - e^(-kn/m))^k. It is 0 for
// n = 0. Like the functions of package math it returns NaN outside its
// domain: m = 0 or k < 1.
func ClassicFPR(m, n uint64, k int) float64 {
	if m == 0 || k < 1 {
		return math.NaN()
	}
	return math.Pow(-math.Expm1(-float64(k)*float64(n)/float64(m)), float64(k))
}

// ClassicFill returns the expected fraction of set bits of a classic Bloom
// filter of m bits holding n keys with k hash functions: 1 - (1 - 1/m)^(kn).
// It is 0 for n = 0 (no keys, no bits set), and NaN for m = 0 or k < 1.
func ClassicFill(m, n uint64, k int) float64 {
	if m == 0 || k < 1 {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	if m == 1 {
		return 1 // log1p(-1) is -Inf: the one bit is set by the first key
	}
	return -math.Expm1(float64(k) * float64(n) * math.Log1p(-1/float64(m)))
}

// OptimalK returns the number of hash functions that minimizes the classic
// false-positive rate for m bits and n keys: (m/n) ln 2, as a real number.
// Round it to a neighbouring integer (OptimalKInt picks the better one). It
// returns NaN for m = 0 or n = 0.
func OptimalK(m, n uint64) float64 {
	if m == 0 || n == 0 {
		return math.NaN()
	}
	return float64(m) / float64(n) * math.Ln2
}

// maxOptimalK bounds OptimalKInt, so that the conversion to int is defined.
const maxOptimalK = math.MaxInt32

// OptimalKInt returns the integer k (at least 1, at most 2^31-1) with the
// lowest ClassicFPR for m bits and n keys, or 0 for m = 0 or n = 0.
func OptimalKInt(m, n uint64) int {
	kf := OptimalK(m, n)
	if math.IsNaN(kf) {
		return 0
	}
	k := int(max(1, min(kf, maxOptimalK-1)))
	if ClassicFPR(m, n, k+1) < ClassicFPR(m, n, k) {
		return k + 1
	}
	return k
}

// ClassicBitsPerKey returns the bits per key a classic Bloom filter with the
// optimal real k needs for false-positive rate p: log2(1/p)/ln 2, about
// 1.44 log2(1/p). It is 0 for p = 1 and +Inf for p = 0, and NaN for p
// outside [0, 1] or NaN.
func ClassicBitsPerKey(p float64) float64 {
	if !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	return -logRate(p) / (math.Ln2 * math.Ln2)
}

// logRate returns ln(p) for p >= 0, exact to rounding for subnormal p too
// (math.Log on amd64 is not: it is off by up to 35 for the smallest
// subnormals, which matter to sizing for rates below 2.2e-308).
func logRate(p float64) float64 {
	frac, exp := math.Frexp(p)
	return math.Log(frac) + float64(exp)*math.Ln2
}

// Variant names a filter layout for Size.
type Variant int

const (
	// Classic is the textbook Bloom filter with the best integer k: the floor.
	// Its size is the smallest m over integer k with (1-e^(-kn/m))^k <= fpr.
	Classic Variant = iota
	// Blocked is blocked.Filter with the better of k = 8 and k = 16 (what New uses).
	Blocked
	// Blocked8 is blocked.Filter with k = 8.
	Blocked8
	// Blocked16 is blocked.Filter with k = 16.
	Blocked16
	// SplitBlock is the Parquet split block filter (blocked.SplitBlock), any
	// whole number of 32-byte blocks.
	SplitBlock
)

// Variants returns every variant Size knows, in the order reports show
// them, in a new slice the caller may change.
func Variants() []Variant { return []Variant{Classic, Blocked, Blocked8, Blocked16, SplitBlock} }

// String returns the variant's name.
func (v Variant) String() string {
	switch v {
	case Classic:
		return "classic"
	case Blocked:
		return "blocked"
	case Blocked8:
		return "blocked-k8"
	case Blocked16:
		return "blocked-k16"
	case SplitBlock:
		return "split-block"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Sizing is the size of a filter for a number of keys and a target
// false-positive rate: what Size returns, and the same type as
// blocked.Sizing (which cuckoo.Size and sbparquet.Size return). Its fields are
// documented at blocked.Sizing; fields that do not apply are zero (Blocks
// for Classic, for one).
type Sizing = blocked.Sizing

// Size returns the smallest filter of variant v that holds n keys at a
// false-positive rate of at most fpr, by the variant's exact formula. It
// returns ErrKeys for n = 0, ErrFPR for fpr outside (0, 1) or NaN,
// ErrTooLarge for a size the variant cannot address (Classic: 2^63 bits;
// the blocked variants: 2^32 blocks), and ErrOption for an unknown variant.
// It is only arithmetic: it answers sizes this platform cannot allocate.
//
//	s, err := sizing.Size(1_000_000, 0.01, sizing.Blocked)
//	// s.Bytes, s.K, s.BitsPerKey, s.FPR
func Size(n uint64, fpr float64, v Variant) (Sizing, error) {
	switch v {
	case Classic:
		return classicSize(n, fpr)
	case Blocked:
		return blocked.Size(n, fpr)
	case Blocked8:
		return blockedSizeK(n, fpr, 8)
	case Blocked16:
		return blockedSizeK(n, fpr, 16)
	case SplitBlock:
		return blocked.SizeSplitBlock(n, fpr)
	}
	return Sizing{}, fmt.Errorf("%w: unknown sizing variant %d", errs.ErrOption, int(v))
}

// blockedSizeK is blocked.Size with k fixed (8 or 16), for Blocked8 and
// Blocked16: the fewest 64-byte blocks whose exact rate blocked.FPR for n
// keys is at most fpr. blocked.Size checks n and fpr and words their errors.
func blockedSizeK(n uint64, fpr float64, k int) (Sizing, error) {
	if _, err := blocked.Size(n, fpr); err != nil && !errors.Is(err, errs.ErrTooLarge) {
		return Sizing{}, err
	}
	if !(blocked.FPR(n, blocked.MaxBlocks, k) <= fpr) {
		return Sizing{}, fmt.Errorf("%w: %s at fpr %v need more than %d blocks at k = %d", errs.ErrTooLarge, errs.Count(n, "key"), fpr, uint64(blocked.MaxBlocks), k)
	}
	lo, hi := uint64(0), uint64(blocked.MaxBlocks) // FPR(lo) > fpr (or lo = 0), FPR(hi) <= fpr
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; blocked.FPR(n, mid, k) <= fpr {
			hi = mid
		} else {
			lo = mid
		}
	}
	return Sizing{Keys: n, FPR: blocked.FPR(n, hi, k), Bits: hi * 512, Bytes: hi * 64,
		BitsPerKey: float64(hi*512) / float64(n), Blocks: hi, K: k}, nil
}

// classicSize is Size for Classic.
func classicSize(n uint64, fpr float64) (Sizing, error) {
	if n == 0 {
		return Sizing{}, errs.ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return Sizing{}, fmt.Errorf("%w: got %v", errs.ErrFPR, fpr)
	}
	// For each integer k near the optimum log2(1/fpr) (at most 1075, for
	// the smallest subnormal fpr), the smallest m with (1-e^(-kn/m))^k <= fpr
	// is -kn/ln(1-fpr^(1/k)); keep the smallest.
	var best Sizing
	lnp := logRate(fpr)
	kopt := -lnp / math.Ln2
	// ln(1-fpr^(1/k)) is computed as log1mexp(ln(fpr)/k), which keeps its
	// precision for fpr near 1 too, where fpr^(1/k) rounds to 1 and
	// log1p(-fpr^(1/k)) is -Inf (a size of 0 bits).
	for k := max(1, int(kopt)-1); k <= int(kopt)+2; k++ {
		bits := math.Ceil(-float64(k) * float64(n) / log1mexp(lnp/float64(k)))
		if !(bits < 1<<63) { // also a NaN
			return Sizing{}, fmt.Errorf("%w: %s at fpr %v need more than 2^63 bits", errs.ErrTooLarge, errs.Count(n, "key"), fpr)
		}
		m := uint64(max(1, bits))
		// The formula is exact in real numbers; rounding may put m a bit
		// off the smallest size whose rate is at most fpr: step to it.
		for i := 0; i < 4 && ClassicFPR(m, n, k) > fpr && m < 1<<63-1; i++ {
			m++
		}
		for i := 0; i < 4 && m > 1 && ClassicFPR(m-1, n, k) <= fpr; i++ {
			m--
		}
		if best.Bits == 0 || m < best.Bits {
			best = Sizing{Keys: n, Bits: m, Bytes: (m + 7) / 8, BitsPerKey: float64(m) / float64(n), K: k, FPR: ClassicFPR(m, n, k)}
		}
	}
	return best, nil
}

// log1mexp returns ln(1 - e^x) for x < 0, to full precision both near 0
// (where e^x rounds to 1) and far from it (where 1 - e^x rounds to 1).
func log1mexp(x float64) float64 {
	if x > -math.Ln2 {
		return math.Log(-math.Expm1(x))
	}
	return math.Log1p(-math.Exp(x))
}
