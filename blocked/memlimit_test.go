package blocked

import (
	"bytes"
	"errors"
	"fmt"
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
	encs := bigEncoders(t, 40<<20)
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

	// The encoders that allocate the whole encoding refuse it the same way;
	// with the room at hand they allocate nothing and succeed.
	for _, e := range encs {
		_, err := e.marshal()
		tooLarge(e.name+".MarshalBinary", err, e.says)
		dst := []byte("prefix")
		got, err := e.append(dst)
		tooLarge(e.name+".AppendBinary", err, e.says+" after 6 bytes")
		if string(got) != "prefix" {
			t.Errorf("%s.AppendBinary refused: returned %d bytes, want dst unchanged", e.name, len(got))
		}
		room := make([]byte, 0, e.size+headerSize)
		if got, err := e.append(room); err != nil || len(got) != headerSize+e.size {
			t.Errorf("%s.AppendBinary into a buffer with room: %d bytes, %v", e.name, len(got), err)
		}
	}
	_, err = AppendFilter(nil, 40<<20/64, 8, nil, BuildOptions{})
	tooLarge("AppendFilter", err, "the Filter encoding's 655360 blocks need 41.9 MB (41943104 bytes)")

	var f Filter
	tooLarge("UnmarshalBinary", f.UnmarshalBinary(enc), "the Filter encoding's 655360 blocks need 44 MB (44040184 bytes)")
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
		if !childtest.LimitAddressSpace(t, free) {
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

// bigEncoder is one of the encoders that allocate a whole encoding, of a
// filter of size bytes.
type bigEncoder struct {
	name    string
	size    int
	marshal func() ([]byte, error)
	append  func([]byte) ([]byte, error)
	says    string // what the refusal names
}

// bigEncoders returns the MarshalBinary and AppendBinary of a Filter, a
// SplitBlock and a Counting of size bytes each (a multiple of 64), 100
// keys added (few: each touched page of a huge filter is a huge page).
func bigEncoders(t *testing.T, size uint64) []bigEncoder {
	f := mustBytes(t, size, 8)
	f.AddHashes(randomHashes(100, 3))
	s := mustSplit(t, size)
	s.AddHashes(randomHashes(100, 4))
	c, err := NewCountingBytes(size)
	if err != nil {
		t.Fatal(err)
	}
	c.AddHashes(randomHashes(100, 5))
	n := int(size)
	return []bigEncoder{
		{"Filter", n, f.MarshalBinary, f.AppendBinary, fmt.Sprintf("the Filter encoding's %d blocks", size/64)},
		{"SplitBlock", n, s.MarshalBinary, s.AppendBinary, fmt.Sprintf("the SplitBlock encoding's %d blocks", size/32)},
		{"Counting", n, c.MarshalBinary, c.AppendBinary, fmt.Sprintf("the Counting encoding's %d blocks", size/64)},
	}
}

// TestMarshalBeyondAddressSpace: under an address-space limit (ulimit -v)
// of 128 MiB more than is mapped, the MarshalBinary and AppendBinary of a
// 256 MiB filter of each variant are bloom.ErrTooLarge, as AppendFilter and
// the constructors are, not a fatal "out of memory"; a small filter still
// encodes. In a child process, so that a fatal fault fails the test
// instead of ending the run.
func TestMarshalBeyondAddressSpace(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		encs := bigEncoders(t, 256<<20)
		small := mustBytes(t, 1<<20, 8)
		if !childtest.LimitAddressSpace(t, 128<<20) {
			t.Skip("no address-space limit here")
		}
		for _, e := range encs {
			for name, enc := range map[string]func() ([]byte, error){
				"MarshalBinary": e.marshal,
				"AppendBinary":  func() ([]byte, error) { return e.append([]byte{1}) },
			} {
				b, err := enc()
				if !errors.Is(err, errs.ErrTooLarge) || !strings.Contains(err.Error(), "ulimit -v") {
					t.Errorf("%s.%s of %d bytes under ulimit -v: %d bytes, %v; want errs.ErrTooLarge", e.name, name, e.size, len(b), err)
				}
			}
		}
		_, err := AppendFilter(nil, 256<<20/64, 8, nil, BuildOptions{})
		if !errors.Is(err, errs.ErrTooLarge) {
			t.Errorf("AppendFilter of 256 MiB under ulimit -v: %v, want errs.ErrTooLarge", err)
		}
		if b, err := small.MarshalBinary(); err != nil || len(b) != headerSize+1<<20 {
			t.Errorf("MarshalBinary of 1 MiB under ulimit -v: %d bytes, %v", len(b), err)
		}
	})
}
