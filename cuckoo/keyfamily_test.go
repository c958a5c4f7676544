package cuckoo

import (
	"bytes"
	"testing"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/format"
)

// TestEncodingKeyFamily: the key family a Filter records is written in the
// header's compatible flags and restored by both decoders and Clone.
func TestEncodingKeyFamily(t *testing.T) {
	for _, k := range []blocked.KeyFamily{blocked.KeysUnrecorded, blocked.KeysBytes, blocked.KeysIntegers} {
		f := mustBuckets(t, 16, 12, SemiSorted)
		f.SetKeyFamily(k)
		b, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if h, err := format.Parse(b, 0); err != nil || blocked.KeyFamily(h.Compat&format.CompatKeyMask) != k || h.Compat != uint32(k) {
			t.Fatalf("%v: header %+v, %v", k, h, err)
		}
		var u, r Filter
		if err := u.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadFrom(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		for i, g := range []*Filter{&u, &r, f.Clone()} {
			if g.KeyFamily() != k {
				t.Errorf("%v: decoder %d restores %v", k, i, g.KeyFamily())
			}
		}
	}
}
