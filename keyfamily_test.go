package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/format"
)

// typedDecoder decodes an encoding as one typed filter and key type, every
// way it can: UnmarshalBinary, ReadFrom, and View where there is one.
type typedDecoder struct {
	name   string
	family blocked.KeyFamily
	decode func(b []byte) []error
}

func decodersOf[K Key](name string) []typedDecoder {
	view := func(b []byte) error {
		if !littleEndian {
			return nil
		}
		_, err := newView[K](aligned(b))
		return err
	}
	both := func(u interface {
		UnmarshalBinary([]byte) error
		ReadFrom(io.Reader) (int64, error)
	}, b []byte) []error {
		_, err := u.ReadFrom(bytes.NewReader(b))
		return []error{u.UnmarshalBinary(b), err}
	}
	return []typedDecoder{
		{"Filter[" + name + "]", keyFamily[K](), func(b []byte) []error {
			errs := both(new(Filter[K]), b)
			if littleEndian { // views need a little-endian machine
				errs = append(errs, view(b))
			}
			return errs
		}},
		{"Counting[" + name + "]", keyFamily[K](), func(b []byte) []error { return both(new(Counting[K]), b) }},
		{"Cuckoo[" + name + "]", keyFamily[K](), func(b []byte) []error { return both(new(Cuckoo[K]), b) }},
		{"Scalable[" + name + "]", keyFamily[K](), func(b []byte) []error { return both(new(Scalable[K]), b) }},
	}
}

// encodingsOf returns an encoding of each typed filter over K, in the order
// of decodersOf, and checks that each header records K's family.
func encodingsOf[K Key](t *testing.T, keys []K) [][]byte {
	t.Helper()
	f := mustNew[K](t, 100, 0.01)
	f.AddAll(keys)
	c, err := NewCounting[K](100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	c.AddAll(keys)
	k, err := NewCuckoo[K](100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.AddAll(keys); err != nil {
		t.Fatal(err)
	}
	s, err := NewScalable[K](100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	s.AddAll(keys)
	var out [][]byte
	for _, e := range []interface{ MarshalBinary() ([]byte, error) }{f, c, k, s} {
		b := mustMarshal(t, e.(codec))
		if h, err := format.Parse(b, 0); err != nil || blocked.KeyFamily(h.Compat&format.CompatKeyMask) != keyFamily[K]() || h.Compat != uint32(keyFamily[K]()) {
			t.Fatalf("%T: header %+v, %v; want key family %v", e, h, err, keyFamily[K]())
		}
		out = append(out, b)
	}
	return out
}

// TestKeyFamilyRefused: an encoding of string (or []byte) keys never loads
// as a filter of integer keys, nor the reverse, through any typed decoder:
// an error wrapping ErrHashMismatch that names both families. Key types of
// one family load each other's encodings (widening keeps integer hashes).
func TestKeyFamilyRefused(t *testing.T) {
	encs := map[string][][]byte{
		"string": encodingsOf(t, []string{"a", "7"}),
		"[]byte": encodingsOf(t, [][]byte{[]byte("a"), []byte("7")}),
		"uint64": encodingsOf(t, []uint64{7, 1 << 40}),
		"int32":  encodingsOf(t, []int32{7, -1}),
	}
	family := map[string]blocked.KeyFamily{"string": blocked.KeysBytes, "[]byte": blocked.KeysBytes, "uint64": blocked.KeysIntegers, "int32": blocked.KeysIntegers}
	var decs []typedDecoder
	decs = append(decs, decodersOf[string]("string")...)
	decs = append(decs, decodersOf[[]byte]("[]byte")...)
	decs = append(decs, decodersOf[uint64]("uint64")...)
	decs = append(decs, decodersOf[int64]("int64")...)
	for written, bs := range encs {
		for i, d := range decs {
			b := bs[i%4] // the same typed filter, written with another key type
			for j, err := range d.decode(b) {
				if family[written] == d.family {
					if err != nil {
						t.Errorf("%s written with %s keys, decoder %d: %v", d.name, written, j, err)
					}
					continue
				}
				if !errors.Is(err, ErrHashMismatch) || !strings.Contains(err.Error(), family[written].String()) ||
					!strings.Contains(err.Error(), d.family.String()) || strings.Count(err.Error(), "bloom: ") != 1 {
					t.Errorf("%s written with %s keys, decoder %d: %v; want ErrHashMismatch naming both families", d.name, written, j, err)
				}
			}
		}
	}
	// The reserved family 3 is no known key type's.
	for i, d := range decs {
		b := withCompat(encs["string"][i%4], 3)
		for j, err := range d.decode(b) {
			if !errors.Is(err, ErrHashMismatch) {
				t.Errorf("%s of key family 3, decoder %d: %v; want ErrHashMismatch", d.name, j, err)
			}
		}
	}
}

// withCompat returns a copy of the encoding b with compatible flags c.
func withCompat(b []byte, c uint32) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[36:], c)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

// TestKeyFamilyUnrecorded: an encoding that records no key family (every
// one written before the field, such as the golden files kept from then)
// still loads as any key type; the decoded typed filter records its own
// family and re-encodes to what this version writes.
func TestKeyFamilyUnrecorded(t *testing.T) {
	for _, g := range []struct{ old, now string }{
		{"blocked/testdata/golden/typed-string-nokeys.sblm", goldenTyped},
		{"testdata/golden/scalable-nokeys.sblm", goldenScalable},
	} {
		old, err := os.ReadFile(g.old)
		if err != nil {
			t.Fatal(err)
		}
		now, err := os.ReadFile(g.now)
		if err != nil {
			t.Fatal(err)
		}
		if h, err := format.Parse(old, 0); err != nil || blocked.KeyFamily(h.Compat&format.CompatKeyMask) != blocked.KeysUnrecorded {
			t.Fatalf("%s: %+v, %v: want an encoding without a key family", g.old, h, err)
		}
		if !bytes.Equal(withCompat(old, uint32(blocked.KeysBytes)), now) {
			t.Fatalf("%s and %s differ by more than the key family", g.old, g.now)
		}
		keys := goldenKeys()
		out := make([]bool, len(keys))
		if strings.Contains(g.old, "scalable") {
			var s Scalable[string]
			if err := s.UnmarshalBinary(old); err != nil || s.HasAll(keys, out) != len(keys) {
				t.Fatalf("%s as a Scalable[string]: %v", g.old, err)
			}
			if again := mustMarshal(t, &s); !bytes.Equal(again, now) {
				t.Errorf("%s: a decoded Scalable[string] does not re-encode to %s", g.old, g.now)
			}
			if err := new(Scalable[uint64]).UnmarshalBinary(old); err != nil {
				t.Errorf("%s as a Scalable[uint64]: %v (an old encoding loads as any key type)", g.old, err)
			}
			continue
		}
		var f Filter[string]
		if err := f.UnmarshalBinary(old); err != nil || f.HasAll(keys, out) != len(keys) {
			t.Fatalf("%s as a Filter[string]: %v", g.old, err)
		}
		if again := mustMarshal(t, &f); !bytes.Equal(again, now) {
			t.Errorf("%s: a decoded Filter[string] does not re-encode to %s", g.old, g.now)
		}
		var r Filter[[]byte]
		if _, err := r.ReadFrom(bytes.NewReader(old)); err != nil || !r.Has([]byte("key-7")) {
			t.Errorf("%s read as a Filter[[]byte]: %v", g.old, err)
		}
		if err := new(Filter[uint64]).UnmarshalBinary(old); err != nil {
			t.Errorf("%s as a Filter[uint64]: %v (an old encoding loads as any key type)", g.old, err)
		}
		if littleEndian {
			v, err := newView[string](aligned(old))
			if err != nil || !v.Has("key-7") {
				t.Fatalf("View of %s: %v", g.old, err)
			}
		}
	}
}

// TestKeyFamilyFromEngine: FromEngine records K's family on an engine that
// records none, and keeps another; combining engines of two families is
// refused.
func TestKeyFamilyFromEngine(t *testing.T) {
	e, _ := blocked.NewBytes(640, 8)
	FromEngine[string](e)
	if e.KeyFamily() != blocked.KeysBytes {
		t.Fatalf("FromEngine[string]: engine records %v", e.KeyFamily())
	}
	FromEngine[uint64](e)
	if e.KeyFamily() != blocked.KeysBytes {
		t.Fatalf("FromEngine[uint64] over a byte-string engine: %v, want it kept", e.KeyFamily())
	}
	i := mustNew[uint64](t, 100, 0.01)
	s := mustNew[string](t, 100, 0.01)
	if err := i.Engine().Union(s.Engine()); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("Union of integer and byte-string engines: %v, want ErrHashMismatch", err)
	}
	if err := i.Engine().Intersect(s.Engine()); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("Intersect of integer and byte-string engines: %v, want ErrHashMismatch", err)
	}
}

// TestResetRefusesOtherFamily: FilterView.Reset and Lookup refuse an
// encoding of the other key family, as View does, and accept their own.
func TestResetRefusesOtherFamily(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	f, err := New[string](100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	f.Add("7")
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var v FilterView[uint64]
	if err := v.Reset(b); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("FilterView[uint64].Reset of a Filter[string]: %v, want ErrHashMismatch", err)
	}
	if v.Has(7) {
		t.Error("a refused Reset left a view that answers true")
	}
	if _, err := Lookup(b, uint64(7)); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("Lookup[uint64] of a Filter[string]: %v, want ErrHashMismatch", err)
	}
	var s FilterView[string]
	if err := s.Reset(b); err != nil || !s.Has("7") {
		t.Errorf("FilterView[string].Reset: %v, Has = %v", err, s.Has("7"))
	}
	if ok, err := Lookup(b, "7"); err != nil || !ok {
		t.Errorf("Lookup[string]: %v, %v", ok, err)
	}
}
