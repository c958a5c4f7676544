package blocked

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/simdbloom/bloom/internal/format"

	"github.com/simdbloom/bloom/internal/errs"
)

// lookupForOracle is LookupHashFor spelled out: Reset, then the key hash,
// then the key family (a recorded one must be keys, unless keys is
// KeysUnrecorded), then HasHash.
func lookupForOracle(b []byte, h uint64, id HashID, keys KeyFamily) (bool, error) {
	var v FilterView
	if err := v.Reset(b); err != nil {
		return false, err
	}
	if v.keyHash() != id {
		return false, errs.ErrHashMismatch
	}
	if fam := v.keyFamily(); fam != KeysUnrecorded && keys != KeysUnrecorded && fam != keys {
		return false, errs.ErrHashMismatch
	}
	return v.HasHash(h), nil
}

// checkLookupFor fails t unless LookupHashFor(b, h, id, keys) answers as
// lookupForOracle: the same result, Reset's error word for word, or an
// error wrapping bloom.ErrHashMismatch where the key hash or family is refused.
func checkLookupFor(t *testing.T, what string, b []byte, h uint64, id HashID, keys KeyFamily) {
	t.Helper()
	want, werr := lookupForOracle(b, h, id, keys)
	got, err := LookupHashFor(b, h, id, keys)
	switch {
	case (err == nil) != (werr == nil):
		t.Fatalf("%s, want %v %v: LookupHashFor error %v, want %v", what, id, keys, err, werr)
	case werr == errs.ErrHashMismatch && !errors.Is(err, errs.ErrHashMismatch):
		t.Fatalf("%s, want %v %v: LookupHashFor error %v, want one wrapping errs.ErrHashMismatch", what, id, keys, err)
	case werr != nil && werr != errs.ErrHashMismatch && err.Error() != werr.Error():
		t.Fatalf("%s, want %v %v: LookupHashFor error %v, Reset's %v", what, id, keys, err, werr)
	case got != want:
		t.Fatalf("%s, want %v %v: LookupHashFor %v, the view %v", what, id, keys, got, want)
	}
}

// TestLookupHashFor checks, at every kernel level, that LookupHashFor
// refuses exactly the encodings whose key hash is not the one asked for or
// whose recorded key family is another (every key-hash byte, every family
// value, with the other compatible flags set or not, each asked for with
// several key hashes and every family), answers as the view otherwise,
// reports Reset's error before the key hash's, and that LookupHash reads
// them all.
func TestLookupHashFor(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	forEachLevel(t, func(t *testing.T) {
		hs := randomHashes(64, 49)
		f := mustBytes(t, 5*64, 8)
		f.AddHashes(hs[:32])
		good, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		ids := []HashID{HashUnspecified, HashXXH3, HashXXH64, 200}
		families := []KeyFamily{KeysUnrecorded, KeysBytes, KeysIntegers, 3}
		for x := range 256 {
			for _, fam := range []uint32{0, 1, 2, 3, 0xfffc, 0xfffd, 0xfffe, 0xffff} {
				b := bytes.Clone(good)
				b[format.OffHash] = byte(x)
				binary.LittleEndian.PutUint32(b[format.OffCompat:], fam)
				b = alignedCopy(refix(b), x%9)
				what := fmt.Sprintf("key hash %d, compatible flags %#x", x, fam)
				for i, h := range hs[30:34] {
					for _, id := range ids {
						checkLookupFor(t, what, b, h, id, families[(i+x)%len(families)])
					}
					checkLookupFor(t, what, b, h, HashID(x), KeysUnrecorded)
					if got, err := LookupHash(b, h); err != nil || got != f.HasHash(h) {
						t.Fatalf("%s: LookupHash %v, %v; the filter %v", what, got, err, f.HasHash(h))
					}
				}
				ok, err := LookupHashFor(b, hs[0], HashID(x), KeyFamily(fam&3))
				if err != nil || !ok {
					t.Fatalf("%s: LookupHashFor of its own key hash and family: %v, %v", what, ok, err)
				}
			}
		}
		// Reset's error comes before the key hash's: a bad k and a key
		// hash not asked for give the error about k.
		b := bytes.Clone(good)
		b[format.OffK] = 9
		b[format.OffHash] = byte(HashXXH64)
		refix(b)
		for _, id := range ids {
			checkLookupFor(t, "k = 9", b, hs[0], id, KeysBytes)
			if _, err := LookupHashFor(b, hs[0], id, KeysBytes); !errors.Is(err, errs.ErrGeometry) || errors.Is(err, errs.ErrHashMismatch) {
				t.Fatalf("k = 9 and key hash %v: error %v, want Reset's (errs.ErrGeometry)", id, err)
			}
		}
	})
}
