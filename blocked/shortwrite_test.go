package blocked

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
			for _, limit := range []int{0, 10, 70, len(want) - 1} {
				w := &shortWriter{limit: limit}
				n, err := e.WriteTo(w)
				if !errors.Is(err, io.ErrShortWrite) || n != int64(limit) || !bytes.Equal(w.got.Bytes(), want[:limit]) {
					t.Errorf("%s (view: %v): WriteTo a writer that takes %d of %d bytes: %d, %v; want %d, io.ErrShortWrite", c.name, i == 1, limit, len(want), n, err, limit)
				}
			}
		}
	}
	s := mustSplit(t, 16*SplitBlockBytes)
	s.AddHashes(hs)
	bits := s.Bitset()
	for _, limit := range []int{0, 100, len(bits) - 1} {
		w := &shortWriter{limit: limit}
		if n, err := s.WriteBitset(w); !errors.Is(err, io.ErrShortWrite) || n != int64(limit) {
			t.Errorf("WriteBitset to a writer that takes %d of %d bytes: %d, %v; want io.ErrShortWrite", limit, len(bits), n, err)
		}
	}
}
