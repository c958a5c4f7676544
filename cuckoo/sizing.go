package cuckoo

import (
	"fmt"
	"math"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
)

// bucketSize is the number of fingerprints in a bucket.
const bucketSize = 4

// The range of fingerprint widths, in bits.
const (
	minFingerprintBits = 4
	maxFingerprintBits = 32
)

// maxLoad is the load factor New plans for at 1024 buckets and more: a
// filter sized for n keys has at most this fraction of its slots in use at
// n keys. Smaller tables are planned for a lower load (see Size).
const maxLoad = 0.95

// Why maxLoad is 0.95: buckets of 4 with maxKicks kicks and a one-step
// lookahead fill to about 0.96-0.98 before the first failed Add at 1024
// buckets and more (PERF.md, "Loads at the first failure"), so planning for
// at most 0.95 keeps New's filters below that point.
//
// Small tables fill less reliably (the first failed Add came at a load as
// low as 0.5 with 2 to 8 buckets), so Size plans a table of fewer than
// fullBuckets buckets for a load of at most smallLoad(buckets), which rises
// from smallMaxLoad at smallBuckets buckets to maxLoad at fullBuckets. It
// costs at most a few hundred bytes.
const (
	smallBuckets = 64
	fullBuckets  = 512
	smallMaxLoad = 0.5
)

// plannedLoad returns the highest load Size plans for fpBits-bit
// fingerprints: maxLoad from 8 bits; less for shorter ones, whose 2^f
// possible offsets between a key's two buckets leave the table less room to
// move fingerprints, so large tables fill less (PERF.md, "Loads at the
// first failure").
func plannedLoad(fpBits int) float64 {
	switch {
	case fpBits >= 8:
		return maxLoad
	case fpBits == 7:
		return 0.93
	case fpBits == 6:
		return 0.90
	case fpBits == 5:
		return 0.85
	}
	return 0.75
}

// minLoad is the lowest load Size will plan for to reach a small fpr with a
// fingerprint width: below it a longer fingerprint is the better deal.
const minLoad = 0.5

// maxBuckets is the largest number of buckets: the first bucket comes from
// the upper 32 bits of the hash. Size uses this limit; the constructors also
// refuse, with bloom.ErrTooLarge, what this platform cannot allocate.
const maxBuckets uint64 = 1 << 32

// Layout is the way a bucket's 4 fingerprints are stored.
type Layout uint8

const (
	// SemiSorted keeps each bucket's fingerprints sorted and codes their
	// top 4 bits together in 12 bits: 4(f-1) bits per bucket, one bit per
	// slot less than Plain. New uses it.
	SemiSorted Layout = 1
	// Plain stores the 4 fingerprints as they are: 4f bits per bucket.
	Plain Layout = 2
)

// String names the layout.
func (l Layout) String() string {
	switch l {
	case SemiSorted:
		return "semi-sorted"
	case Plain:
		return "plain"
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// bucketBits returns the bits of one bucket of fpBits-bit fingerprints.
func bucketBits(fpBits int, l Layout) uint64 {
	if l == SemiSorted {
		return 4 * uint64(fpBits-1)
	}
	return 4 * uint64(fpBits)
}

// tableBytes returns the bytes of buckets buckets, the last one padded to
// a whole byte.
func tableBytes(buckets uint64, fpBits int, l Layout) uint64 {
	return (buckets*bucketBits(fpBits, l) + 7) / 8
}

// platformBuckets returns the most buckets of fpBits-bit fingerprints this
// platform can allocate: maxBuckets, or less where an int cannot count the
// bytes (32-bit).
func platformBuckets(fpBits int, l Layout) uint64 {
	return min(maxBuckets, uint64(math.MaxInt-16)/bucketBits(fpBits, l)*8)
}

// errFull is bloom.ErrFull, which AddHash wraps when it finds no room (the
// filter unchanged); the package's errors all wrap package bloom's Err
// values: test for them with errors.Is.
var errFull = errs.ErrFull

// slotMatch is the probability that a stored fingerprint equals a query's:
// fingerprints are the low f bits of the hash with 0 mapped to 1, so value 1
// has probability 2/2^f and every other non-zero value 1/2^f, and
// P(equal) = ((2^f-2)*1 + 1*4) / 4^f = (2^f+2) / 4^f.
func slotMatch(fpBits int) float64 {
	m := math.Ldexp(1, fpBits)
	return (m + 2) / (m * m)
}

// FPR returns the false-positive rate of a filter of buckets buckets with
// fpBits-bit fingerprints holding n keys (1 for no buckets): its load
// factor is n/(4*buckets) (the fraction of occupied slots), and a lookup
// compares the query's fingerprint with the 2*4*load fingerprints its two
// buckets hold on average, so FPR = 1 - (1-q)^(8*load), where q is the
// probability two fingerprints are equal, (2^f+2)/4^f (about 2^-f). At full
// load this is about 8/2^f. The layout does not change it.
func FPR(n, buckets uint64, fpBits int) float64 {
	if buckets == 0 {
		return 1
	}
	return fprAt(fpBits, float64(n)/(float64(buckets)*bucketSize))
}

// fprAt is FPR at load factor load.
func fprAt(fpBits int, load float64) float64 {
	return -math.Expm1(2 * bucketSize * load * math.Log1p(-slotMatch(fpBits)))
}

// maxLoadFor returns the highest load at which fpBits-bit fingerprints keep
// the FPR at or under fpr (possibly above 1).
func maxLoadFor(fpBits int, fpr float64) float64 {
	return math.Log1p(-fpr) / (2 * bucketSize * math.Log1p(-slotMatch(fpBits)))
}

// smallLoad returns the highest load Size plans for a table of buckets
// buckets: smallMaxLoad up to smallBuckets, maxLoad from fullBuckets, and
// linear in between.
func smallLoad(buckets uint64) float64 {
	switch {
	case buckets <= smallBuckets:
		return smallMaxLoad
	case buckets >= fullBuckets:
		return maxLoad
	}
	return smallMaxLoad + (maxLoad-smallMaxLoad)*float64(buckets-smallBuckets)/(fullBuckets-smallBuckets)
}

// bucketsFor returns the fewest buckets that hold n keys at a load of at
// most load and of at most smallLoad of their number, or false if that is
// more than maxBuckets.
func bucketsFor(n uint64, load float64) (uint64, bool) {
	need := math.Ceil(float64(n) / (bucketSize * load))
	if need > float64(maxBuckets) {
		return 0, false
	}
	nb := max(1, uint64(need))
	if nb >= fullBuckets || float64(n) <= smallLoad(nb)*float64(nb*bucketSize) {
		return nb, true
	}
	// The load a small table may take grows with its size: search the
	// fewest buckets in (nb, fullBuckets] that take n keys.
	lo, hi := nb, uint64(fullBuckets) // n fits hi buckets (n < 0.95*4*512 here)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if float64(n) <= min(load, smallLoad(m))*float64(m*bucketSize) {
			hi = m
		} else {
			lo = m
		}
	}
	return hi, true
}

// sizing returns the blocked.Sizing of n keys in nb buckets of fpBits-bit fingerprints.
func sizing(n, nb uint64, fpBits int, l Layout) blocked.Sizing {
	s := blocked.Sizing{Keys: n, Blocks: nb, FingerprintBits: fpBits, Load: float64(n) / float64(nb*bucketSize)}
	s.Bits = nb * bucketBits(fpBits, l)
	s.Bytes = (s.Bits + 7) / 8
	s.FPR = fprAt(fpBits, s.Load)
	if n > 0 {
		s.BitsPerKey = float64(s.Bits) / float64(n)
	}
	return s
}

// Size returns the smallest semi-sorted table that holds n keys at a load
// of at most 0.95 with an expected FPR at most fpr: SizeLayout(n, fpr,
// SemiSorted). New(n, fpr) makes this filter.
func Size(n uint64, fpr float64) (blocked.Sizing, error) { return SizeLayout(n, fpr, SemiSorted) }

// SizeLayout returns the smallest table of layout l that holds n keys at a
// load of at most 0.95 with an expected FPR at most fpr: for each
// fingerprint width from minFingerprintBits to maxFingerprintBits the load
// is capped so that FPR at load <= fpr, the buckets are the fewest
// that hold n keys at that load (any number), and the fewest bits win (the
// longer fingerprint on a tie). Tables under 512 buckets (about 1900 keys)
// are planned for a lower load, since they fill less reliably. A width that
// would need a load under one half is not considered; if none qualifies
// (fpr below about 9.3e-10) SizeLayout returns bloom.ErrFPR. It returns bloom.ErrKeys
// for n = 0, bloom.ErrFPR for fpr outside (0, 1), bloom.ErrGeometry for an unknown
// layout and bloom.ErrTooLarge for more than maxBuckets buckets. NewBuckets(s.Blocks,
// s.FingerprintBits, l) makes this filter.
func SizeLayout(n uint64, fpr float64, l Layout) (blocked.Sizing, error) {
	if n == 0 {
		return blocked.Sizing{}, errs.ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return blocked.Sizing{}, fmt.Errorf("%w: got %v", errs.ErrFPR, fpr)
	}
	if l != SemiSorted && l != Plain {
		return blocked.Sizing{}, fmt.Errorf("%w: unknown layout %d", errs.ErrGeometry, l)
	}
	var best blocked.Sizing
	var tooLarge error
	for f := minFingerprintBits; f <= maxFingerprintBits; f++ {
		load := min(plannedLoad(f), maxLoadFor(f, fpr))
		if load < minLoad {
			continue
		}
		nb, ok := bucketsFor(n, load)
		if !ok {
			tooLarge = fmt.Errorf("%w: %s need more than %d buckets", errs.ErrTooLarge, errs.Count(n, "key"), maxBuckets)
			continue
		}
		s := sizing(n, nb, f, l)
		if best.Blocks == 0 || s.Bits <= best.Bits {
			best = s
		}
	}
	if best.Blocks == 0 {
		if tooLarge != nil {
			return blocked.Sizing{}, tooLarge
		}
		return blocked.Sizing{}, errs.Worded(errs.ErrFPR, "false-positive rate %v is below %.2g, the lowest a cuckoo filter reaches (%d-bit fingerprints at load %v); use a Bloom filter",
			fpr, fprAt(maxFingerprintBits, minLoad), maxFingerprintBits, minLoad)
	}
	return best, nil
}
