package parquet

import (
	"fmt"
	"math"

	"github.com/simdbloom/bloom/blocked"
)

// MinFilterBytes and MaxFilterBytes bound the bitset sizes this package
// writes: powers of two from one 32-byte block to 128 MiB. Arrow C++, Velox
// and ClickHouse reject other sizes, and parquet-mr caps filters at 128 MiB.
const (
	MinFilterBytes = 32
	MaxFilterBytes = 128 << 20
)

// NewFilter returns an empty split block filter for ndv distinct values whose
// exact false-positive rate (blocked.SplitBlockFPR, a Poisson mixture over
// block loads) is at most fpr: the smallest power-of-two size from 32 bytes
// to 128 MiB that meets it. The common formula -8/ln(1-p^(1/8)) bits per
// value is not used: it under-sizes (1% asked gives about 1.46%). The filter
// records blocked.HashXXH64 as its key hash (KeyHash), so its encodings say
// that its keys are hashed with this package's Hash functions.
//
// ndv = 0 (for example an all-null column chunk) gives the smallest filter,
// 32 bytes. If even 128 MiB cannot meet fpr for ndv values, NewFilter returns
// an error wrapping blocked.ErrTooLarge and no filter, rather than a filter
// that silently misses its rate; a caller that prefers a capped filter (as
// some Parquet writers do) can use blocked.NewSplitBlockBytes(MaxFilterBytes)
// and check EstimatedFPR.
func NewFilter(ndv uint64, fpr float64) (*blocked.SplitBlock, error) {
	n, err := FilterBytes(ndv, fpr)
	if err != nil {
		return nil, err
	}
	s, err := blocked.NewSplitBlockBytes(n)
	if err != nil {
		return nil, err
	}
	s.SetKeyHash(blocked.HashXXH64) // its keys are hashed as Parquet does (this package's Hash functions)
	return s, nil
}

// FilterBytes returns the bitset size NewFilter(ndv, fpr) would use.
func FilterBytes(ndv uint64, fpr float64) (int, error) {
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return 0, fmt.Errorf("%w: got %v", blocked.ErrFPR, fpr)
	}
	for n := MinFilterBytes; n <= MaxFilterBytes; n *= 2 {
		if blocked.SplitBlockFPR(ndv, uint64(n/32)) <= fpr {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%w: %d distinct values at fpr %v need more than the Parquet maximum of %d bytes (which gives fpr %.3g)",
		blocked.ErrTooLarge, ndv, fpr, MaxFilterBytes, blocked.SplitBlockFPR(ndv, MaxFilterBytes/32))
}
