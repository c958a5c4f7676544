package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"
)

// TestTypedRecordsXXH3 checks that every typed filter records xxh3 when it
// is made, so its plain encodings carry the id the typed decoders demand.
func TestTypedRecordsXXH3(t *testing.T) {
	f := mustNew[string](t, 100, 0.01)
	if id := f.Engine().KeyHash(); id != blocked.HashXXH3 {
		t.Fatalf("New: %v", id)
	}
	c, err := NewCounting[string](100, 0.01)
	if err != nil || c.c.KeyHash() != blocked.HashXXH3 {
		t.Fatalf("NewCounting: %v %v", err, c.c.KeyHash())
	}
	s, err := NewScalable[int](10, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		s.Add(i)
	}
	if s.Stages() < 2 {
		t.Fatal("the scalable filter did not grow")
	}
	for i, st := range s.stages {
		if st.KeyHash() != blocked.HashXXH3 {
			t.Fatalf("Scalable stage %d: %v", i, st.KeyHash())
		}
	}
	raw, _ := blocked.New(100, 0.01)
	if FromEngine[string](raw); raw.KeyHash() != blocked.HashXXH3 {
		t.Fatalf("FromEngine of an unspecified filter: %v", raw.KeyHash())
	}
	other, _ := blocked.New(100, 0.01)
	other.SetKeyHash(blocked.HashXXH64)
	b, _ := FromEngine[string](other).MarshalBinary()
	if err := new(Filter[string]).UnmarshalBinary(b); !errors.Is(err, errs.ErrHashMismatch) {
		t.Fatalf("FromEngine kept another hash, its encoding must be refused: %v", err)
	}
	// AppendBinary: MarshalBinary's bytes after the prefix.
	f.Add("x")
	m, _ := f.MarshalBinary()
	a, _ := f.AppendBinary([]byte("pre"))
	if string(a[:3]) != "pre" || !bytes.Equal(a[3:], m) {
		t.Fatal("AppendBinary differs from MarshalBinary")
	}
}

// TestTypedVariantBeforeHash checks FORMAT.md's order in the typed
// decoders: a Counting encoding (key hash unspecified) is ErrVariant, not
// ErrHashMismatch.
func TestTypedVariantBeforeHash(t *testing.T) {
	c, _ := blocked.NewCountingBytes(64 * 4)
	b, _ := c.MarshalBinary()
	var f Filter[string]
	if err := f.UnmarshalBinary(b); !errors.Is(err, errs.ErrVariant) || errors.Is(err, errs.ErrHashMismatch) {
		t.Fatalf("UnmarshalBinary: %v, want ErrVariant", err)
	}
	if _, err := f.ReadFrom(bytes.NewReader(b)); !errors.Is(err, errs.ErrVariant) || errors.Is(err, errs.ErrHashMismatch) {
		t.Fatalf("ReadFrom: %v, want ErrVariant", err)
	}
	if _, err := newView[string](aligned(b)); binary.NativeEndian.Uint16([]byte{1, 0}) == 1 && // views need little-endian
		(!errors.Is(err, errs.ErrVariant) || errors.Is(err, errs.ErrHashMismatch)) {
		t.Fatalf("View: %v, want ErrVariant", err)
	}
}

// TestTypedReadFromStreamEnd reads three concatenated typed encodings in a
// loop until io.EOF.
func TestTypedReadFromStreamEnd(t *testing.T) {
	var stream bytes.Buffer
	for i := range 3 {
		f := mustNew[string](t, uint64(100*(i+1)), 0.01)
		f.Add(fmt.Sprint("key", i))
		if _, err := f.WriteTo(&stream); err != nil {
			t.Fatal(err)
		}
	}
	var got []*Filter[string]
	for {
		var f Filter[string]
		n, err := f.ReadFrom(&stream)
		if err == io.EOF {
			if n != 0 {
				t.Fatalf("io.EOF after %d bytes", n)
			}
			break
		}
		if err != nil {
			t.Fatalf("encoding %d: %v", len(got), err)
		}
		got = append(got, &f)
		if len(got) > 3 {
			t.Fatal("more encodings than written")
		}
	}
	if len(got) != 3 {
		t.Fatalf("read %d encodings, want 3", len(got))
	}
	for i, f := range got {
		if !f.Has(fmt.Sprint("key", i)) {
			t.Fatalf("encoding %d lost its key", i)
		}
	}
}
