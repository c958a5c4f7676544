package bloom

import (
	"errors"
	"math"
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

// TestConstructorsRefuseWhat32BitCannotHold: on a 32-bit platform the
// constructors refuse a filter of more than 2 GiB with ErrTooLarge, though
// its size is arithmetic every platform answers (internal/sizing's
// TestSizeIsArithmetic). This runs under GOARCH=386.
func TestConstructorsRefuseWhat32BitCannotHold(t *testing.T) {
	const n = 3_000_000_000 // 3.6 to 3.9 GB at 1%
	if math.MaxInt != math.MaxInt32 {
		t.Skip("allocating 4 GiB to see it work is not a unit test")
	}
	if _, err := New[uint64](n, 0.01); !errors.Is(err, ErrTooLarge) {
		t.Errorf("New(3e9, 1%%) on 32-bit: %v, want ErrTooLarge", err)
	}
	if _, err := NewCounting[uint64](n/4, 0.01); !errors.Is(err, ErrTooLarge) {
		t.Errorf("NewCounting(7.5e8, 1%%) on 32-bit: %v, want ErrTooLarge", err)
	}
	if _, err := NewCuckoo[uint64](n, 0.01); !errors.Is(err, ErrTooLarge) {
		t.Errorf("NewCuckoo(3e9, 1%%) on 32-bit: %v, want ErrTooLarge", err)
	}
	if _, err := blocked.NewSplitBlock(n, 0.01); !errors.Is(err, ErrTooLarge) {
		t.Errorf("blocked.NewSplitBlock(3e9, 1%%) on 32-bit: %v, want ErrTooLarge", err)
	}
	for _, b := range []uint64{3 << 30, 1 << 32} {
		if _, err := blocked.NewBytes(b, 8); !errors.Is(err, ErrTooLarge) {
			t.Errorf("blocked.NewBytes(%d) on 32-bit: %v, want ErrTooLarge", b, err)
		}
		if _, err := blocked.NewSplitBlockBytes(b); !errors.Is(err, ErrTooLarge) {
			t.Errorf("blocked.NewSplitBlockBytes(%d) on 32-bit: %v, want ErrTooLarge", b, err)
		}
		if _, err := blocked.NewCountingBytes(b); !errors.Is(err, ErrTooLarge) {
			t.Errorf("blocked.NewCountingBytes(%d) on 32-bit: %v, want ErrTooLarge", b, err)
		}
	}
}
