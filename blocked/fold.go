package blocked

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/simdbloom/bloom/internal/errs"
)

// Folding. A hash's block is ((h>>32) * nblocks) >> 32, and
// floor(floor(2y)/2) = floor(y): the block of a hash in a filter of
// nblocks/2 blocks is its block in the filter of nblocks blocks, halved.
// The positions inside a block depend on the lower 32 bits alone. So block
// i of the half-size filter holding a set of keys is exactly the OR of
// blocks 2i and 2i+1 of the full-size one, and folding t times ORs each
// run of 2^t consecutive blocks into one: no key is lost, and the result
// equals, bit for bit, the filter built at the smaller size from the same
// keys. Only Filter folds; SplitBlock (whose Parquet sizes are powers of
// two) and Counting (whose counters would have to be summed) do not.

// Fold returns a new filter of NumBlocks()/2^times blocks holding every key
// of f, the filter New or NewBytes would have made at that size with the
// same keys added (bit for bit); f is unchanged. Its false-positive rate
// follows from its fill (EstimatedFPR). times must be at least 1 and 2^times
// must divide the number of blocks (else an error wrapping
// bloom.ErrGeometry that names the block count); sizes New chooses divide
// by a power of two that makes folding possible several times (see Size).
// A zero f is bloom.ErrGeometry.
func (f *Filter) Fold(times int) (*Filter, error) {
	if err := f.checkFold(times); err != nil {
		return nil, err
	}
	return f.fold(uint(times)), nil
}

// checkFold returns an error unless f can fold times times.
func (f *Filter) checkFold(times int) error {
	nb := uint64(len(f.blocks))
	switch {
	case nb == 0:
		return fmt.Errorf("%w: Fold of a zero Filter", errs.ErrGeometry)
	case times < 1:
		return fmt.Errorf("%w: Fold %d times: fold at least once", errs.ErrGeometry, times)
	case times >= 64 || nb>>uint(times) == 0:
		return fmt.Errorf("%w: cannot fold %s %d times: it would have no block left", errs.ErrGeometry, errs.Count(nb, "block"), times)
	case nb&(1<<uint(times)-1) != 0:
		return fmt.Errorf("%w: cannot fold %s %d times: %d is not divisible by 2^%d (it folds at most %d times)",
			errs.ErrGeometry, errs.Count(nb, "block"), times, nb, times, bits.TrailingZeros64(nb))
	}
	return nil
}

// fold returns f folded times times (checked).
func (f *Filter) fold(times uint) *Filter {
	g := newFilter(uint64(len(f.blocks))>>times, f.k)
	foldBlocks(g.blocks, f.blocks, times, false)
	g.hash, g.keys = f.hash, f.keys
	return g
}

// FoldTo returns f folded as many times as its EstimatedFPR stays at or
// under fpr and its block count stays divisible by two: the smallest
// filter, among f's foldings, holding f's keys at that rate (for instance
// before sending a filter sized for more keys than it received). f is
// unchanged; when not even one folding stays at or under fpr (or the block
// count is odd) it returns a copy of f. fpr outside (0, 1] is
// bloom.ErrFPR; a zero f is bloom.ErrGeometry.
func (f *Filter) FoldTo(fpr float64) (*Filter, error) {
	if len(f.blocks) == 0 {
		return nil, fmt.Errorf("%w: FoldTo of a zero Filter", errs.ErrGeometry)
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr > 1 {
		return nil, fmt.Errorf("%w: got %v", errs.ErrFPR, fpr)
	}
	cur := f
	for len(cur.blocks)%2 == 0 {
		next := cur.fold(1)
		if !(next.EstimatedFPR() <= fpr) {
			break
		}
		cur = next
	}
	if cur == f {
		return f.Clone(), nil
	}
	return cur, nil
}

// foldBlocks sets dst[i] (or ORs into it, with or) to the OR of src[i<<times]
// through src[(i+1)<<times - 1], for len(src) = len(dst) << times: one pass
// over src.
func foldBlocks(dst, src []block, times uint, or bool) {
	n := 1 << times
	for i := range dst {
		run := src[i*n : i*n+n]
		acc := run[0]
		for j := 1; j < len(run); j++ {
			b := &run[j]
			acc[0] |= b[0]
			acc[1] |= b[1]
			acc[2] |= b[2]
			acc[3] |= b[3]
			acc[4] |= b[4]
			acc[5] |= b[5]
			acc[6] |= b[6]
			acc[7] |= b[7]
		}
		if or {
			d := &dst[i]
			d[0] |= acc[0]
			d[1] |= acc[1]
			d[2] |= acc[2]
			d[3] |= acc[3]
			d[4] |= acc[4]
			d[5] |= acc[5]
			d[6] |= acc[6]
			d[7] |= acc[7]
		} else {
			dst[i] = acc
		}
	}
}

// spreadBlocks ORs src[j >> times] into dst[j], for len(dst) = len(src) <<
// times: every key of src is then found in dst, whose block j is one of
// the 2^times blocks that src's block j >> times was folded from.
func spreadBlocks(dst, src []block, times uint) {
	for j := range dst {
		s := &src[j>>times]
		d := &dst[j]
		d[0] |= s[0]
		d[1] |= s[1]
		d[2] |= s[2]
		d[3] |= s[3]
		d[4] |= s[4]
		d[5] |= s[5]
		d[6] |= s[6]
		d[7] |= s[7]
	}
}

// foldShift returns t if o has the block count of f times 2^t (t > 0: o
// folds onto f), -t if f has that of o times 2^t (o spreads over f), with
// the same k; else 0 (the same count, or no power of two between them, or
// another k).
func foldShift(f, o *Filter) int {
	nf, no := uint64(len(f.blocks)), uint64(len(o.blocks))
	if f.k != o.k || nf == 0 || no == 0 {
		return 0
	}
	sign, big, small := 1, no, nf
	if no < nf {
		sign, big, small = -1, nf, no
	}
	if big%small != 0 {
		return 0
	}
	r := big / small
	if r&(r-1) != 0 {
		return 0
	}
	return sign * bits.TrailingZeros64(r)
}
