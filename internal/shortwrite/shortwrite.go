// Package shortwrite holds the tests' broken io.Writer, which takes fewer
// bytes than it is given without an error, and the check every encoder's
// WriteTo must pass against it (io.ErrShortWrite, as io.Copy reports it).
// It is used only by tests.
package shortwrite

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// Writer accepts the first Limit bytes written to it and then writes less
// than it is given, with no error.
type Writer struct {
	Limit int
	Got   bytes.Buffer
}

// Write takes what fits under Limit and reports nil.
func (w *Writer) Write(p []byte) (int, error) {
	n := min(len(p), w.Limit-w.Got.Len())
	w.Got.Write(p[:n])
	return n, nil
}

// Limits are the byte counts the checks stop writers at for an encoding of
// n bytes: none, a few, past a 64-byte header, all but one.
func Limits(n int) []int {
	var ls []int
	for _, l := range []int{0, 10, 70, n - 1} {
		if l >= 0 && l < n && (len(ls) == 0 || l > ls[len(ls)-1]) {
			ls = append(ls, l)
		}
	}
	return ls
}

// Check calls write, which writes want, with Writers stopped at each of
// Limits(len(want)): each must fail with io.ErrShortWrite, report the bytes
// the writer took when it counts them (n >= 0; write returns -1 where the
// API reports no count) and have written a prefix of want. A good writer
// must then get all of want.
func Check(t *testing.T, name string, want []byte, write func(io.Writer) (int64, error)) {
	t.Helper()
	for _, limit := range Limits(len(want)) {
		w := &Writer{Limit: limit}
		n, err := write(w)
		if !errors.Is(err, io.ErrShortWrite) {
			t.Errorf("%s: to a writer that takes %d of %d bytes: %d, %v; want io.ErrShortWrite", name, limit, len(want), n, err)
		}
		if (n >= 0 && n != int64(w.Got.Len())) || !bytes.Equal(w.Got.Bytes(), want[:w.Got.Len()]) {
			t.Errorf("%s: reports %d bytes, the writer took %d (a prefix: %v)", name, n, w.Got.Len(), bytes.Equal(w.Got.Bytes(), want[:w.Got.Len()]))
		}
	}
	var full bytes.Buffer
	if n, err := write(&full); err != nil || (n >= 0 && n != int64(len(want))) || !bytes.Equal(full.Bytes(), want) {
		t.Errorf("%s: to a good writer: %d, %v", name, n, err)
	}
}
