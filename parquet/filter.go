package sbparquet

import (
	"fmt"
	"math"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"
)

// MinFilterBytes and MaxFilterBytes bound the bitset sizes this package
// writes: powers of two from one 32-byte block to 128 MiB. Arrow C++, Velox
// and ClickHouse reject other sizes, and parquet-mr caps filters at 128 MiB.
const (
	MinFilterBytes = 32
	MaxFilterBytes = 128 << 20
)

// blockBytes is the size of one split block, 256 bits.
const blockBytes = 32

// New returns an empty split block filter for ndv distinct values whose
// exact false-positive rate (blocked.SplitBlockFPR, a Poisson mixture over
// block loads) is at most fpr: the smallest power-of-two size from 32 bytes
// to 128 MiB that meets it. The common formula -8/ln(1-p^(1/8)) bits per
// value is not used: it under-sizes (1% asked gives about 1.46%). The filter
// records blocked.HashXXH64 as its key hash (KeyHash), so its encodings say
// that its keys are hashed with this package's Hash functions.
//
// ndv = 0 is bloom.ErrKeys, as for every constructor of this module: a column
// chunk with no distinct values (all nulls) needs no filter. If even 128 MiB cannot meet fpr for ndv values, New returns
// an error wrapping bloom.ErrTooLarge and no filter, rather than a filter that
// silently misses its rate; a caller that prefers a capped filter (as some
// Parquet writers do) can use blocked.NewSplitBlockBytes(MaxFilterBytes) and
// check EstimatedFPR. fpr outside (0, 1) is bloom.ErrFPR.
//
// It is the filter Size(ndv, fpr) describes.
func New(ndv uint64, fpr float64) (*blocked.SplitBlock, error) {
	sz, err := Size(ndv, fpr)
	if err != nil {
		return nil, err
	}
	s, err := blocked.NewSplitBlockBytes(sz.Bytes)
	if err != nil {
		return nil, err
	}
	s.SetKeyHash(blocked.HashXXH64) // its keys are hashed as Parquet does (this package's Hash functions)
	return s, nil
}

// Size returns the size New(ndv, fpr) makes, with its exact
// false-positive rate, or New's error.
func Size(ndv uint64, fpr float64) (blocked.Sizing, error) {
	if ndv == 0 {
		return blocked.Sizing{}, fmt.Errorf("%w: 0 distinct values (a column chunk without values needs no filter)", errs.ErrKeys)
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return blocked.Sizing{}, fmt.Errorf("%w: got %v", errs.ErrFPR, fpr)
	}
	for n := uint64(MinFilterBytes); n <= MaxFilterBytes; n *= 2 {
		nb := n / blockBytes
		if p := blocked.SplitBlockFPR(ndv, nb); p <= fpr {
			return blocked.Sizing{Keys: ndv, FPR: p, Bits: 8 * n, Bytes: n, Blocks: nb, K: 8,
				BitsPerKey: float64(8*n) / float64(ndv)}, nil
		}
	}
	return blocked.Sizing{}, fmt.Errorf("%w: %d distinct values at fpr %v need more than the Parquet maximum of %d bytes (which gives fpr %.3g)",
		errs.ErrTooLarge, ndv, fpr, MaxFilterBytes, blocked.SplitBlockFPR(ndv, MaxFilterBytes/blockBytes))
}
