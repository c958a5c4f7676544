package blocked

import (
	"bytes"
	"errors"
	"testing"

	"github.com/simdbloom/bloom/internal/errs"
)

// TestKeyFamilyTravels: the key family a Filter or Counting records is
// written in the header's compatible flags (bits 0..1) and restored by every
// decoder, the views and Clone, a SplitBlock's too. Union and
// Intersect refuse two different recorded families and take the recorded
// one from KeysUnrecorded.
func TestKeyFamilyTravels(t *testing.T) {
	hs := randomHashes(50, 11)
	for _, c := range codecs {
		for _, k := range []KeyFamily{KeysUnrecorded, KeysBytes, KeysIntegers} {
			e := c.build(t, 4, hs)
			s, ok := e.(interface{ SetKeyFamily(KeyFamily) })
			if !ok {
				if h, _ := parseHeader(mustMarshalB(t, e)); h.CompatFlags != 0 || h.Keys != KeysUnrecorded {
					t.Errorf("%s: header %+v, want no flags", c.name, h)
				}
				continue
			}
			s.SetKeyFamily(k)
			b := mustMarshalB(t, e)
			if h, err := parseHeader(b); err != nil || h.Keys != k || h.CompatFlags != uint32(k) {
				t.Fatalf("%s, %v: header %+v, %v", c.name, k, h, err)
			}
			var w bytes.Buffer
			if _, err := e.WriteTo(&w); err != nil || !bytes.Equal(w.Bytes(), b) {
				t.Fatalf("%s, %v: WriteTo differs from MarshalBinary (%v)", c.name, k, err)
			}
			got := []interface{ KeyFamily() KeyFamily }{}
			u := c.fresh()
			if err := u.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			r := c.fresh()
			if _, err := r.ReadFrom(bytes.NewReader(b)); err != nil {
				t.Fatal(err)
			}
			got = append(got, u.(interface{ KeyFamily() KeyFamily }), r.(interface{ KeyFamily() KeyFamily }))
			if littleEndian {
				v, err := c.view(alignedCopy(b, 0))
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, viewFamily{v.(interface{ keyFamily() KeyFamily })})
			}
			switch f := e.(type) {
			case *Filter:
				got = append(got, f.Clone())
			case *Counting:
				got = append(got, f.Clone())
			case *SplitBlock:
				got = append(got, f.Clone())
			}
			for i, g := range got {
				if g.KeyFamily() != k {
					t.Errorf("%s, %v: decoder %d restores %v", c.name, k, i, g.KeyFamily())
				}
			}
			if again := mustMarshalB(t, u); !bytes.Equal(again, b) {
				t.Errorf("%s, %v: re-encoding differs", c.name, k)
			}
		}
	}
	a, b, z := mustBytes(t, 256, 8), mustBytes(t, 256, 8), mustBytes(t, 256, 8)
	a.SetKeyFamily(KeysBytes)
	b.SetKeyFamily(KeysIntegers)
	if err := a.Union(b); !errors.Is(err, errs.ErrHashMismatch) || a.KeyFamily() != KeysBytes {
		t.Errorf("Union of byte-string and integer filters: %v", err)
	}
	if err := a.Intersect(b); !errors.Is(err, errs.ErrHashMismatch) {
		t.Errorf("Intersect of byte-string and integer filters: %v", err)
	}
	if err := z.Union(b); err != nil || z.KeyFamily() != KeysIntegers {
		t.Errorf("Union of an unrecorded and an integer filter: %v, family %v", err, z.KeyFamily())
	}
}

func mustMarshalB(t *testing.T, e interface{ MarshalBinary() ([]byte, error) }) []byte {
	t.Helper()
	b, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResetKeepsKeyFamily: a view made by Reset reports the family its
// encoding records, as one made by View does (CountingView.Reset once
// dropped it, so its typed view could not check it).
func TestResetKeepsKeyFamily(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	f, _ := New(100, 0.01)
	c, _ := NewCounting(100, 0.01)
	for _, k := range []KeyFamily{KeysBytes, KeysIntegers} {
		f.SetKeyFamily(k)
		c.SetKeyFamily(k)
		fb, _ := f.MarshalBinary()
		cb, _ := c.MarshalBinary()
		var fv FilterView
		var cv CountingView
		if err := fv.Reset(fb); err != nil || fv.keyFamily() != k {
			t.Errorf("FilterView.Reset: family %v, want %v (%v)", fv.keyFamily(), k, err)
		}
		if err := cv.Reset(cb); err != nil || cv.keyFamily() != k {
			t.Errorf("CountingView.Reset: family %v, want %v (%v)", cv.keyFamily(), k, err)
		}
	}
}

// viewFamily gives a view's key family (a test-only method) the exported
// name its filter's has.
type viewFamily struct {
	v interface{ keyFamily() KeyFamily }
}

func (f viewFamily) KeyFamily() KeyFamily { return f.v.keyFamily() }
