package parquet

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// shortWriter accepts the first limit bytes written to it and then writes
// less than it is given, with no error (a broken io.Writer).
type shortWriter struct {
	limit int
	got   bytes.Buffer
}

func (w *shortWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.limit-w.got.Len())
	w.got.Write(p[:n])
	return n, nil
}

// TestWriteFilterShortWriter: WriteFilter reports a writer that took fewer
// bytes than it was given, in the header or the bitset, as io.ErrShortWrite.
func TestWriteFilterShortWriter(t *testing.T) {
	f := mustFilter(t, 1024, 100)
	var full bytes.Buffer
	if err := WriteFilter(&full, f); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{0, 5, full.Len() - 1} {
		w := &shortWriter{limit: limit}
		if err := WriteFilter(w, f); !errors.Is(err, io.ErrShortWrite) || !bytes.Equal(w.got.Bytes(), full.Bytes()[:limit]) {
			t.Errorf("WriteFilter to a writer that takes %d of %d bytes: %v; want io.ErrShortWrite", limit, full.Len(), err)
		}
	}
}
