package bloom

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/alloc/hugetest"
	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/memlimit"
)

// typedEncoder is the MarshalBinary and AppendBinary of one typed filter.
type typedEncoder struct {
	name    string
	marshal func() ([]byte, error)
	append  func([]byte) ([]byte, error)
}

// bigTyped returns the encoders of a Filter, a Counting, a Cuckoo and a
// Scalable of uint64 keys, each of more than scale*24 MiB, a few keys added
// (few: each page they touch is a huge page).
func bigTyped(t *testing.T, scale uint64) []typedEncoder {
	f, err := New[uint64](scale*30_000_000, 0.01) // 37.9 MB for scale 1
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounting[uint64](scale*8_000_000, 0.01) // 45.7 MB
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewCuckoo[uint64](scale*30_000_000, 0.01) // 35.5 MB
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScalable[uint64](scale*30_000_000, 0.01) // 54.7 MB
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(100) {
		f.Add(i)
		c.Add(i)
		s.Add(i)
		if err := k.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	return []typedEncoder{
		{"Filter", f.MarshalBinary, f.AppendBinary},
		{"Counting", c.MarshalBinary, c.AppendBinary},
		{"Cuckoo", k.MarshalBinary, k.AppendBinary},
		{"Scalable", s.MarshalBinary, s.AppendBinary},
	}
}

// TestEncodersTooLarge: under a limit on one allocation (24 MiB, set by the
// test), the encoders of typed filters larger than that return an error
// wrapping ErrTooLarge that names the limit, with dst unchanged, as the
// constructors do; with the room at hand they allocate nothing and succeed.
func TestEncodersTooLarge(t *testing.T) {
	encs := bigTyped(t, 1)
	defer memlimit.SetForTest(memlimit.Limit{Bytes: 24 << 20, Why: "the test's limit"})()
	for _, e := range encs {
		_, err := e.marshal()
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the test's limit") {
			t.Errorf("%s.MarshalBinary: %v, want ErrTooLarge naming the limit", e.name, err)
		}
		b, err := e.append([]byte{1, 2, 3})
		if !errors.Is(err, ErrTooLarge) || len(b) != 3 {
			t.Errorf("%s.AppendBinary: %d bytes, %v; want ErrTooLarge and dst unchanged", e.name, len(b), err)
		}
	}
	restore := memlimit.SetForTest(memlimit.Limit{Bytes: 1 << 40, Why: "no limit"})
	want := make([][]byte, len(encs))
	for i, e := range encs {
		var err error
		if want[i], err = e.marshal(); err != nil {
			t.Fatal(err)
		}
	}
	restore()
	for i, e := range encs {
		if b, err := e.append(make([]byte, 0, len(want[i]))); err != nil || !bytes.Equal(b, want[i]) {
			t.Errorf("%s.AppendBinary into a buffer with room, under the limit: %d bytes, %v", e.name, len(b), err)
		}
	}
}

// TestEncodersBeyondAddressSpace: under an address-space limit (ulimit -v)
// of 128 MiB more than is mapped, the MarshalBinary and AppendBinary of
// typed filters of more than 190 MB are ErrTooLarge, not a fatal "out of
// memory"; a small filter still encodes. In a child process, so that a
// fatal fault fails the test instead of ending the run.
func TestEncodersBeyondAddressSpace(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		encs := bigTyped(t, 5)
		small, err := New[string](1000, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		if !childtest.LimitAddressSpace(t, 128<<20) {
			t.Skip("no address-space limit here")
		}
		for _, e := range encs {
			if b, err := e.marshal(); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "ulimit -v") {
				t.Errorf("%s.MarshalBinary under ulimit -v: %d bytes, %v; want ErrTooLarge", e.name, len(b), err)
			}
			if b, err := e.append([]byte{1}); !errors.Is(err, ErrTooLarge) || len(b) != 1 {
				t.Errorf("%s.AppendBinary under ulimit -v: %d bytes, %v; want ErrTooLarge", e.name, len(b), err)
			}
		}
		if _, err := small.MarshalBinary(); err != nil {
			t.Errorf("MarshalBinary of a small filter under ulimit -v: %v", err)
		}
	})
}

// memory is n bytes at p.
type memory struct {
	p unsafe.Pointer
	n uint64
}

// firstPointer returns the pointer a struct starts with: the data pointer
// of the memory of a blocked.Filter, blocked.Counting or cuckoo.Filter
// (their first field, whose offset the assembly relies on too).
func firstPointer[T any](p *T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(p)) }

// TestDecodedHugePages: the typed filters decoded from an encoding of
// alloc.HugeFrom bytes or more (UnmarshalBinary, ReadFrom of a reader that
// tells its length and of a stream that does not), and each stage of a
// decoded Scalable, get their memory as New does, from internal/alloc: at a
// 2 MiB boundary and advised for huge pages (on Linux; hugetest
// calibrates); and equal the filter encoded.
func TestDecodedHugePages(t *testing.T) {
	f, err := New[uint64](7_000_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounting[uint64](2_000_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewCuckoo[uint64](8_000_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScalable[uint64](5_000_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(2000) {
		f.Add(i)
		c.Add(i)
		if err := k.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	for i := uint64(0); s.Stages() < 2; i++ {
		s.Add(i * 0x9e3779b97f4a7c15)
	}
	for _, tc := range []struct {
		name   string
		encode func() ([]byte, error)
		decode func(enc []byte, r io.Reader) (mems []memory, equal bool, err error)
	}{
		{"Filter", f.MarshalBinary, func(enc []byte, r io.Reader) ([]memory, bool, error) {
			var g Filter[uint64]
			err := decodeWith(&g, enc, r)
			return []memory{{firstPointer(g.f), g.f.NumBits() / 8}}, err == nil && g.equal(f), err
		}},
		{"Counting", c.MarshalBinary, func(enc []byte, r io.Reader) ([]memory, bool, error) {
			var g Counting[uint64]
			err := decodeWith(&g, enc, r)
			return []memory{{firstPointer(g.c), g.c.NumBits() / 8}}, err == nil && g.equal(c), err
		}},
		{"Cuckoo", k.MarshalBinary, func(enc []byte, r io.Reader) ([]memory, bool, error) {
			var g Cuckoo[uint64]
			err := decodeWith(&g, enc, r)
			return []memory{{firstPointer(g.f), g.f.NumBits() / 8}}, err == nil && g.equal(k), err
		}},
		{"Scalable", s.MarshalBinary, func(enc []byte, r io.Reader) ([]memory, bool, error) {
			var g Scalable[uint64]
			err := decodeWith(&g, enc, r)
			var mems []memory
			for _, st := range g.stages {
				mems = append(mems, memory{firstPointer(st), (st.NumBits() / 8)})
			}
			return mems, err == nil && g.equal(s), err
		}},
	} {
		enc, err := tc.encode()
		if err != nil {
			t.Fatal(err)
		}
		for how, r := range map[string]io.Reader{
			"UnmarshalBinary":     nil,
			"ReadFrom":            bytes.NewReader(enc),
			"ReadFrom (streamed)": struct{ io.Reader }{bytes.NewReader(enc)},
		} {
			mems, equal, err := tc.decode(enc, r)
			what := tc.name + "." + how
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if !equal {
				t.Errorf("%s: not equal to the filter encoded", what)
			}
			for i, m := range mems {
				if m.n < alloc.HugeFrom {
					t.Fatalf("%s: memory %d is %d bytes, below alloc.HugeFrom: the test's sizes are wrong", what, i, m.n)
				}
				hugetest.Check(t, what, m.p, m.n)
			}
		}
	}
}

// decodeWith decodes enc into d: with UnmarshalBinary if r is nil, else
// with ReadFrom of r.
func decodeWith(d interface {
	UnmarshalBinary([]byte) error
	io.ReaderFrom
}, enc []byte, r io.Reader) error {
	if r == nil {
		return d.UnmarshalBinary(enc)
	}
	_, err := d.ReadFrom(r)
	return err
}
