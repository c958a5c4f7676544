package sbparquet

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
)

// maxFooterBytes bounds the file metadata ReadFooter accepts. Real footers
// are kilobytes to tens of megabytes; a length beyond this is refused
// before anything is read.
const maxFooterBytes = 256 << 20

// PhysicalType is a Parquet physical type, as a column chunk's metadata
// gives it. Its String method returns the specification's name (INT32,
// BYTE_ARRAY, ...).
type PhysicalType int32

// The Parquet physical types, numbered as in parquet.thrift.
const (
	Boolean           PhysicalType = 0
	Int32             PhysicalType = 1
	Int64             PhysicalType = 2
	Int96             PhysicalType = 3
	Float             PhysicalType = 4
	Double            PhysicalType = 5
	ByteArray         PhysicalType = 6
	FixedLenByteArray PhysicalType = 7
)

var typeNames = [...]string{"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}

// String returns the type's name in the Parquet specification, or
// "TYPE(n)" for a number it does not define.
func (t PhysicalType) String() string {
	if t >= 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("TYPE(%d)", int32(t))
}

// Footer is what ReadFooter decodes from a Parquet file's metadata: the
// row groups and, for each, its column chunks with the place of their Bloom
// filters. Fields of the metadata it does not need (the schema, statistics,
// page offsets, ...) are skipped.
type Footer struct {
	Version   int32      // the file's format version
	NumRows   int64      // rows in the file
	CreatedBy string     // the writer's name and version, if it recorded one
	RowGroups []RowGroup // in file order
	// MetadataBytes is the length of the Thrift file metadata in the footer.
	MetadataBytes int64
}

// RowGroup is one row group of a Footer.
type RowGroup struct {
	NumRows       int64         // rows in the row group
	TotalByteSize int64         // uncompressed bytes of its column data
	Columns       []ColumnChunk // one per leaf column, in schema order
}

// ColumnChunk is one column of one row group: its path, its physical type
// and where its Bloom filter is, if it has one. Read the filter with
// ReadFilter.
type ColumnChunk struct {
	// Path is the column's path_in_schema (["a", "b"] for a.b). It is nil
	// when the footer does not hold the chunk's metadata (a column
	// encrypted with its own key).
	Path []string
	Type PhysicalType
	// NumValues is the number of values in the chunk, nulls included.
	NumValues int64
	// FilePath is set when the chunk lives in another file, which
	// ReadFilter cannot read; it is empty for nearly every file.
	FilePath string
	// HasBloomFilter says whether the metadata gives a bloom_filter_offset.
	HasBloomFilter bool
	// BloomFilterOffset is where the filter's header starts in the file.
	BloomFilterOffset int64
	// BloomFilterLength is the length of header plus bitset, or 0 when
	// the writer did not record it (the field is newer than the offset).
	BloomFilterLength int32
}

// Name returns the column's path joined with dots ("a.b"), as tools
// usually print it.
func (c *ColumnChunk) Name() string { return strings.Join(c.Path, ".") }

// ReadFooter reads the footer of the Parquet file r of size bytes:
// `<metadata> <4-byte little-endian length> "PAR1"` at its end, the
// metadata in the Thrift compact protocol. It reads the 8 last bytes, the
// 4 first ones and the metadata, and nothing else.
//
//	f, err := os.Open(name)
//	st, err := f.Stat()
//	footer, err := sbparquet.ReadFooter(f, st.Size())
//	for i, rg := range footer.RowGroups {
//		for _, c := range rg.Columns {
//			if c.HasBloomFilter {
//				filter, err := c.ReadFilter(f, st.Size())
//				... filter.HasHash(sbparquet.HashString("Paris")) // row group i may hold "Paris"
//			}
//		}
//	}
//
// A file without "PAR1" at both ends fails with bloom.ErrMagic, an encrypted
// footer ("PARE") with bloom.ErrVariant, a metadata length beyond the file or
// 256 MiB with bloom.ErrTruncated (wrapping io.ErrUnexpectedEOF) or
// bloom.ErrCorrupt, and metadata that is not valid Thrift, lacks a required
// field, gives a field the wrong type or nests deeper than 32 levels with
// bloom.ErrCorrupt. Unknown fields, of any type, are skipped. It allocates the
// metadata's length once that is known to fit in the file, and then memory
// in proportion to what it decodes: no count or length read from the input
// sizes an allocation before the bytes behind it are known to exist.
func ReadFooter(r io.ReaderAt, size int64) (*Footer, error) {
	if size < 12 {
		return nil, fmt.Errorf("%w: parquet file of %s: too short for a footer: %w", errs.ErrTruncated, errs.Count(size, "byte"), io.ErrUnexpectedEOF)
	}
	var tail [8]byte
	if err := readAt(r, tail[:], size-8, "footer"); err != nil {
		return nil, err
	}
	switch string(tail[4:]) {
	case "PAR1":
	case "PARE":
		return nil, fmt.Errorf("%w: parquet file with an encrypted footer (PARE): not supported", errs.ErrVariant)
	default:
		return nil, notParquet(fmt.Sprintf("not a parquet file: it ends in %q, not \"PAR1\"", tail[4:]))
	}
	var head [4]byte
	if err := readAt(r, head[:], 0, "header"); err != nil {
		return nil, err
	}
	if string(head[:]) != "PAR1" {
		return nil, notParquet(fmt.Sprintf("not a parquet file: it starts with %q, not \"PAR1\"", head[:]))
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n == 0 {
		return nil, fmt.Errorf("%w: parquet footer gives an empty file metadata", errs.ErrCorrupt)
	}
	if n > maxFooterBytes {
		return nil, fmt.Errorf("%w: parquet footer gives %d bytes of file metadata, more than the %d this reader accepts", errs.ErrCorrupt, n, maxFooterBytes)
	}
	if n > size-12 {
		return nil, fmt.Errorf("%w: parquet footer gives %d bytes of file metadata, but the file holds only %d before it: %w", errs.ErrTruncated, n, size-12, io.ErrUnexpectedEOF)
	}
	meta := make([]byte, n)
	if err := readAt(r, meta, size-8-n, "file metadata"); err != nil {
		return nil, err
	}
	f, err := decodeFileMetaData(meta)
	if err != nil {
		return nil, err
	}
	f.MetadataBytes = n
	dataEnd := size - 8 - n
	for _, rg := range f.RowGroups {
		for i := range rg.Columns {
			c := &rg.Columns[i]
			if !c.HasBloomFilter {
				continue
			}
			if c.BloomFilterOffset < 4 || c.BloomFilterOffset >= dataEnd {
				return nil, fmt.Errorf("%w: column %s has its bloom filter at byte %d, outside the data (4 to %d)", errs.ErrCorrupt, c.Name(), c.BloomFilterOffset, dataEnd)
			}
			if c.BloomFilterLength != 0 && int64(c.BloomFilterLength) > dataEnd-c.BloomFilterOffset {
				return nil, fmt.Errorf("%w: column %s has a bloom filter of %d bytes at byte %d, past the data's end at %d", errs.ErrCorrupt, c.Name(), c.BloomFilterLength, c.BloomFilterOffset, dataEnd)
			}
		}
	}
	return f, nil
}

// magicError is bloom.ErrMagic in words about Parquet files (bloom.ErrMagic's own
// message speaks of simdbloom's format).
type magicError struct{ msg string }

func (e *magicError) Error() string        { return "bloom: " + e.msg }
func (e *magicError) Is(target error) bool { return target == errs.ErrMagic }

func notParquet(msg string) error { return &magicError{msg} }

// readAt fills b from r at off; a short read is bloom.ErrTruncated.
func readAt(r io.ReaderAt, b []byte, off int64, what string) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: parquet file ends inside its %s (%d of %d bytes at byte %d): %w", errs.ErrTruncated, what, n, len(b), off, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("reading the parquet %s: %w", what, err)
}

// ReadFilter reads the chunk's Bloom filter from r, the file of size bytes
// whose footer gave c, with the package's ReadFilter: its errors, and
// bloom.ErrCorrupt when the filter's header and bitset are not exactly
// BloomFilterLength bytes (when the writer recorded a length). A chunk
// without a filter, or stored in another file (FilePath), is an error
// wrapping bloom.ErrVariant.
func (c *ColumnChunk) ReadFilter(r io.ReaderAt, size int64) (*blocked.SplitBlock, error) {
	if !c.HasBloomFilter {
		return nil, fmt.Errorf("%w: column %s has no bloom filter", errs.ErrVariant, c.Name())
	}
	if c.FilePath != "" {
		return nil, fmt.Errorf("%w: column %s is stored in another file (%s)", errs.ErrVariant, c.Name(), c.FilePath)
	}
	if c.BloomFilterOffset < 0 || c.BloomFilterOffset >= size {
		return nil, fmt.Errorf("%w: column %s has its bloom filter at byte %d of a %d-byte file", errs.ErrCorrupt, c.Name(), c.BloomFilterOffset, size)
	}
	n := size - c.BloomFilterOffset
	if c.BloomFilterLength > 0 {
		if int64(c.BloomFilterLength) > n {
			return nil, fmt.Errorf("%w: column %s has a bloom filter of %d bytes at byte %d of a %d-byte file", errs.ErrCorrupt, c.Name(), c.BloomFilterLength, c.BloomFilterOffset, size)
		}
		n = int64(c.BloomFilterLength)
	}
	sec := io.NewSectionReader(r, c.BloomFilterOffset, n)
	br := bufio.NewReaderSize(sec, 256)
	s, err := ReadFilter(br)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", c.Name(), err)
	}
	if c.BloomFilterLength > 0 {
		// ReadFilter read the header and bitset; what is left of the
		// section must be nothing.
		left := int64(br.Buffered())
		if pos, _ := sec.Seek(0, io.SeekCurrent); pos < n {
			left += n - pos
		}
		if left != 0 {
			return nil, fmt.Errorf("%w: column %s: bloom_filter_length is %d, but header and bitset take %d bytes", errs.ErrCorrupt, c.Name(), c.BloomFilterLength, n-left)
		}
	}
	return s, nil
}

// decodeFileMetaData decodes a Thrift compact FileMetaData.
func decodeFileMetaData(b []byte) (*Footer, error) {
	c := newMetadata(b)
	f := &Footer{}
	var seenRows, seenGroups bool
	err := c.fields(1, func(typ byte, id int16) (bool, error) {
		var err error
		switch id {
		case 1: // version: i32
			if err = c.want("version", typ, tI32); err == nil {
				f.Version, err = c.i32()
			}
		case 3: // num_rows: i64
			if err = c.want("num_rows", typ, tI64); err == nil {
				f.NumRows, err = c.i64()
				seenRows = true
			}
		case 4: // row_groups: list<RowGroup>
			if err = c.want("row_groups", typ, tList); err == nil {
				f.RowGroups, err = decodeList(c, "row group", 2, decodeRowGroup)
				seenGroups = true
			}
		case 6: // created_by: string
			var s []byte
			if err = c.want("created_by", typ, tBinary); err == nil {
				s, err = c.binary()
				f.CreatedBy = string(s)
			}
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return nil, err
	}
	if !seenRows || !seenGroups {
		return nil, c.corrupt("file metadata lacks num_rows or row_groups")
	}
	if c.off != len(b) {
		return nil, c.corrupt("%s after the file metadata", errs.Count(len(b)-c.off, "byte"))
	}
	return f, nil
}

// decodeList reads a list of structs with dec, growing the result only as
// elements are decoded.
func decodeList[T any](c *compact, what string, depth int, dec func(*compact, int) (T, error)) ([]T, error) {
	elem, n, err := c.list()
	if err != nil {
		return nil, err
	}
	if elem != tStruct {
		return nil, c.corrupt("list of %ss has element type %d, want a struct", what, elem)
	}
	var out []T
	for ; n > 0; n-- {
		v, err := dec(c, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// decodeRowGroup decodes a RowGroup struct.
func decodeRowGroup(c *compact, depth int) (RowGroup, error) {
	var rg RowGroup
	var seenCols, seenRows bool
	err := c.fields(depth, func(typ byte, id int16) (bool, error) {
		var err error
		switch id {
		case 1: // columns: list<ColumnChunk>
			if err = c.want("row group columns", typ, tList); err == nil {
				rg.Columns, err = decodeList(c, "column chunk", depth+1, decodeColumnChunk)
				seenCols = true
			}
		case 2: // total_byte_size: i64
			if err = c.want("total_byte_size", typ, tI64); err == nil {
				rg.TotalByteSize, err = c.i64()
			}
		case 3: // num_rows: i64
			if err = c.want("row group num_rows", typ, tI64); err == nil {
				rg.NumRows, err = c.i64()
				seenRows = true
			}
		default:
			return false, nil
		}
		return true, err
	})
	if err == nil && (!seenCols || !seenRows) {
		err = c.corrupt("row group lacks columns or num_rows")
	}
	return rg, err
}

// decodeColumnChunk decodes a ColumnChunk struct and its ColumnMetaData.
func decodeColumnChunk(c *compact, depth int) (ColumnChunk, error) {
	var cc ColumnChunk
	err := c.fields(depth, func(typ byte, id int16) (bool, error) {
		var err error
		switch id {
		case 1: // file_path: string
			var s []byte
			if err = c.want("file_path", typ, tBinary); err == nil {
				s, err = c.binary()
				cc.FilePath = string(s)
			}
		case 3: // meta_data: ColumnMetaData
			if err = c.want("column meta_data", typ, tStruct); err == nil {
				err = decodeColumnMetaData(c, depth+1, &cc)
			}
		default:
			return false, nil
		}
		return true, err
	})
	return cc, err
}

// decodeColumnMetaData decodes the fields of a ColumnMetaData into cc.
func decodeColumnMetaData(c *compact, depth int, cc *ColumnChunk) error {
	var seenType, seenPath bool
	err := c.fields(depth, func(typ byte, id int16) (bool, error) {
		var err error
		var v int64
		switch id {
		case 1: // type: enum Type (i32)
			if err = c.want("column type", typ, tI32); err == nil {
				var t int32
				t, err = c.i32()
				cc.Type = PhysicalType(t)
				seenType = true
			}
		case 3: // path_in_schema: list<string>
			if err = c.want("path_in_schema", typ, tList); err == nil {
				cc.Path, err = decodePath(c)
				seenPath = true
			}
		case 5: // num_values: i64
			if err = c.want("num_values", typ, tI64); err == nil {
				cc.NumValues, err = c.i64()
			}
		case 14: // bloom_filter_offset: i64
			if err = c.want("bloom_filter_offset", typ, tI64); err == nil {
				cc.BloomFilterOffset, err = c.i64()
				cc.HasBloomFilter = true
			}
		case 15: // bloom_filter_length: i32
			if err = c.want("bloom_filter_length", typ, tI32); err == nil {
				if v, err = c.zigzag(32); err == nil {
					cc.BloomFilterLength, err = c.int32In("bloom_filter_length", v, 0, 1<<31-1)
				}
			}
		default:
			return false, nil
		}
		return true, err
	})
	if err == nil && (!seenType || !seenPath) {
		err = c.corrupt("column metadata lacks its type or path_in_schema")
	}
	return err
}

// decodePath decodes a path_in_schema list of strings.
func decodePath(c *compact) ([]string, error) {
	elem, n, err := c.list()
	if err != nil {
		return nil, err
	}
	if elem != tBinary {
		return nil, c.corrupt("path_in_schema has element type %d, want strings", elem)
	}
	var path []string
	for ; n > 0; n-- {
		s, err := c.binary()
		if err != nil {
			return nil, err
		}
		path = append(path, string(s))
	}
	if len(path) == 0 {
		return nil, c.corrupt("empty path_in_schema")
	}
	return path, nil
}
