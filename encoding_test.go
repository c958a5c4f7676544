package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"

	"github.com/simdbloom/bloom/internal/format"
)

var updateGolden = flag.Bool("update", false, "rewrite the typed golden encoding (little-endian machines only)")

// goldenTyped was written by the amd64 build: a Filter[string] of the keys
// of goldenKeys. The test rebuilds it on the machine at hand (big-endian
// s390x under qemu too) and compares byte for byte.
const goldenTyped = "blocked/testdata/golden/typed-string.sblm"

func goldenKeys() []string {
	keys := make([]string, 200)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	return keys
}

// aligned returns a copy of b at a 64-byte boundary, as mmap would place it.
func aligned(b []byte) []byte {
	raw := make([]uint64, len(b)/8+16)
	off := (64 - uintptr(unsafe.Pointer(&raw[0]))%64) % 64
	c := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&raw[0]), off)), len(b))
	copy(c, b)
	return c
}

// littleEndian reports whether this machine is little-endian (View needs it).
var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

func TestTypedEncodingRoundTrip(t *testing.T) {
	keys := goldenKeys()
	f := mustNew[string](t, 1000, 0.001)
	f.AddAll(keys)
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if h, err := format.Parse(b, 0); err != nil || blocked.HashID(h.Hash) != blocked.HashXXH3 {
		t.Fatalf("header %+v, %v: want key hash xxh3", h, err)
	}
	var buf bytes.Buffer
	if n, err := f.WriteTo(&buf); err != nil || n != int64(len(b)) || !bytes.Equal(buf.Bytes(), b) {
		t.Fatalf("WriteTo: %d, %v", n, err)
	}

	var u Filter[string]
	if err := u.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	var r Filter[string]
	if n, err := r.ReadFrom(bytes.NewReader(b)); err != nil || n != int64(len(b)) {
		t.Fatalf("ReadFrom: %d, %v", n, err)
	}
	var r2 Filter[string]
	if _, err := r2.ReadFrom(io.MultiReader(bytes.NewReader(b))); err != nil { // no Len hint
		t.Fatal(err)
	}
	got := []*Filter[string]{&u, &r, &r2}
	if littleEndian {
		v, err := newView[string](aligned(b))
		if err != nil {
			t.Fatal(err)
		}
		if v.HasAll(keys, make([]bool, len(keys))) != len(keys) || !v.Has("key-7") {
			t.Fatal("View: keys missing")
		}
	}
	out := make([]bool, len(keys))
	for i, g := range got {
		if !g.equal(f) {
			t.Fatalf("decoder %d: filter differs", i)
		}
		if g.HasAll(keys, out) != len(keys) || !g.Has("key-7") {
			t.Fatalf("decoder %d: keys missing", i)
		}
	}

	// Integer keys share the hash identifier and round-trip the same way.
	fi := mustNew[int64](t, 100, 0.01)
	fi.AddAll([]int64{-1, 0, 1 << 40})
	bi, _ := fi.MarshalBinary()
	var gi Filter[int64]
	if err := gi.UnmarshalBinary(bi); err != nil || !gi.Has(-1) || !gi.Has(1<<40) {
		t.Fatalf("int64 round trip: %v", err)
	}
}

// TestTypedEncodingRefusesOtherHashes checks that a filter written with
// another key hash is never read as a typed filter.
func TestTypedEncodingRefusesOtherHashes(t *testing.T) {
	bf, _ := blocked.NewBytes(64*10, 8)
	for _, id := range []blocked.HashID{blocked.HashUnspecified, blocked.HashXXH64, 200} {
		bf.SetKeyHash(id)
		b, _ := bf.MarshalBinary()
		f := mustNew[string](t, 10, 0.01)
		f.Add("kept")
		if err := f.UnmarshalBinary(b); !errors.Is(err, errs.ErrHashMismatch) {
			t.Errorf("UnmarshalBinary of key hash %v: %v, want ErrHashMismatch", id, err)
		}
		if _, err := f.ReadFrom(bytes.NewReader(b)); !errors.Is(err, errs.ErrHashMismatch) {
			t.Errorf("ReadFrom of key hash %v: %v, want ErrHashMismatch", id, err)
		}
		wantView := errs.ErrHashMismatch
		if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
			wantView = errs.ErrByteOrder // views need a little-endian machine, whatever the bytes
		}
		if _, err := newView[string](aligned(b)); !errors.Is(err, wantView) {
			t.Errorf("View of key hash %v: %v, want %v", id, err, wantView)
		}
		if !f.Has("kept") {
			t.Error("a refused decode changed the filter")
		}
	}
	// Other variants with the right hash are refused too.
	s, _ := blocked.NewSplitBlockBytes(64)
	s.SetKeyHash(blocked.HashXXH3)
	b, _ := s.MarshalBinary()
	var f Filter[string]
	if err := f.UnmarshalBinary(b); !errors.Is(err, errs.ErrVariant) {
		t.Errorf("a SplitBlock decoded as a typed filter: %v", err)
	}
	if _, err := f.ReadFrom(bytes.NewReader(b)); !errors.Is(err, errs.ErrVariant) {
		t.Errorf("a SplitBlock read as a typed filter: %v", err)
	}
	// Short and damaged input: the blocked errors come through.
	good, _ := mustNew[string](t, 10, 0.01).MarshalBinary()
	for _, bad := range [][]byte{nil, good[:10], good[:len(good)-1]} {
		if err := f.UnmarshalBinary(bad); !errors.Is(err, errs.ErrTruncated) {
			t.Errorf("%d bytes: UnmarshalBinary: %v", len(bad), err)
		}
		if _, err := f.ReadFrom(bytes.NewReader(bad)); len(bad) == 0 && err != io.EOF || len(bad) > 0 && !errors.Is(err, errs.ErrTruncated) {
			t.Errorf("%d bytes: ReadFrom: %v", len(bad), err)
		}
	}
}

func TestTypedGolden(t *testing.T) {
	f := mustNew[string](t, 200, 0.01)
	f.AddAll(goldenKeys())
	fresh, _ := f.MarshalBinary()
	if *updateGolden {
		if !littleEndian {
			t.Fatal("golden files are written on little-endian machines only")
		}
		if err := os.WriteFile(goldenTyped, fresh, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenTyped)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, want) {
		t.Fatal("the typed filter built here encodes differently from the golden file")
	}
	var g Filter[string]
	if err := g.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	out := make([]bool, 200)
	if g.HasAll(goldenKeys(), out) != 200 {
		t.Fatal("golden keys missing")
	}
	if again, _ := g.MarshalBinary(); !bytes.Equal(again, want) {
		t.Fatal("re-encoding differs from the golden file")
	}
}
