package sbparquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"
)

// tw writes the Thrift compact protocol, for building test footers.
type tw struct {
	b    []byte
	last []int16 // previous field id, per open struct
}

func (w *tw) uvarint(v uint64) *tw {
	w.b = binary.AppendUvarint(w.b, v)
	return w
}

func (w *tw) zz(v int64) *tw { return w.uvarint(uint64(v<<1) ^ uint64(v>>63)) }

// field writes a field header with a delta when it fits, else the long form.
func (w *tw) field(id int16, typ byte) *tw {
	last := &w.last[len(w.last)-1]
	if d := id - *last; d > 0 && d <= 15 {
		w.b = append(w.b, byte(d)<<4|typ)
	} else {
		w.b = append(w.b, typ)
		w.zz(int64(id))
	}
	*last = id
	return w
}

func (w *tw) raw(b ...byte) *tw { w.b = append(w.b, b...); return w }
func (w *tw) begin() *tw        { w.last = append(w.last, 0); return w }
func (w *tw) end() *tw {
	w.b = append(w.b, tStop)
	w.last = w.last[:len(w.last)-1]
	return w
}
func (w *tw) i32(id int16, v int32) *tw { return w.field(id, tI32).zz(int64(v)) }
func (w *tw) i64(id int16, v int64) *tw { return w.field(id, tI64).zz(v) }
func (w *tw) str(id int16, s string) *tw {
	w.field(id, tBinary).uvarint(uint64(len(s)))
	w.b = append(w.b, s...)
	return w
}
func (w *tw) list(id int16, elem byte, n int) *tw {
	w.field(id, tList)
	if n < 15 {
		w.b = append(w.b, byte(n)<<4|elem)
	} else {
		w.b = append(w.b, 0xf0|elem)
		w.uvarint(uint64(n))
	}
	return w
}
func (w *tw) structField(id int16) *tw { return w.field(id, tStruct).begin() }

// testChunk describes a column chunk of a test footer.
type testChunk struct {
	path        []string
	typ         PhysicalType
	off         int64 // bloom_filter_offset; 0 = none
	length      int32 // bloom_filter_length; 0 = not written
	extraFields bool  // add unknown fields of every type
}

// appendMeta appends a FileMetaData with the row groups of chunks.
func appendMeta(groups [][]testChunk) []byte {
	w := (&tw{}).begin()
	w.i32(1, 2)
	w.list(2, tStruct, 1).begin().str(4, "schema").end() // schema: skipped
	w.i64(3, int64(len(groups))*1000)
	w.list(4, tStruct, len(groups))
	for _, g := range groups {
		w.begin()
		w.list(1, tStruct, len(g))
		for _, c := range g {
			w.begin()
			w.i64(2, 4)
			w.structField(3)
			w.i32(1, int32(c.typ))
			w.list(2, tI32, 1).zz(0) // encodings
			w.list(3, tBinary, len(c.path))
			for _, p := range c.path {
				w.uvarint(uint64(len(p)))
				w.b = append(w.b, p...)
			}
			w.i32(4, 0).i64(5, 1000).i64(6, 1).i64(7, 1).i64(9, 4)
			if c.extraFields {
				w.field(10, tList).raw(0x1c, 0x00) // list of one empty struct
				w.field(11, tDouble).raw(make([]byte, 8)...)
				w.field(12, tStruct).raw(0x18, 0x02, 'h', 'i', 0x11, 0x19, 0x21, 0x01, 0x02, 0x00) // binary, bool, list<bool>
				w.field(13, tMap).raw(0x01, 0x85, 0x01, 'k', 0x0a)                                 // map<binary,i32>
			}
			if c.off != 0 {
				w.i64(14, c.off)
			}
			if c.length != 0 {
				w.i32(15, c.length)
			}
			if c.extraFields {
				w.field(200, tUUID).raw(make([]byte, 16)...)
				w.field(201, tTrue)
				w.field(202, tByte).raw(7)
				w.field(203, tSet).raw(0x26, 0x02, 0x04) // set<i64>{1,2}
			}
			w.end() // ColumnMetaData
			w.end() // ColumnChunk
		}
		w.i64(2, 100).i64(3, 1000)
		w.end()
	}
	w.str(6, "simdbloom test")
	w.field(99, tI16).zz(3) // unknown field
	return w.end().b
}

// testFile returns a Parquet file: "PAR1", the filters, metadata, length, "PAR1".
// chunks' offsets are filled in for entries of filters that are not nil.
func testFile(t testing.TB, groups [][]testChunk, filters [][]*blocked.SplitBlock, withLength bool) []byte {
	t.Helper()
	file := []byte("PAR1")
	for i := range groups {
		for j := range groups[i] {
			if filters == nil || filters[i][j] == nil {
				continue
			}
			var buf bytes.Buffer
			if err := WriteFilter(&buf, filters[i][j]); err != nil {
				t.Fatal(err)
			}
			groups[i][j].off = int64(len(file))
			if withLength {
				groups[i][j].length = int32(buf.Len())
			}
			file = append(file, buf.Bytes()...)
		}
	}
	return appendTail(file, appendMeta(groups))
}

func appendTail(file, meta []byte) []byte {
	file = append(file, meta...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(meta)))
	return append(file, "PAR1"...)
}

// TestReadFooter decodes a footer with two row groups of three columns, some
// with filters, unknown fields of every Thrift type among them, and reads
// back each filter equal to the one written.
func TestReadFooter(t *testing.T) {
	for _, withLength := range []bool{false, true} {
		groups := [][]testChunk{
			{{path: []string{"id"}, typ: Int64, extraFields: true}, {path: []string{"a", "name"}, typ: ByteArray}, {path: []string{"x"}, typ: Double}},
			{{path: []string{"id"}, typ: Int64}, {path: []string{"a", "name"}, typ: ByteArray, extraFields: true}, {path: []string{"x"}, typ: Double}},
		}
		filters := make([][]*blocked.SplitBlock, 2)
		for g := range filters {
			filters[g] = make([]*blocked.SplitBlock, 3)
			for c := range 2 { // column x has no filter
				f, err := New(100*uint64(g+c+1), 0.01)
				if err != nil {
					t.Fatal(err)
				}
				for v := range int64(100 * (g + c + 1)) {
					f.AddHash(HashInt64(v*10 + int64(g)))
				}
				filters[g][c] = f
			}
		}
		file := testFile(t, groups, filters, withLength)
		r := bytes.NewReader(file)
		ft, err := ReadFooter(r, int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		if ft.Version != 2 || ft.NumRows != 2000 || ft.CreatedBy != "simdbloom test" || len(ft.RowGroups) != 2 {
			t.Fatalf("footer %+v", ft)
		}
		for g, rg := range ft.RowGroups {
			if rg.NumRows != 1000 || rg.TotalByteSize != 100 || len(rg.Columns) != 3 {
				t.Fatalf("row group %d: %+v", g, rg)
			}
			for c, cc := range rg.Columns {
				want := groups[g][c]
				if cc.Name() != strings.Join(want.path, ".") || cc.Type != want.typ || cc.NumValues != 1000 ||
					cc.HasBloomFilter != (filters[g][c] != nil) || cc.BloomFilterOffset != want.off || cc.BloomFilterLength != want.length {
					t.Fatalf("row group %d column %d: %+v, want %+v", g, c, cc, want)
				}
				got, err := cc.ReadFilter(r, int64(len(file)))
				if filters[g][c] == nil {
					if !errors.Is(err, errs.ErrVariant) {
						t.Fatalf("row group %d column %s without a filter: %v, want errs.ErrVariant", g, cc.Name(), err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(filters[g][c]) {
					t.Fatalf("row group %d column %s: filter differs from the one written", g, cc.Name())
				}
			}
		}
	}
}

func TestPhysicalTypeString(t *testing.T) {
	if Int32.String() != "INT32" || FixedLenByteArray.String() != "FIXED_LEN_BYTE_ARRAY" || PhysicalType(9).String() != "TYPE(9)" {
		t.Fatal(Int32, FixedLenByteArray, PhysicalType(9))
	}
}

// Every malformed file fails with its documented error, and never panics.
func TestReadFooterErrors(t *testing.T) {
	good := testFile(t, [][]testChunk{{{path: []string{"id"}, typ: Int64}}}, nil, false)
	meta := good[4 : len(good)-8]
	withMeta := func(m []byte) []byte { return appendTail([]byte("PAR1"), m) }
	cases := []struct {
		name string
		in   []byte
		want []error
	}{
		{"empty", nil, []error{errs.ErrTruncated, io.ErrUnexpectedEOF}},
		{"11 bytes", []byte("PAR1abcPAR1"), []error{errs.ErrTruncated}},
		{"no tail magic", append(bytes.Clone(good[:len(good)-1]), 'X'), []error{errs.ErrMagic}},
		{"no head magic", append([]byte("PAR0"), good[4:]...), []error{errs.ErrMagic}},
		{"encrypted", append(bytes.Clone(good[:len(good)-4]), "PARE"...), []error{errs.ErrVariant}},
		{"zero length", appendTail([]byte("PAR1"), nil), []error{errs.ErrCorrupt}},
		{"length past start", append(append(bytes.Clone(good[:len(good)-8]), 0xff, 0xff, 0, 0), "PAR1"...), []error{errs.ErrTruncated, io.ErrUnexpectedEOF}},
		{"length beyond limit", append(append(bytes.Clone(good[:len(good)-8]), 0xff, 0xff, 0xff, 0xff), "PAR1"...), []error{errs.ErrCorrupt}},
		{"metadata cut", withMeta(meta[:len(meta)-5]), []error{errs.ErrCorrupt}},
		{"trailing byte", withMeta(append(bytes.Clone(meta), 0)), []error{errs.ErrCorrupt}},
		{"junk", withMeta([]byte("this is not thrift at all")), []error{errs.ErrCorrupt}},
		{"huge list", withMeta([]byte{0x49, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07}), []error{errs.ErrCorrupt}},
		{"huge string", withMeta([]byte{0x68, 0xff, 0xff, 0xff, 0xff, 0x07}), []error{errs.ErrCorrupt}},
		{"wrong type", withMeta([]byte{0x16, 0x02, 0x00}), []error{errs.ErrCorrupt}}, // version as i64
		{"no row groups", withMeta([]byte{0x15, 0x02, 0x26, 0x02, 0x00}), []error{errs.ErrCorrupt}},
		{"deep", withMeta(append(append([]byte{0x2c}, bytes.Repeat([]byte{0x1c}, 99)...), make([]byte, 101)...)), []error{errs.ErrCorrupt}},
		{"varint too long", withMeta([]byte{0x15, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00}), []error{errs.ErrCorrupt}},
		{"unknown type", withMeta([]byte{0x2e, 0x00}), []error{errs.ErrCorrupt}},
		{"filter outside data", testFile(t, [][]testChunk{{{path: []string{"id"}, typ: Int64, off: 1 << 40}}}, nil, false), []error{errs.ErrCorrupt}},
		{"filter in magic", testFile(t, [][]testChunk{{{path: []string{"id"}, typ: Int64, off: 1}}}, nil, false), []error{errs.ErrCorrupt}},
		{"column without type", withMeta((&tw{}).begin().i64(3, 1).list(4, tStruct, 1).begin().list(1, tStruct, 1).begin().
			structField(3).list(3, tBinary, 1).uvarint(1).raw('a').end().end().i64(3, 1).end().end().b), []error{errs.ErrCorrupt}},
	}
	for _, c := range cases {
		f, err := ReadFooter(bytes.NewReader(c.in), int64(len(c.in)))
		if f != nil || err == nil {
			t.Errorf("%s: footer %v, error %v; want an error", c.name, f, err)
			continue
		}
		for _, w := range c.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: %v; want %v", c.name, err, w)
			}
		}
	}
}

// ReadFilter of a chunk checks bloom_filter_length against the filter read,
// and refuses a filter cut off by the file's end.
func TestColumnChunkReadFilterErrors(t *testing.T) {
	f, _ := New(100, 0.01)
	var buf bytes.Buffer
	if err := WriteFilter(&buf, f); err != nil {
		t.Fatal(err)
	}
	file := append(append([]byte("PAR1"), buf.Bytes()...), "more data"...)
	r := bytes.NewReader(file)
	size := int64(len(file))
	for _, c := range []struct {
		name string
		cc   ColumnChunk
		want error
	}{
		{"length too long", ColumnChunk{HasBloomFilter: true, BloomFilterOffset: 4, BloomFilterLength: int32(buf.Len() + 1)}, errs.ErrCorrupt},
		{"length too short", ColumnChunk{HasBloomFilter: true, BloomFilterOffset: 4, BloomFilterLength: int32(buf.Len() - 1)}, errs.ErrTruncated},
		{"length past the end", ColumnChunk{HasBloomFilter: true, BloomFilterOffset: 4, BloomFilterLength: int32(size)}, errs.ErrCorrupt},
		{"past the end", ColumnChunk{HasBloomFilter: true, BloomFilterOffset: size}, errs.ErrCorrupt},
		{"other file", ColumnChunk{HasBloomFilter: true, BloomFilterOffset: 4, FilePath: "x.parquet"}, errs.ErrVariant},
	} {
		if g, err := c.cc.ReadFilter(r, size); g != nil || !errors.Is(err, c.want) {
			t.Errorf("%s: %v; want %v", c.name, err, c.want)
		}
	}
	cc := ColumnChunk{HasBloomFilter: true, BloomFilterOffset: 4, BloomFilterLength: int32(buf.Len())}
	if g, err := cc.ReadFilter(r, size); err != nil || !g.Equal(f) {
		t.Fatalf("exact length: %v", err)
	}
	// Cut one byte off the bitset: truncated.
	cut := file[:4+buf.Len()-1]
	cc.BloomFilterLength = 0
	if g, err := cc.ReadFilter(bytes.NewReader(cut), int64(len(cut))); g != nil || !errors.Is(err, errs.ErrTruncated) {
		t.Fatalf("cut bitset: %v", err)
	}
}

// A metadata claiming 2^31 row groups in a few bytes fails without
// allocating for them: the memory used stays near the input's size.
func TestReadFooterNoClaimAllocation(t *testing.T) {
	in := appendTail([]byte("PAR1"), []byte{0x49, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 100 {
		if _, err := ReadFooter(bytes.NewReader(in), int64(len(in))); err == nil {
			t.Fatal("no error")
		}
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Fatalf("100 reads of a %d-byte hostile footer allocated %d bytes", len(in), d)
	}
}
