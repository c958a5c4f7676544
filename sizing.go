package bloom

import (
	"errors"
	"fmt"
	"math"

	"github.com/simdbloom/bloom/blocked"
)

// The sizing math: the classic Bloom filter formulas (the floor every
// blocked layout pays a little above) and the exact blocked ones.

// ClassicFPR returns the false-positive rate of a classic Bloom filter of m
// bits holding n keys with k hash functions: (1 - e^(-kn/m))^k.
func ClassicFPR(m, n uint64, k int) float64 {
	if m == 0 {
		return 1
	}
	return math.Pow(-math.Expm1(-float64(k)*float64(n)/float64(m)), float64(k))
}

// ClassicFill returns the expected fraction of set bits of a classic Bloom
// filter of m bits holding n keys with k hash functions: 1 - (1 - 1/m)^(kn).
func ClassicFill(m, n uint64, k int) float64 {
	if m == 0 {
		return 1
	}
	return -math.Expm1(float64(k) * float64(n) * math.Log1p(-1/float64(m)))
}

// OptimalK returns the number of hash functions that minimizes the classic
// false-positive rate for m bits and n keys: (m/n) ln 2, as a real number.
// Round it to a neighbouring integer (OptimalKInt picks the better one).
func OptimalK(m, n uint64) float64 { return float64(m) / float64(n) * math.Ln2 }

// OptimalKInt returns the integer k (at least 1) with the lowest ClassicFPR.
func OptimalKInt(m, n uint64) int {
	k := max(1, int(OptimalK(m, n)))
	if ClassicFPR(m, n, k+1) < ClassicFPR(m, n, k) {
		return k + 1
	}
	return k
}

// ClassicBitsPerKey returns the bits per key a classic Bloom filter with the
// optimal k needs for false-positive rate p: log2(1/p)/ln 2, about 1.44 log2(1/p).
func ClassicBitsPerKey(p float64) float64 { return -math.Log(p) / (math.Ln2 * math.Ln2) }

// Variant names a filter layout for Bits.
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

// Variants lists every variant Bits knows, in the order reports show them.
var Variants = []Variant{Classic, Blocked, Blocked8, Blocked16, SplitBlock}

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

// ErrVariant is returned by Bits for a variant it does not know.
var ErrVariant = errors.New("bloom: unknown filter variant")

// Size is the answer of Bits: how large a filter must be.
type Size struct {
	Variant Variant
	Bits    uint64  // size in bits
	K       int     // bits set per key (for Classic, the optimal integer k)
	FPR     float64 // the false-positive rate at n keys, by the variant's formula
}

// Bytes returns the size in bytes, rounded up.
func (s Size) Bytes() uint64 { return (s.Bits + 7) / 8 }

// BitsPerKey returns Bits / n.
func (s Size) BitsPerKey(n uint64) float64 { return float64(s.Bits) / float64(n) }

// Bits solves for the size of a filter of the given variant that holds n
// keys at a false-positive rate of at most fpr. Bad input (n = 0, fpr outside
// (0, 1) or NaN, a size beyond what the variant can address) is an error.
func Bits(n uint64, fpr float64, v Variant) (Size, error) {
	switch v {
	case Classic:
		if n == 0 {
			return Size{}, blocked.ErrKeys
		}
		if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
			return Size{}, fmt.Errorf("%w: got %v", blocked.ErrFPR, fpr)
		}
		// For each integer k near the optimum, the smallest m with
		// (1-e^(-kn/m))^k <= fpr is -kn/ln(1-fpr^(1/k)); keep the smallest.
		best := Size{Variant: v}
		kopt := math.Log2(1 / fpr)
		for k := max(1, int(kopt)-1); k <= int(kopt)+2; k++ {
			bits := math.Ceil(-float64(k) * float64(n) / math.Log1p(-math.Pow(fpr, 1/float64(k))))
			if bits >= 1<<63 {
				return Size{}, fmt.Errorf("%w: %d keys at fpr %v", blocked.ErrTooLarge, n, fpr)
			}
			if m := uint64(bits); best.Bits == 0 || m < best.Bits {
				best = Size{Variant: v, Bits: m, K: k, FPR: ClassicFPR(m, n, k)}
			}
		}
		return best, nil
	case Blocked, Blocked8, Blocked16, SplitBlock:
		var s blocked.Sizing
		var err error
		switch v {
		case Blocked:
			s, err = blocked.SizeFilter(n, fpr)
		case Blocked8:
			s, err = blocked.SizeFilterK(n, fpr, 8)
		case Blocked16:
			s, err = blocked.SizeFilterK(n, fpr, 16)
		default:
			s, err = blocked.SizeSplitBlock(n, fpr)
		}
		if err != nil {
			return Size{}, err
		}
		return Size{Variant: v, Bits: s.Bytes * 8, K: s.K, FPR: s.FPR}, nil
	}
	return Size{}, fmt.Errorf("%w: %d", ErrVariant, int(v))
}
