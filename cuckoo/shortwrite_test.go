package cuckoo

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
		for _, limit := range []int{0, 10, 70, len(want) - 1} {
			w := &shortWriter{limit: limit}
			n, err := f.WriteTo(w)
			if !errors.Is(err, io.ErrShortWrite) || n != int64(limit) || !bytes.Equal(w.got.Bytes(), want[:limit]) {
				t.Errorf("layout %v: WriteTo a writer that takes %d of %d bytes: %d, %v; want io.ErrShortWrite", l, limit, len(want), n, err)
			}
		}
	}
}
