package interop

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	pqbloom "github.com/parquet-go/parquet-go/bloom"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/simdbloom/bloom/blocked"
	sbparquet "github.com/simdbloom/bloom/parquet"
)

// column is a set of values of one Parquet physical type, hashed both ways.
type column struct {
	name string
	ours []uint64 // simdbloom's hashes
	peer []uint64 // parquet-go's hashes
}

// makeColumn returns n values of the named type with both libraries' hashes.
func makeColumn(name string, n int, seed uint64) column {
	r := rand.New(rand.NewPCG(seed, 5))
	c := column{name: name, ours: make([]uint64, n), peer: make([]uint64, n)}
	var x pqbloom.XXH64
	for i := range n {
		switch name {
		case "INT64":
			v := r.Int64()
			c.ours[i], c.peer[i] = sbparquet.HashInt64(v), x.Sum64Uint64(uint64(v))
		case "INT32":
			v := int32(r.Uint32())
			c.ours[i], c.peer[i] = sbparquet.HashInt32(v), x.Sum64Uint32(uint32(v))
		case "DOUBLE":
			v := r.NormFloat64() * 1e6
			c.ours[i], c.peer[i] = sbparquet.HashFloat64(v), x.Sum64Uint64(math.Float64bits(v))
		case "BYTE_ARRAY":
			v := strconv.AppendUint([]byte("key-"), r.Uint64()>>r.UintN(64), 36)
			c.ours[i], c.peer[i] = sbparquet.HashBytes(v), x.Sum64(v)
		default:
			panic(name)
		}
	}
	return c
}

var types = []string{"INT64", "INT32", "DOUBLE", "BYTE_ARRAY"}

// TestBitsetsIdentical builds the same filter with both libraries, for every
// power-of-two size from 32 bytes to 16 MiB, filled to about 10 bits per
// value (at least one value), and requires identical bitsets, identical
// header bytes and that each library finds every value the other inserted.
func TestBitsetsIdentical(t *testing.T) {
	for _, typ := range types {
		for size := 32; size <= 16<<20; size *= 2 {
			n := max(1, size*8/10)
			if testing.Short() {
				n = min(n, 100_000)
			}
			c := makeColumn(typ, n, uint64(size))
			for i := range c.ours {
				if c.ours[i] != c.peer[i] {
					t.Fatalf("%s: value %d hashes to %#x here, %#x in parquet-go", typ, i, c.ours[i], c.peer[i])
				}
			}
			peer := make(pqbloom.SplitBlockFilter, size/pqbloom.BlockSize)
			peer.InsertBulk(c.peer)
			ours, err := blocked.NewSplitBlockBytes(uint64(size))
			if err != nil {
				t.Fatal(err)
			}
			ours.AddHashes(c.ours)
			if !bytes.Equal(ours.Bitset(), peer.Bytes()) {
				t.Fatalf("%s %d bytes: bitsets differ", typ, size)
			}
			// Each side checks the other's values, single and batch.
			out := make([]bool, n)
			if got := ours.HasHashes(c.peer, out); got != n {
				t.Fatalf("%s %d bytes: simdbloom found %d of %d values parquet-go inserted", typ, size, got, n)
			}
			back := pqbloom.MakeSplitBlockFilter(ours.Bitset())
			for i, h := range c.ours {
				if !back.Check(h) || !ours.HasHash(c.peer[i]) {
					t.Fatalf("%s %d bytes: value %d missing", typ, size, i)
				}
			}
			// Header and bitset, as WriteFilter writes them, equal the
			// parquet-go thrift encoding of the header plus parquet-go's bitset.
			var buf bytes.Buffer
			if err := sbparquet.WriteFilter(&buf, ours); err != nil {
				t.Fatal(err)
			}
			want := append(peerHeader(t, size), peer.Bytes()...)
			if !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("%s %d bytes: WriteFilter output differs from parquet-go's header + bitset", typ, size)
			}
		}
	}
}

// peerHeader is parquet-go's Thrift compact encoding of the header for a
// split block, XXHASH, uncompressed bitset of size bytes.
func peerHeader(t testing.TB, size int) []byte {
	h := format.BloomFilterHeader{
		NumBytes:    int32(size),
		Algorithm:   format.BloomFilterAlgorithm{Value: &format.SplitBlockAlgorithm{}},
		Hash:        format.BloomFilterHash{Value: &format.XxHash{}},
		Compression: format.BloomFilterCompression{Value: &format.BloomFilterUncompressed{}},
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHeaderBytes compares AppendHeader with parquet-go's encoding for sizes
// whose varints have one to five bytes, and decodes ours with parquet-go.
func TestHeaderBytes(t *testing.T) {
	for _, size := range []int{32, 96, 64, 8 << 10, 1 << 20, 100 << 20, 128 << 20} {
		ours := sbparquet.AppendHeader(nil, int32(size))
		if peer := peerHeader(t, size); !bytes.Equal(ours, peer) {
			t.Fatalf("%d bytes: header % x, parquet-go % x", size, ours, peer)
		}
		var h format.BloomFilterHeader
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), ours, &h); err != nil {
			t.Fatal(err)
		}
		if h.NumBytes != int32(size) {
			t.Fatalf("parquet-go decodes numBytes %d, want %d", h.NumBytes, size)
		}
		if _, ok := h.Algorithm.Value.(*format.SplitBlockAlgorithm); !ok {
			t.Fatalf("parquet-go decodes algorithm %T", h.Algorithm.Value)
		}
		if _, ok := h.Hash.Value.(*format.XxHash); !ok {
			t.Fatalf("parquet-go decodes hash %T", h.Hash.Value)
		}
		if _, ok := h.Compression.Value.(*format.BloomFilterUncompressed); !ok {
			t.Fatalf("parquet-go decodes compression %T", h.Compression.Value)
		}
	}
}

type row struct {
	I64 int64   `parquet:"i64"`
	I32 int32   `parquet:"i32"`
	F64 float64 `parquet:"f64"`
	S   string  `parquet:"s"`
}

// TestReadParquetGoFile writes a Parquet file with parquet-go, bloom filters
// on every column, and reads each filter with ReadFilter at the column
// chunk's bloom_filter_offset: the header bytes must be ours, the bitset must
// equal a simdbloom filter of the same size built from the column's values,
// and every value must be found.
func TestReadParquetGoFile(t *testing.T) {
	const n = 50_000
	r := rand.New(rand.NewPCG(9, 9))
	rows := make([]row, n)
	for i := range rows {
		rows[i] = row{I64: r.Int64(), I32: int32(r.Uint32()), F64: r.Float64() * 1e9, S: fmt.Sprintf("value %x", r.Uint64())}
	}
	var file bytes.Buffer
	w := pq.NewGenericWriter[row](&file, pq.BloomFilters(
		pq.SplitBlockFilter(10, "i64"), pq.SplitBlockFilter(10, "i32"),
		pq.SplitBlockFilter(10, "f64"), pq.SplitBlockFilter(10, "s")))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := file.Bytes()
	f, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[string]func(row) uint64{
		"i64": func(r row) uint64 { return sbparquet.HashInt64(r.I64) },
		"i32": func(r row) uint64 { return sbparquet.HashInt32(r.I32) },
		"f64": func(r row) uint64 { return sbparquet.HashFloat64(r.F64) },
		"s":   func(r row) uint64 { return sbparquet.HashString(r.S) },
	}
	checked := 0
	for _, rg := range f.Metadata().RowGroups {
		if rg.NumRows != n {
			t.Fatalf("row group of %d rows; the test expects one of %d", rg.NumRows, n)
		}
		for _, cc := range rg.Columns {
			md := cc.MetaData
			name := md.PathInSchema[0]
			if md.BloomFilterOffset <= 0 {
				t.Fatalf("column %s has no bloom filter", name)
			}
			sec := io.NewSectionReader(bytes.NewReader(data), md.BloomFilterOffset, int64(len(data))-md.BloomFilterOffset)
			got, err := sbparquet.ReadFilter(sec)
			if err != nil {
				t.Fatalf("column %s: %v", name, err)
			}
			size := int((got.NumBits() / 8))
			hdr := sbparquet.AppendHeader(nil, int32(size))
			if !bytes.Equal(data[md.BloomFilterOffset:md.BloomFilterOffset+int64(len(hdr))], hdr) {
				t.Fatalf("column %s: parquet-go wrote header % x, ours is % x", name, data[md.BloomFilterOffset:md.BloomFilterOffset+int64(len(hdr))], hdr)
			}
			if md.BloomFilterLength != 0 && int(md.BloomFilterLength) != len(hdr)+size {
				t.Fatalf("column %s: bloom_filter_length %d, header+bitset %d", name, md.BloomFilterLength, len(hdr)+size)
			}
			want, _ := blocked.NewSplitBlockBytes(uint64(size))
			want.SetKeyHash(blocked.HashXXH64) // as ReadFilter records
			for _, rw := range rows {
				want.AddHash(hashes[name](rw))
			}
			if !got.Equal(want) {
				t.Fatalf("column %s: parquet-go's filter differs from ours built from the same values", name)
			}
			checked++
			t.Logf("column %s (%s): %d-byte filter read and matched", name, md.Type, size)
		}
	}
	if checked != 4 {
		t.Fatalf("checked %d columns, want 4", checked)
	}
}
