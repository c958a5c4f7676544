package cuckoo

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// BucketSize is the number of fingerprints in a bucket.
const BucketSize = 4

// MaxLoad is the load factor New plans for: the fraction of slots a filter
// sized for n keys holds at n keys, at most. Buckets of 4 with 500 kicks fill
// to about 0.95-0.98 before the first failed Add, so New stays at or under
// it; the power-of-two number of buckets usually leaves it lower.
const MaxLoad = 0.95

// SmallBuckets and SmallMaxLoad: small tables fill less reliably (the first
// failed Add came at a load as low as 0.5 with 2 to 8 buckets, 0.92 with 64,
// over 200 seeds), so New plans tables under SmallBuckets buckets (up to
// about 490 keys) for a load of at most SmallMaxLoad. It costs at most a few
// hundred bytes.
const (
	SmallBuckets = 256
	SmallMaxLoad = 0.5
)

// MinLoad is the lowest load New will plan for to reach a small fpr with a
// fingerprint size: below it a longer fingerprint (or a Bloom filter) is the
// better deal, so New returns ErrFPR.
const MinLoad = 0.5

// MaxBuckets is the largest number of buckets: the first bucket comes from
// the upper 32 bits of the hash.
const MaxBuckets = 1 << 32

// maxBuckets returns the most buckets of fpBits-bit fingerprints a table may
// have: MaxBuckets, or less where an int cannot count the bytes (32-bit).
func maxBuckets(fpBits int) uint64 {
	return min(MaxBuckets, uint64(math.MaxInt-8)/uint64(fpBits/2))
}

// Errors returned by the constructors and by AddHash. They are wrapped with
// details; test for them with errors.Is.
var (
	ErrKeys        = errors.New("cuckoo: number of keys must be positive")
	ErrFPR         = errors.New("cuckoo: false-positive rate out of range")
	ErrTooLarge    = errors.New("cuckoo: filter would be too large")
	ErrBuckets     = errors.New("cuckoo: number of buckets must be a power of two from 1 to 2^32")
	ErrFingerprint = errors.New("cuckoo: fingerprint size must be 8, 12 or 16 bits")
	ErrFull        = errors.New("cuckoo: filter is full")
)

// slotMatch is the probability that a stored fingerprint equals a query's:
// fingerprints are the low f bits of the hash with 0 mapped to 1, so value 1
// has probability 2/2^f and every other non-zero value 1/2^f, and
// P(equal) = ((2^f-2)*1 + 1*4) / 4^f = (2^f+2) / 4^f.
func slotMatch(fpBits int) float64 {
	m := math.Ldexp(1, fpBits)
	return (m + 2) / (m * m)
}

// ExpectedFPR returns the false-positive rate of a filter with fpBits-bit
// fingerprints at load factor load (the fraction of occupied slots): a
// lookup compares the query's fingerprint with the 2*4*load fingerprints
// its two buckets hold on average, so FPR = 1 - (1-q)^(8*load), where q is
// the probability two fingerprints are equal, (2^f+2)/4^f (about 2^-f).
// At full load this is about 2*4/2^f: 3.1% (8 bits), 0.20% (12), 0.012% (16).
func ExpectedFPR(fpBits int, load float64) float64 {
	return -math.Expm1(2 * BucketSize * load * math.Log1p(-slotMatch(fpBits)))
}

// maxLoadFor returns the highest load at which fpBits-bit fingerprints keep
// the FPR at or under fpr (possibly above 1).
func maxLoadFor(fpBits int, fpr float64) float64 {
	return math.Log1p(-fpr) / (2 * BucketSize * math.Log1p(-slotMatch(fpBits)))
}

// bucketsFor returns the fewest buckets, a power of two, that hold n keys at
// a load of at most load, or false if that is more than MaxBuckets.
func bucketsFor(n uint64, load float64) (uint64, bool) {
	need := math.Ceil(float64(n) / (BucketSize * load))
	if need > MaxBuckets {
		return 0, false
	}
	return uint64(1) << bits.Len64(uint64(need)-1), true
}

// Sizing is a cuckoo filter geometry chosen for a number of keys and a
// target FPR.
type Sizing struct {
	FingerprintBits int     // 8, 12 or 16
	Buckets         uint64  // a power of two
	Load            float64 // load factor at the planned number of keys
	FPR             float64 // expected FPR at that load (ExpectedFPR)
}

// Bits returns the size of the table in bits.
func (s Sizing) Bits() uint64 { return s.Buckets * BucketSize * uint64(s.FingerprintBits) }

// Size returns the smallest geometry that holds n keys at a load of at most
// MaxLoad (SmallMaxLoad under SmallBuckets buckets) with an expected FPR at
// most fpr: for each fingerprint size (8, 12, 16 bits) the load is capped so
// that ExpectedFPR(f, load) <= fpr, the buckets are rounded up to a power of
// two, and the fewest bits win (the
// longer fingerprint on a tie). A fingerprint size that would need a load
// under MinLoad is not considered; if none qualifies (fpr below about
// 6.1e-5) Size returns ErrFPR.
func Size(n uint64, fpr float64) (Sizing, error) {
	if n == 0 {
		return Sizing{}, ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return Sizing{}, fmt.Errorf("%w: must be in (0, 1), got %v", ErrFPR, fpr)
	}
	var best Sizing
	var tooLarge error
	for _, f := range []int{8, 12, 16} {
		load := min(MaxLoad, maxLoadFor(f, fpr))
		if load < MinLoad {
			continue
		}
		nb, ok := bucketsFor(n, load)
		if !ok {
			tooLarge = fmt.Errorf("%w: %d keys need more than %d buckets", ErrTooLarge, n, uint64(MaxBuckets))
			continue
		}
		if nb < SmallBuckets {
			nb, _ = bucketsFor(n, min(load, SmallMaxLoad))
		}
		if nb > maxBuckets(f) {
			tooLarge = fmt.Errorf("%w: %d keys need %d buckets of %d-bit fingerprints, more than this platform can allocate", ErrTooLarge, n, nb, f)
			continue
		}
		s := Sizing{FingerprintBits: f, Buckets: nb, Load: float64(n) / float64(nb*BucketSize)}
		s.FPR = ExpectedFPR(f, s.Load)
		if best.Buckets == 0 || s.Bits() <= best.Bits() {
			best = s
		}
	}
	if best.Buckets == 0 {
		if tooLarge != nil {
			return Sizing{}, tooLarge
		}
		return Sizing{}, fmt.Errorf("%w: %v is below %.2g, the lowest 16-bit fingerprints reach at load %v; use a Bloom filter",
			ErrFPR, fpr, ExpectedFPR(16, MinLoad), MinLoad)
	}
	return best, nil
}
