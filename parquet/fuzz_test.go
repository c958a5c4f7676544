package sbparquet

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"
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
			if !errors.Is(err, errs.ErrCorrupt) && !errors.Is(err, errs.ErrVariant) && !errors.Is(err, errs.ErrHashMismatch) &&
				!(errors.Is(err, errs.ErrTruncated) && errors.Is(err, io.ErrUnexpectedEOF)) {
				t.Fatalf("undocumented error: %v", err)
			}
			return
		}
		consumed := len(in) - r.Len()
		n := int((g.NumBits() / 8))
		if n%32 != 0 || n == 0 || n > MaxFilterBytes || n > consumed {
			t.Fatalf("filter of %d bytes from %d consumed", n, consumed)
		}
		if !bytes.Equal(g.Bitset(), in[consumed-n:consumed]) {
			t.Fatal("bitset is not the bytes after the header")
		}
	})
}

// FuzzReadFooter feeds arbitrary files to ReadFooter and reads every filter
// its footer points to: it must never panic, must fail only with the
// documented errors, and a footer it accepts must point inside the file's
// data and hold no more row groups and columns than the metadata has bytes.
func FuzzReadFooter(f *testing.F) {
	if real, err := os.ReadFile("testdata/cities.parquet"); err == nil {
		f.Add(real)
	}
	filter, _ := New(10, 0.01)
	filter.AddHash(HashString("x"))
	groups := [][]testChunk{{{path: []string{"a"}, typ: Int64, extraFields: true}, {path: []string{"b", "c"}, typ: ByteArray}}}
	f.Add(testFile(f, groups, [][]*blocked.SplitBlock{{filter, nil}}, true))
	f.Add(testFile(f, groups, [][]*blocked.SplitBlock{{nil, filter}}, false))
	f.Add(appendTail([]byte("PAR1"), []byte{0x49, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		size := int64(len(in))
		ft, err := ReadFooter(r, size)
		if err != nil {
			if ft != nil {
				t.Fatal("ReadFooter returned a footer and an error")
			}
			if !errors.Is(err, errs.ErrCorrupt) && !errors.Is(err, errs.ErrVariant) && !errors.Is(err, errs.ErrMagic) &&
				!(errors.Is(err, errs.ErrTruncated) && errors.Is(err, io.ErrUnexpectedEOF)) {
				t.Fatalf("undocumented error: %v", err)
			}
			return
		}
		dataEnd := size - 8 - ft.MetadataBytes
		elems := int64(len(ft.RowGroups))
		for _, rg := range ft.RowGroups {
			elems += int64(len(rg.Columns))
			for _, c := range rg.Columns {
				if !c.HasBloomFilter {
					continue
				}
				if c.BloomFilterOffset < 4 || c.BloomFilterOffset+int64(c.BloomFilterLength) > dataEnd {
					t.Fatalf("filter at %d (%d bytes) outside the data, which ends at %d", c.BloomFilterOffset, c.BloomFilterLength, dataEnd)
				}
				g, err := c.ReadFilter(r, size)
				if err != nil {
					if !errors.Is(err, errs.ErrCorrupt) && !errors.Is(err, errs.ErrVariant) && !errors.Is(err, errs.ErrHashMismatch) &&
						!(errors.Is(err, errs.ErrTruncated) && errors.Is(err, io.ErrUnexpectedEOF)) {
						t.Fatalf("undocumented filter error: %v", err)
					}
					continue
				}
				if int64((g.NumBits() / 8)) > size-c.BloomFilterOffset {
					t.Fatalf("filter of %d bytes at %d in a %d-byte file", (g.NumBits() / 8), c.BloomFilterOffset, size)
				}
			}
		}
		if elems > ft.MetadataBytes {
			t.Fatalf("%d row groups and columns from %d bytes of metadata", elems, ft.MetadataBytes)
		}
	})
}
