package cuckoo

import (
	"fmt"
	"testing"

	"github.com/simdbloom/bloom/internal/shortwrite"
)

// TestWriteToShortWriter: WriteTo reports a writer that took fewer bytes
// than it was given as io.ErrShortWrite, as io.Copy does, with the count the
// writer took.
func TestWriteToShortWriter(t *testing.T) {
	for _, l := range []Layout{SemiSorted, Plain} {
		f := mustBuckets(t, 64, 12, l)
		for i := range uint64(100) {
			if err := f.AddHash(i * 0x9e3779b97f4a7c15); err != nil {
				t.Fatal(err)
			}
		}
		want, _ := f.MarshalBinary()
		shortwrite.Check(t, fmt.Sprintf("layout %v: WriteTo", l), want, f.WriteTo)
	}
}
