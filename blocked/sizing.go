package blocked

import (
	"errors"
	"fmt"
	"math"
)

// BlockBits is the number of bits in one Filter block (one 64-byte cache line).
const BlockBits = 512

// MaxBlocks is the largest number of blocks a Filter may have: block choice
// maps the upper 32 bits of a hash onto the blocks, so at most 2^32 (256 GiB).
const MaxBlocks = 1 << 32

// maxBlocks returns the most blocks of blockBytes bytes a filter may have on
// this platform: limit (what block choice can address), or fewer where an
// int cannot count the bytes (32-bit platforms).
func maxBlocks(limit, blockBytes uint64) uint64 { return min(limit, (math.MaxInt-64)/blockBytes) }

// Errors returned for bad sizing input. They are wrapped with the offending
// value; test for them with errors.Is.
var (
	ErrKeys     = errors.New("blocked: number of keys must be positive")
	ErrFPR      = errors.New("blocked: false-positive rate must be in (0, 1)")
	ErrK        = errors.New("blocked: k must be 8 or 16")
	ErrSize     = errors.New("blocked: size must be positive")
	ErrTooLarge = errors.New("blocked: filter would be too large")
	ErrGeometry = errors.New("blocked: filters differ in geometry")
)

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
// k bits per key (8 or 16) and n keys, under well-mixed hashes: a Poisson
// mixture over the number of keys per block.
func FPR(n, nblocks uint64, k int) float64 {
	if nblocks == 0 {
		return 1
	}
	lambda := float64(n) / float64(nblocks)
	if k == 16 {
		return poissonMixture(lambda, func(i int) float64 { return math.Pow(wordFPR16(i), 8) })
	}
	return poissonMixture(lambda, func(i int) float64 { return math.Pow(wordFPR8(i), 8) })
}

// checkNFPR validates the (n, fpr) pair given to constructors.
func checkNFPR(n uint64, fpr float64) error {
	if n == 0 {
		return ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return fmt.Errorf("%w: got %v", ErrFPR, fpr)
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
		return 0, fmt.Errorf("%w: %d keys at fpr %v need more than %d blocks", ErrTooLarge, n, fpr, max)
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

// Sizing is a filter geometry chosen for a number of keys and a target FPR.
type Sizing struct {
	Blocks uint64  // number of blocks
	K      int     // bits per key
	Bytes  uint64  // size of the bit array
	FPR    float64 // exact expected false-positive rate at the planned keys
}

// BitsPerKey returns the size in bits divided by the number of keys n.
func (s Sizing) BitsPerKey(n uint64) float64 { return float64(s.Bytes*8) / float64(n) }

// SizeFilter returns the smallest Filter geometry whose exact FPR for n keys
// is at most fpr, choosing k = 8 or k = 16, whichever needs fewer blocks
// (k = 8 on a tie: it is faster to probe).
func SizeFilter(n uint64, fpr float64) (Sizing, error) {
	var best Sizing
	var firstErr error
	for _, k := range []int{8, 16} {
		b, err := blocksFor(n, fpr, maxBlocks(MaxBlocks, 64), func(n, nb uint64) float64 { return FPR(n, nb, k) })
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if best.Blocks == 0 || b < best.Blocks {
			best = Sizing{Blocks: b, K: k, Bytes: b * 64, FPR: FPR(n, b, k)}
		}
	}
	if best.Blocks == 0 {
		return Sizing{}, firstErr
	}
	return best, nil
}

// SizeFilterK is SizeFilter with k fixed (8 or 16).
func SizeFilterK(n uint64, fpr float64, k int) (Sizing, error) {
	if k != 8 && k != 16 {
		return Sizing{}, fmt.Errorf("%w: got %d", ErrK, k)
	}
	b, err := blocksFor(n, fpr, maxBlocks(MaxBlocks, 64), func(n, nb uint64) float64 { return FPR(n, nb, k) })
	if err != nil {
		return Sizing{}, err
	}
	return Sizing{Blocks: b, K: k, Bytes: b * 64, FPR: FPR(n, b, k)}, nil
}

// SizeSplitBlock returns the smallest SplitBlock geometry (any number of
// 32-byte blocks) whose exact FPR for n keys is at most fpr. For Parquet
// files, use parquet.NewFilter, which rounds to the power-of-two sizes that
// Parquet readers accept.
func SizeSplitBlock(n uint64, fpr float64) (Sizing, error) {
	b, err := blocksFor(n, fpr, maxBlocks(MaxSplitBlocks, 32), SplitBlockFPR)
	if err != nil {
		return Sizing{}, err
	}
	return Sizing{Blocks: b, K: 8, Bytes: b * 32, FPR: SplitBlockFPR(n, b)}, nil
}
