package blocked

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/memlimit"

	"github.com/simdbloom/bloom/internal/errs"
)

// TestTooLargeForMemory: under a limit on one allocation (set here to
// 24 MiB), every constructor and every decoder that copies refuses a larger
// filter with bloom.ErrTooLarge and a message that says what was asked and the
// limit; smaller filters and the views (which copy nothing) are unaffected.
func TestTooLargeForMemory(t *testing.T) {
	big := mustBytes(t, 40<<20, 8)
	big.AddHashes(randomHashes(1000, 3))
	enc, err := big.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	defer memlimit.SetForTest(memlimit.Limit{Bytes: 24 << 20, Why: "the test's limit"})()

	tooLarge := func(what string, err error, says ...string) {
		t.Helper()
		if !errors.Is(err, errs.ErrTooLarge) {
			t.Errorf("%s: %v, want errs.ErrTooLarge", what, err)
			return
		}
		for _, s := range append(says, "the test's limit (25.2 MB)") {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", what, err, s)
			}
		}
	}
	_, err = New(100_000_000, 0.01)
	tooLarge("New(1e8, 0.01)", err, "100000000 keys at fpr 0.01 need 1")
	_, err = NewCounting(10_000_000, 0.01)
	tooLarge("NewCounting(1e7, 0.01)", err, "10000000 keys at fpr 0.01")
	_, err = NewSplitBlock(100_000_000, 0.01)
	tooLarge("NewSplitBlock(1e8, 0.01)", err, "100000000 keys at fpr 0.01")
	_, err = NewBytes(32<<20, 16)
	tooLarge("NewBytes(32 MiB)", err, "524288 blocks of 64 bytes")
	_, err = NewCountingBytes(32 << 20)
	tooLarge("NewCountingBytes(32 MiB)", err)
	_, err = NewSplitBlockBytes(32 << 20)
	tooLarge("NewSplitBlockBytes(32 MiB)", err, "1048576 blocks of 32 bytes")

	var f Filter
	tooLarge("UnmarshalBinary", f.UnmarshalBinary(enc), "the Filter encoding's 655360 blocks need 41.9 MB")
	_, err = f.ReadFrom(bytes.NewReader(enc))
	tooLarge("ReadFrom (whole input at hand)", err)
	_, err = f.ReadFrom(noLenReader{bytes.NewReader(enc)})
	tooLarge("ReadFrom (a stream)", err)
	if littleEndian {
		v, err := newView(alignedCopy(enc, 0))
		if err != nil || v.numBlocks() != big.NumBlocks() {
			t.Errorf("View over an encoding larger than the limit: %v", err)
		}
	}
	for _, err := range []error{
		func() error { _, err := New(1_000_000, 0.01); return err }(),
		func() error { _, err := NewBytes(20<<20, 8); return err }(),
	} {
		if err != nil {
			t.Errorf("a filter under the limit: %v", err)
		}
	}
}

// TestNewBeyondMemory: blocked.New(1e11, 0.5), under the format's limit
// but (on most machines) beyond memory, is bloom.ErrTooLarge, not a fatal
// "runtime: out of memory"; so is a 4 GiB filter under an address-space
// limit (ulimit -v) of 2 GiB more than is mapped (1 GiB and 512 MiB in a
// 32-bit process). In a child process, so
// that a fatal fault fails the test instead of ending the run.
func TestNewBeyondMemory(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		s, err := Size(1e11, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		if l := memlimit.Current(); s.Bytes+64 > l.Bytes {
			_, err := New(1e11, 0.5)
			why := l.Why
			if s.Bytes+64 > math.MaxInt {
				why = "more than this platform can allocate" // checkAlloc's own words for what an int cannot count
			}
			if !errors.Is(err, errs.ErrTooLarge) || !strings.Contains(err.Error(), why) {
				t.Errorf("New(1e11, 0.5), %d bytes over a limit of %d: %v, want errs.ErrTooLarge", s.Bytes, l.Bytes, err)
			}
			t.Log(err)
		} else {
			t.Logf("New(1e11, 0.5) needs %d bytes, which fit this machine (%s): not tried", s.Bytes, l.Why)
		}
		free, big := uint64(2<<30), uint64(4<<30)
		if ^uint(0)>>32 == 0 { // a 32-bit int counts 2 GiB
			free, big = 512<<20, 1<<30
		}
		if !setAddressSpace(t, free) {
			return
		}
		_, err = NewBytes(big, 8)
		if !errors.Is(err, errs.ErrTooLarge) || !strings.Contains(err.Error(), "ulimit -v") {
			t.Errorf("NewBytes(%d) under ulimit -v at %d bytes more than mapped: %v, want errs.ErrTooLarge", big, free, err)
		}
		t.Log(err)
		if _, err := NewBytes(64<<20, 8); err != nil {
			t.Errorf("NewBytes(64 MiB) under ulimit -v: %v", err)
		}
	})
}
