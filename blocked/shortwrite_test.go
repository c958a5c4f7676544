package blocked

import (
	"fmt"
	"testing"

	"github.com/simdbloom/bloom/internal/shortwrite"
)

// TestWriteToShortWriter: every WriteTo (and WriteBitset) reports a writer
// that took fewer bytes than it was given as io.ErrShortWrite, as io.Copy
// does, with the count the writer took; never success with part of the
// encoding.
func TestWriteToShortWriter(t *testing.T) {
	hs := randomHashes(100, 7)
	for _, c := range codecs {
		e := c.build(t, 16, hs)
		all := []readable{e}
		if littleEndian {
			b, _ := e.MarshalBinary()
			v, err := c.view(alignedCopy(b, 0))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, v)
		}
		for i, e := range all {
			want, _ := e.MarshalBinary()
			shortwrite.Check(t, fmt.Sprintf("%s (view: %v) WriteTo", c.name, i == 1), want, e.WriteTo)
		}
	}
	s := mustSplit(t, 16*SplitBlockBytes)
	s.AddHashes(hs)
	shortwrite.Check(t, "WriteBitset", s.Bitset(), s.WriteBitset)
}
