package sbparquet

import (
	"bytes"
	"io"
	"testing"

	"github.com/simdbloom/bloom/internal/shortwrite"
)

// TestWriteFilterShortWriter: WriteFilter reports a writer that took fewer
// bytes than it was given, in the header or the bitset, as io.ErrShortWrite.
func TestWriteFilterShortWriter(t *testing.T) {
	f := mustFilter(t, 1024, 100)
	var full bytes.Buffer
	if err := WriteFilter(&full, f); err != nil {
		t.Fatal(err)
	}
	shortwrite.Check(t, "WriteFilter", full.Bytes(), func(w io.Writer) (int64, error) {
		return -1, WriteFilter(w, f) // WriteFilter reports no count
	})
}
