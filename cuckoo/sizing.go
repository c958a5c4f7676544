package cuckoo

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
)

// BucketSize is the number of fingerprints in a bucket.
const BucketSize = 4

// MaxLoad is the load factor New plans for: a filter sized for n keys has
// at most this fraction of its slots in use at n keys, usually less, since
// the number of buckets is rounded up to a power of two.
const MaxLoad = 0.95

// Why MaxLoad is 0.95: buckets of 4 with maxKicks (500) kicks fill to about
// 0.95-0.98 before the first failed Add, so planning for at most 0.95 keeps
// New's filters below that point.
//
// smallBuckets and smallMaxLoad: small tables fill less reliably (the first
// failed Add came at a load as low as 0.5 with 2 to 8 buckets, 0.92 with 64,
// over 200 seeds), so Size plans tables under smallBuckets buckets (up to
// about 490 keys) for a load of at most smallMaxLoad. It costs at most a few
// hundred bytes.
const (
	smallBuckets = 256
	smallMaxLoad = 0.5
)

// minLoad is the lowest load Size will plan for to reach a small fpr with a
// fingerprint size: below it a longer fingerprint (or a Bloom filter) is the
// better deal, so Size returns ErrFPR.
const minLoad = 0.5

// MaxBuckets is the largest number of buckets: the first bucket comes from
// the upper 32 bits of the hash. Size uses this limit; the constructors also
// refuse, with ErrTooLarge, what this platform cannot allocate.
const MaxBuckets uint64 = 1 << 32

// platformBuckets returns the most buckets of fpBits-bit fingerprints this
// platform can allocate: MaxBuckets, or less where an int cannot count the
// bytes (32-bit).
func platformBuckets(fpBits int) uint64 {
	return min(MaxBuckets, uint64(math.MaxInt-8)/uint64(fpBits/2))
}

// Errors returned by this package, wrapped with details; test for them with
// errors.Is. They are the values of the same names in packages bloom,
// blocked and parquet.
var (
	// ErrKeys means the number of keys to plan for is zero.
	ErrKeys = errs.ErrKeys
	// ErrFPR means a false-positive rate is outside (0, 1) or NaN, or below
	// what 16-bit fingerprints reach.
	ErrFPR = errs.ErrFPR
	// ErrTooLarge means the table would need more than MaxBuckets buckets,
	// or more memory than this platform can address.
	ErrTooLarge = errs.ErrTooLarge
	// ErrGeometry means a number of buckets that is not a power of two, or
	// a fingerprint width other than 8, 12 or 16.
	ErrGeometry = errs.ErrGeometry
	// ErrFull means AddHash found no room; the filter is unchanged.
	ErrFull = errs.ErrFull
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
	if need > float64(MaxBuckets) {
		return 0, false
	}
	return uint64(1) << bits.Len64(uint64(need)-1), true
}

// Sizing is the size Size chooses. Its Blocks field is the number of
// buckets (a power of two), FingerprintBits the fingerprint width, Load the
// fraction of slots in use at Keys keys, and K is 0; see blocked.Sizing.
type Sizing = blocked.Sizing

// sizing returns the Sizing of n keys in nb buckets of fpBits-bit fingerprints.
func sizing(n, nb uint64, fpBits int) Sizing {
	s := Sizing{Keys: n, Blocks: nb, FingerprintBits: fpBits, Load: float64(n) / float64(nb*BucketSize)}
	s.Bits = nb * BucketSize * uint64(fpBits)
	s.Bytes = (s.Bits + 7) / 8
	s.FPR = ExpectedFPR(fpBits, s.Load)
	if n > 0 {
		s.BitsPerKey = float64(s.Bits) / float64(n)
	}
	return s
}

// Size returns the smallest geometry that holds n keys at a load of at most
// MaxLoad with an expected FPR at most fpr: for each fingerprint size (8,
// 12, 16 bits) the load is capped so that ExpectedFPR(f, load) <= fpr, the
// buckets are rounded up to a power of two, and the fewest bits win (the
// longer fingerprint on a tie). Small tables (up to about 490 keys) are
// planned for a lower load, since they fill less reliably. A fingerprint
// size that would need a load under one half is not considered; if none
// qualifies (fpr below about 6.1e-5) Size returns ErrFPR: use a Bloom
// filter. It returns ErrKeys for n = 0, ErrFPR for fpr outside (0, 1), and
// ErrTooLarge for more than MaxBuckets buckets. New(n, fpr) makes this
// filter.
func Size(n uint64, fpr float64) (Sizing, error) {
	if n == 0 {
		return Sizing{}, ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return Sizing{}, fmt.Errorf("%w: got %v", ErrFPR, fpr)
	}
	var best Sizing
	var tooLarge error
	for _, f := range []int{8, 12, 16} {
		load := min(MaxLoad, maxLoadFor(f, fpr))
		if load < minLoad {
			continue
		}
		nb, ok := bucketsFor(n, load)
		if !ok {
			tooLarge = fmt.Errorf("%w: %d keys need more than %d buckets", ErrTooLarge, n, MaxBuckets)
			continue
		}
		if nb < smallBuckets {
			nb, _ = bucketsFor(n, min(load, smallMaxLoad))
		}
		s := sizing(n, nb, f)
		if best.Blocks == 0 || s.Bits <= best.Bits {
			best = s
		}
	}
	if best.Blocks == 0 {
		if tooLarge != nil {
			return Sizing{}, tooLarge
		}
		return Sizing{}, fmt.Errorf("%w: %v is below %.2g, the lowest 16-bit fingerprints reach at load %v; use a Bloom filter",
			ErrFPR, fpr, ExpectedFPR(16, minLoad), minLoad)
	}
	return best, nil
}
