package blocked

import (
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
		want, _ := e.MarshalBinary()
		shortwrite.Check(t, c.name+" WriteTo", want, e.WriteTo)
	}
}
