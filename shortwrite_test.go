package bloom

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// shortWriter accepts the first limit bytes written to it and then writes
// less than it is given, with no error: a broken io.Writer, which WriteTo
// must report as io.ErrShortWrite, as io.Copy does.
type shortWriter struct {
	limit int
	got   bytes.Buffer
}

func (w *shortWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.limit-w.got.Len())
	w.got.Write(p[:n])
	return n, nil
}

// checkShortWrites writes e to writers that stop after 0, 10, 70 and all
// but one of its bytes: each WriteTo must fail with io.ErrShortWrite and
// report the bytes the writer took.
func checkShortWrites(t *testing.T, name string, e interface {
	MarshalBinary() ([]byte, error)
	WriteTo(io.Writer) (int64, error)
}) {
	t.Helper()
	want, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{0, 10, 70, len(want) - 1} {
		w := &shortWriter{limit: limit}
		n, err := e.WriteTo(w)
		if !errors.Is(err, io.ErrShortWrite) {
			t.Errorf("%s: WriteTo a writer that takes %d of %d bytes: %d, %v; want io.ErrShortWrite", name, limit, len(want), n, err)
		}
		if n != int64(w.got.Len()) || !bytes.Equal(w.got.Bytes(), want[:w.got.Len()]) {
			t.Errorf("%s: WriteTo reports %d bytes, the writer took %d", name, n, w.got.Len())
		}
	}
	var full bytes.Buffer
	if n, err := e.WriteTo(&full); err != nil || n != int64(len(want)) || !bytes.Equal(full.Bytes(), want) {
		t.Errorf("%s: WriteTo a good writer: %d, %v", name, n, err)
	}
}

func TestWriteToShortWriter(t *testing.T) {
	f := mustNew[string](t, 1000, 0.01)
	f.AddAll(goldenKeys())
	checkShortWrites(t, "Filter[string]", f)
	b, _ := f.MarshalBinary()
	if littleEndian {
		v, err := View[string](aligned(b))
		if err != nil {
			t.Fatal(err)
		}
		checkShortWrites(t, "FilterView[string]", v)
	}
	for _, p := range persistedTypes {
		checkShortWrites(t, p.name, p.build(t, 1))
	}
}
