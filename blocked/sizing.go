package blocked

import (
	"fmt"
	"math"

	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
	"github.com/simdbloom/bloom/internal/memlimit"
)

// blockBits is the number of bits in one Filter block (one 64-byte cache line).
const blockBits = 512

// MaxBlocks is the largest number of blocks a Filter or Counting filter may
// have: block choice maps the upper 32 bits of a hash onto the blocks, so at
// most 2^32 (256 GiB). The sizing functions and the format use this limit;
// the constructors also refuse, with bloom.ErrTooLarge, what this platform cannot
// allocate: more than an int counts (on 32-bit platforms, about 2 GiB), more
// than the Go memory limit (GOMEMLIMIT, debug.SetMemoryLimit), and on Linux
// more than the machine's memory and swap, the address-space and data limits
// (ulimit -v, -d) or the cgroup's memory limit allow.
const MaxBlocks uint64 = format.MaxBlocks

// maxBlocks returns the most blocks of blockBytes bytes a filter may have on
// this platform: limit (what block choice can address), or fewer where an
// int cannot count the bytes (32-bit platforms). Only constructors and
// decoders apply it; sizing is arithmetic and uses limit alone.
func maxBlocks(limit, blockBytes uint64) uint64 { return min(limit, (math.MaxInt-64)/blockBytes) }

// checkAlloc returns bloom.ErrTooLarge if nblocks blocks of blockBytes bytes are
// more than this platform can allocate: more than an int counts, or more
// than the machine's memory or the process's limits allow (see
// internal/memlimit). what names the request for the message ("100 keys at
// fpr 0.01"); nil says it in blocks.
func checkAlloc(nblocks, blockBytes uint64, what func() string) error {
	if nblocks > maxBlocks(math.MaxUint64, blockBytes) {
		return fmt.Errorf("%w: %d blocks of %d bytes, more than this platform can allocate", errs.ErrTooLarge, nblocks, blockBytes)
	}
	if what == nil {
		what = func() string { return fmt.Sprintf("%s of %d bytes", errs.Count(nblocks, "block"), blockBytes) }
	}
	return memlimit.Check(alloc.Footprint(nblocks*blockBytes), what)
}

// keysAt names a request for n keys at rate fpr, for checkAlloc.
func keysAt(n uint64, fpr float64) func() string {
	return func() string { return fmt.Sprintf("%s at fpr %v", errs.Count(n, "key"), fpr) }
}

// blocksOfBytes returns numBytes rounded up to whole blocks of blockBytes
// bytes: bloom.ErrGeometry for 0 bytes, bloom.ErrTooLarge for more than limit blocks or
// more than this platform can allocate.
func blocksOfBytes(numBytes, blockBytes, limit uint64) (uint64, error) {
	if numBytes == 0 {
		return 0, fmt.Errorf("%w: size 0 bytes", errs.ErrGeometry)
	}
	nb := numBytes/blockBytes + min(numBytes%blockBytes, 1)
	if nb > limit {
		return 0, fmt.Errorf("%w: %d bytes is more than %d blocks of %d bytes", errs.ErrTooLarge, numBytes, limit, blockBytes)
	}
	if err := checkAlloc(nb, blockBytes, nil); err != nil {
		return 0, err
	}
	return nb, nil
}

// poissonMixture returns sum_i Poisson(i; lambda) * g(i), summing the terms
// that carry the probability mass (until the tail is below 1e-18 of the mass).
func poissonMixture(lambda float64, g func(i int) float64) float64 {
	if lambda <= 0 {
		return g(0)
	}
	if lambda > 1e6 {
		// Millions of keys per block: the mixture is g at the mean to within
		// 0.1% (and the answer is a filter that is all ones). Summing the
		// ~10*sqrt(lambda) terms would make bad sizes slow to reject.
		return g(int(min(lambda, 1e6))) // and int(lambda) could overflow
	}
	// Start at the mode and walk both ways; terms are computed in log space so
	// that large lambdas (tiny filters with many keys) do not underflow.
	mode := int(lambda)
	logp := func(i int) float64 {
		lg, _ := math.Lgamma(float64(i) + 1)
		return float64(i)*math.Log(lambda) - lambda - lg
	}
	sum := 0.0
	for i := mode; ; i++ {
		p := math.Exp(logp(i))
		sum += p * g(i)
		if p < 1e-18 && i > mode+10 {
			break
		}
	}
	for i := mode - 1; i >= 0; i-- {
		p := math.Exp(logp(i))
		sum += p * g(i)
		if p < 1e-18 {
			break
		}
	}
	return sum
}

// wordFPR8 is the probability that one query bit is set in a 64-bit word
// that received i keys with one bit each.
func wordFPR8(i int) float64 { return 1 - math.Pow(63.0/64.0, float64(i)) }

// wordFPR16 is the probability that two independent query bits are both set
// in a 64-bit word that received i keys with two independent bits each
// (the two may coincide, with probability 1/64).
func wordFPR16(i int) float64 {
	u1 := math.Pow(63.0/64.0, float64(2*i))
	u2 := math.Pow(62.0/64.0, float64(2*i))
	return (1-u1)/64 + 63.0/64.0*(1-2*u1+u2)
}

// FPR returns the exact false-positive rate of a Filter with nblocks blocks,
// k bits per key and n keys, under well-mixed hashes: a Poisson mixture over
// the number of keys per block. A filter of 0 blocks answers yes to
// everything (1). FPR returns NaN for k other than 8 or 16, the only k a
// Filter has.
func FPR(n, nblocks uint64, k int) float64 {
	var word func(int) float64
	switch k {
	case 8:
		word = wordFPR8
	case 16:
		word = wordFPR16
	default:
		return math.NaN()
	}
	if nblocks == 0 {
		return 1
	}
	lambda := float64(n) / float64(nblocks)
	return poissonMixture(lambda, func(i int) float64 { return math.Pow(word(i), 8) })
}

// Fill returns the expected fraction of set bits of a Filter with nblocks
// blocks and k bits per key holding n distinct keys, under the well-mixed
// hashes FPR assumes: a key picks one of the nblocks blocks and sets k/8
// bits in each of its 64-bit words, so a given bit is still clear with
// probability (1 - (1 - (63/64)^(k/8))/nblocks)^n. It is what FillRatio
// reads on average. At the keys New sized a filter for it depends on the
// rate: about 0.92 at fpr 0.5, 0.55 at 0.01 and 0.08 at 1e-12. Fill returns
// NaN for k other than 8 or 16 or for 0 blocks.
func Fill(n, nblocks uint64, k int) float64 {
	if (k != 8 && k != 16) || nblocks == 0 {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	q := -math.Expm1(float64(k/8) * math.Log1p(-1.0/64)) // a bit set by one key of its block
	return -math.Expm1(float64(n) * math.Log1p(-q/float64(nblocks)))
}

// checkNFPR validates the (n, fpr) pair given to constructors.
func checkNFPR(n uint64, fpr float64) error {
	if n == 0 {
		return errs.ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return fmt.Errorf("%w: got %v", errs.ErrFPR, fpr)
	}
	return nil
}

// blocksFor returns the fewest blocks with at most fpr for n keys, given a
// per-block FPR function of (n, nblocks), or an error if more than max
// blocks would be needed.
func blocksFor(n uint64, fpr float64, max uint64, f func(n, nblocks uint64) float64) (uint64, error) {
	if err := checkNFPR(n, fpr); err != nil {
		return 0, err
	}
	if !(f(n, max) <= fpr) { // also refuses a NaN
		return 0, fmt.Errorf("%w: %s at fpr %v need more than %d blocks", errs.ErrTooLarge, errs.Count(n, "key"), fpr, max)
	}
	lo, hi := uint64(0), max // f(lo) > fpr (or lo = 0), f(hi) <= fpr
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if f(n, mid) <= fpr {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

// Sizing is the size of a filter chosen for a number of keys and a target
// false-positive rate, as Size, SizeSplitBlock and
// SizeCounting return it (and cuckoo.Size and sbparquet.Size, whose Sizing is
// this type). Every field is set by the function that returns it;
// fields that do not apply to a kind of filter are zero.
type Sizing struct {
	Keys       uint64  // keys planned for
	FPR        float64 // expected false-positive rate at Keys keys, by the filter's exact formula
	Bits       uint64  // size of the bit (or counter, or fingerprint) array in bits
	Bytes      uint64  // size in bytes: Bits/8 rounded up
	BitsPerKey float64 // Bits / Keys (0 if Keys is 0)

	// Blocks is the number of blocks: 64-byte blocks for Filter and
	// Counting, 32-byte blocks for SplitBlock, buckets of 4 fingerprints
	// for a cuckoo filter; 0 for a classic Bloom filter.
	Blocks uint64
	// K is the number of bits (Counting: counters) set per key: 8 or 16
	// for Filter, 8 for SplitBlock and Counting, the optimal integer k for
	// a classic Bloom filter; 0 for a cuckoo filter.
	K int

	FingerprintBits int     // cuckoo filter: bits per fingerprint (4 to 32, chosen for the rate); else 0
	Load            float64 // cuckoo filter: fraction of slots in use at Keys keys; else 0
}

// blockSizing returns the Sizing of n keys in nblocks blocks of blockBytes
// bytes with k bits per key and false-positive rate fpr.
func blockSizing(n, nblocks, blockBytes uint64, k int, fpr float64) Sizing {
	s := Sizing{Keys: n, FPR: fpr, Bits: nblocks * blockBytes * 8, Bytes: nblocks * blockBytes, Blocks: nblocks, K: k}
	if n > 0 {
		s.BitsPerKey = float64(s.Bits) / float64(n)
	}
	return s
}

// Size returns the Filter geometry for n keys at a false-positive rate of at
// most fpr (exact FPR), choosing k = 8 or k = 16, whichever needs fewer
// blocks (k = 8 on a tie: it is faster to probe). New(n, fpr) makes this
// filter. Its block count is the fewest that reach fpr rounded up to a
// multiple of the largest power of two 2^t that adds less than 1% (2^t - 1
// < blocks/100), so that the filter folds t times (Filter.Fold): 7 times
// from about 12,700 blocks (800 KiB), 13 from 820,000 (50 MiB).
// It returns bloom.ErrKeys for n = 0, bloom.ErrFPR for fpr outside (0, 1), and
// bloom.ErrTooLarge if more than MaxBlocks blocks would be needed. It is only
// arithmetic: it answers sizes this platform cannot allocate.
func Size(n uint64, fpr float64) (Sizing, error) {
	var best Sizing
	var firstErr error
	for _, k := range []int{8, 16} {
		s, err := sizeK(n, fpr, k)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if best.Blocks == 0 || s.Blocks < best.Blocks {
			best = s
		}
	}
	if best.Blocks == 0 {
		return Sizing{}, firstErr
	}
	return best, nil
}

// sizeK is Size with k fixed; k other than 8 or 16 is bloom.ErrGeometry.
func sizeK(n uint64, fpr float64, k int) (Sizing, error) {
	if k != 8 && k != 16 {
		return Sizing{}, fmt.Errorf("%w: k must be 8 or 16, got %d", errs.ErrGeometry, k)
	}
	b, err := blocksFor(n, fpr, MaxBlocks, func(n, nb uint64) float64 { return FPR(n, nb, k) })
	if err != nil {
		return Sizing{}, err
	}
	b = foldable(b)
	return blockSizing(n, b, 64, k, FPR(n, b, k)), nil
}

// foldable returns b rounded up to a multiple of 2^t for the largest t with
// 2^t - 1 < b/100: at most 1% more blocks (and none below 200 blocks), and a
// count that 2^t divides, so that the filter can fold t times. Rounding
// stays within MaxBlocks, a power of two.
func foldable(b uint64) uint64 {
	t := 0
	for 100*(uint64(1)<<(t+1)-1) < b {
		t++
	}
	m := uint64(1)<<t - 1
	return (b + m) &^ m
}

// SizeSplitBlock returns the smallest SplitBlock geometry (any number of
// 32-byte blocks, up to 2^32) whose exact FPR for n keys is at most
// fpr; NewSplitBlock(n, fpr) makes this filter. Errors are as for
// Size. For Parquet files, use sbparquet.Size and sbparquet.New,
// which round to the power-of-two sizes that Parquet readers accept.
func SizeSplitBlock(n uint64, fpr float64) (Sizing, error) {
	b, err := blocksFor(n, fpr, maxSplitBlocks, SplitBlockFPR)
	if err != nil {
		return Sizing{}, err
	}
	return blockSizing(n, b, splitBlockBytes, 8, SplitBlockFPR(n, b)), nil
}

// SizeCounting returns the smallest Counting geometry whose exact FPR for n
// keys (CountingFPR) is at most fpr; NewCounting(n, fpr) makes this filter.
// Errors are as for Size.
func SizeCounting(n uint64, fpr float64) (Sizing, error) {
	b, err := blocksFor(n, fpr, MaxBlocks, CountingFPR)
	if err != nil {
		return Sizing{}, err
	}
	return blockSizing(n, b, 64, 8, CountingFPR(n, b)), nil
}

// sizeBytes returns the size of a filter in bytes (NumBits over 8).
func (f *Filter) sizeBytes() uint64     { return f.NumBits() / 8 }
func (s *SplitBlock) sizeBytes() uint64 { return s.NumBits() / 8 }
func (c *Counting) sizeBytes() uint64   { return c.NumBits() / 8 }
