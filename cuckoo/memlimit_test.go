package cuckoo

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

// TestSizeBeyondMemory: NewBuckets(1<<32, 32, Plain), 64 GiB and within
// the format's limit, is bloom.ErrTooLarge on a machine with less memory, not a
// fatal "runtime: out of memory" (in a child process, so that a fault fails
// the test alone). Under a limit set by the test, New, NewBuckets and the
// decoders refuse what is larger and make what is smaller.
func TestSizeBeyondMemory(t *testing.T) {
	t.Run("machine", func(t *testing.T) {
		childtest.Run(t, func(t *testing.T) {
			need := tableBytes(1<<32, 32, Plain) + 8
			l := memlimit.Current()
			if need <= l.Bytes {
				t.Skipf("%d bytes fit this machine (%s)", need, l.Why)
			}
			_, err := NewBuckets(1<<32, 32, Plain)
			want := "4294967296 buckets of 32-bit fingerprints need 68.7 GB"
			if need > math.MaxInt {
				want = "4294967296 buckets of 32-bit fingerprints is more than this platform can allocate" // what an int cannot count
			}
			if !errors.Is(err, errs.ErrTooLarge) || !strings.Contains(err.Error(), want) {
				t.Fatalf("NewBuckets(1<<32, 32, Plain): %v, want errs.ErrTooLarge", err)
			}
		})
	})
	t.Run("limit", func(t *testing.T) {
		big := mustBuckets(t, 3<<20, 12, SemiSorted) // 3 Mi buckets of 44 bits: 16.5 MiB
		enc, err := big.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		defer memlimit.SetForTest(memlimit.Limit{Bytes: 16 << 20, Why: "the test's limit"})()
		for what, err := range map[string]error{
			"New(1e8, 0.01)":        func() error { _, err := New(100_000_000, 0.01); return err }(),
			"NewBuckets(1<<22, 16)": func() error { _, err := NewBuckets(1<<22, 16, Plain); return err }(),
			"UnmarshalBinary":       (&Filter{}).UnmarshalBinary(enc),
			"ReadFrom":              func() error { _, err := new(Filter).ReadFrom(bytes.NewReader(enc)); return err }(),
		} {
			if !errors.Is(err, errs.ErrTooLarge) || !strings.Contains(err.Error(), "the test's limit") || strings.Contains(err.Error(), "block") {
				t.Errorf("%s: %v, want errs.ErrTooLarge naming the limit", what, err)
			}
		}
		if _, err := New(100_000, 0.01); err != nil {
			t.Errorf("New(1e5, 0.01) under the limit: %v", err)
		}
		// The encoders, which allocate the whole encoding, refuse it the
		// same way, and allocate nothing when the room is at hand.
		_, err = big.MarshalBinary()
		tooLarge(t, "MarshalBinary", err, "the Cuckoo encoding's 3145728 buckets need")
		b, err := big.AppendBinary([]byte{1, 2})
		tooLarge(t, "AppendBinary", err, "the Cuckoo encoding's 3145728 buckets after 2 bytes need")
		if len(b) != 2 {
			t.Errorf("AppendBinary refused: %d bytes, want dst unchanged", len(b))
		}
		if b, err := big.AppendBinary(make([]byte, 0, len(enc))); err != nil || !bytes.Equal(b, enc) {
			t.Errorf("AppendBinary into a buffer with room: %d bytes, %v", len(b), err)
		}
	})
	t.Run("address space", func(t *testing.T) {
		// Under an address-space limit (ulimit -v) of 128 MiB more than
		// is mapped, the encoders of a 256 MiB table are errs.ErrTooLarge,
		// not a fatal "out of memory"; a small table still encodes.
		childtest.Run(t, func(t *testing.T) {
			big := mustBuckets(t, 1<<24, 32, Plain) // 16 Mi buckets of 16 bytes: 256 MiB
			small := mustBuckets(t, 1<<10, 12, SemiSorted)
			if !childtest.LimitAddressSpace(t, 128<<20) {
				t.Skip("no address-space limit here")
			}
			_, err := big.MarshalBinary()
			tooLarge(t, "MarshalBinary", err, "ulimit -v")
			_, err = big.AppendBinary([]byte{1})
			tooLarge(t, "AppendBinary", err, "ulimit -v")
			if _, err := small.MarshalBinary(); err != nil {
				t.Errorf("MarshalBinary of a small table under ulimit -v: %v", err)
			}
		})
	})
}

// tooLarge fails t unless err wraps errs.ErrTooLarge and says says.
func tooLarge(t *testing.T, what string, err error, says string) {
	t.Helper()
	if !errors.Is(err, errs.ErrTooLarge) || !strings.Contains(err.Error(), says) {
		t.Errorf("%s: %v, want errs.ErrTooLarge saying %q", what, err, says)
	}
}
