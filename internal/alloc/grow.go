package alloc

import (
	"fmt"
	"math"

	"github.com/simdbloom/bloom/internal/memlimit"
)

// Grow returns b with room for n more bytes, as slices.Grow does, or b and
// an error wrapping bloom.ErrTooLarge (memlimit.Check's) when the new array
// would be more than this process can allocate; what names the n bytes for
// the message ("the Filter encoding's 655360 blocks"). Every encoder that
// allocates a whole encoding (MarshalBinary, AppendBinary, AppendFilter)
// grows its buffer here, so that an encoding too large for memory is an
// error, as a filter too large is for New, and not a fatal "out of memory"
// that recover cannot catch.
//
// With room at hand it allocates nothing and checks nothing. Otherwise the
// new array holds len(b)+n bytes, or a quarter more than cap(b) when that
// is more and may be allocated, so that encodings appended one after
// another copy each byte a bounded number of times, as append does.
func Grow(b []byte, n uint64, what func() string) ([]byte, error) {
	if n <= uint64(cap(b)-len(b)) {
		return b, nil
	}
	need := uint64(len(b)) + min(n, math.MaxUint64-uint64(len(b)))
	c := max(need, uint64(cap(b))+uint64(cap(b))/4)
	if c > need && memlimit.Check(c, func() string { return "" }) != nil {
		c = need
	}
	if err := memlimit.Check(c, func() string {
		if len(b) == 0 {
			return what()
		}
		return fmt.Sprintf("%s after %d bytes", what(), len(b))
	}); err != nil {
		return b, err
	}
	g := make([]byte, len(b), c) // c <= memlimit's limit <= math.MaxInt, or c < MinChecked
	copy(g, b)
	return g, nil
}
