//go:build linux || darwin

package blocked

import (
	"testing"
	"unsafe"
)

// TestLookupHashFenced checks, at every kernel level, that LookupHash reads
// nothing outside b: every prefix of good encodings (k = 8 and 16), placed
// to end right before an unmapped page, and the whole encodings placed to
// start right after one, give Reset's error or answer without a fault.
func TestLookupHashFenced(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	forEachLevel(t, func(t *testing.T) {
		hs := randomHashes(64, 49)
		for _, k := range []int{8, 16} {
			f := mustBytes(t, 2*64, k)
			f.AddHashes(hs)
			good, err := f.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n <= len(good); n++ {
				for _, atEnd := range []bool{true, false} {
					if !atEnd && n != len(good) {
						continue
					}
					b := unsafe.Slice((*byte)(fenced(t, max(n, 1), atEnd)), max(n, 1))[:n:n]
					copy(b, good)
					var v FilterView
					rerr := v.Reset(b)
					for _, h := range hs {
						got, err := LookupHash(b, h)
						if (err == nil) != (rerr == nil) || (err != nil && err.Error() != rerr.Error()) || got != v.HasHash(h) {
							t.Fatalf("k = %d, %d bytes: LookupHash %v, %v; Reset %v, %v", k, n, got, err, v.HasHash(h), rerr)
						}
					}
				}
			}
		}
	})
}
