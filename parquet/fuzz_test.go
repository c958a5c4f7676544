package parquet

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReadFilter feeds arbitrary bytes to ReadFilter: it must never panic,
// must fail with one of the documented errors or return a filter whose
// bitset is exactly the bytes after the header, and must not allocate much
// more than its input (a header may claim up to 128 MiB).
func FuzzReadFilter(f *testing.F) {
	f.Add(append(AppendHeader(nil, 32), make([]byte, 32)...))
	f.Add(append(AppendHeader(nil, 64), bytes.Repeat([]byte{0xa5}, 64)...))
	f.Add(append(AppendHeader(nil, MaxFilterBytes), make([]byte, 10)...))
	f.Add(AppendHeader(nil, 1024)[:5])
	f.Add([]byte{0x15, 0x40, 0x1c, 0x2c, 0, 0, 0})
	f.Add([]byte{0x15, 0xc0, 0x01, 0x68, 0x02, 'x', 'y', 0x29, 0x25, 0x02, 0x04, 0x0c, 0x04, 0x1c, 0x26, 0x02, 0, 0,
		0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		g, err := ReadFilter(r)
		if err != nil {
			if g != nil {
				t.Fatal("ReadFilter returned a filter and an error")
			}
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVariant) && !errors.Is(err, ErrHashMismatch) &&
				!(errors.Is(err, ErrTruncated) && errors.Is(err, io.ErrUnexpectedEOF)) {
				t.Fatalf("undocumented error: %v", err)
			}
			return
		}
		consumed := len(in) - r.Len()
		n := int(g.SizeBytes())
		if n%32 != 0 || n == 0 || n > MaxFilterBytes || n > consumed {
			t.Fatalf("filter of %d bytes from %d consumed", n, consumed)
		}
		if !bytes.Equal(g.Bitset(), in[consumed-n:consumed]) {
			t.Fatal("bitset is not the bytes after the header")
		}
	})
}
