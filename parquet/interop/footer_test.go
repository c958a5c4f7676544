package interop

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"

	"github.com/simdbloom/bloom/parquet"
)

var writeTestdata = flag.Bool("write-testdata", false, "rewrite ../testdata/cities.parquet (the main module's small parquet-go file)")

// allTypes has a column of every Parquet physical type, and a nested one.
type allTypes struct {
	B      bool             `parquet:"b"`
	I32    int32            `parquet:"i32"`
	I64    int64            `parquet:"i64"`
	I96    deprecated.Int96 `parquet:"i96"`
	F32    float32          `parquet:"f32"`
	F64    float64          `parquet:"f64"`
	S      string           `parquet:"s"`
	FB     [6]byte          `parquet:"fb"`
	Nested struct {
		X int64 `parquet:"x"`
	} `parquet:"nested"`
}

// allColumns are the leaf paths of allTypes, dotted, in schema order.
var allColumns = []string{"b", "i32", "i64", "i96", "f32", "f64", "s", "fb", "nested.x"}

// allRow returns row i of group g: values in different row groups differ
// (except the booleans, which only take two values).
func allRow(r *rand.Rand, g, i int) allTypes {
	var row allTypes
	v := uint64(g)<<32 | uint64(i)
	row.B = r.IntN(7) == 0 // some row groups may hold only false
	row.I32 = int32(g*100_000 + i)
	row.I64 = int64(v)*7919 - 1<<40
	row.I96 = deprecated.Int96{uint32(i), uint32(g), 0x5a5a}
	row.F32 = float32(g) + float32(i)/1024
	row.F64 = float64(g)*1e6 - float64(i)/3
	row.S = fmt.Sprintf("row %d of group %d", i, g)
	binary.LittleEndian.PutUint32(row.FB[:], uint32(i))
	row.FB[4], row.FB[5] = byte(g), 0xfb
	row.Nested.X = -int64(v)
	return row
}

// writeAllTypes writes groups row groups of n rows, every column with a
// bloom filter of bitsPerValue bits, and returns the file and its rows.
func writeAllTypes(t testing.TB, groups, n int, bitsPerValue uint) ([]byte, [][]allTypes) {
	t.Helper()
	r := rand.New(rand.NewPCG(14, uint64(groups*n)))
	var filters []pq.BloomFilterColumn
	for _, c := range []string{"b", "i32", "i64", "i96", "f32", "f64", "s", "fb"} {
		filters = append(filters, pq.SplitBlockFilter(bitsPerValue, c))
	}
	filters = append(filters, pq.SplitBlockFilter(bitsPerValue, "nested", "x"))
	var file bytes.Buffer
	w := pq.NewGenericWriter[allTypes](&file, pq.BloomFilters(filters...))
	rows := make([][]allTypes, groups)
	for g := range groups {
		rows[g] = make([]allTypes, n)
		for i := range rows[g] {
			rows[g][i] = allRow(r, g, i)
		}
		if _, err := w.Write(rows[g]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil { // ends the row group
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return file.Bytes(), rows
}

// columnValue returns the value of column c in row, as parquet-go's Value
// and as the text "bloom parquet -column c" parses (floats in the shortest
// form that reads back exactly, byte arrays of fixed length in hex).
func columnValue(row allTypes, c string) (pq.Value, string) {
	switch c {
	case "b":
		return pq.ValueOf(row.B), strconv.FormatBool(row.B)
	case "i32":
		return pq.ValueOf(row.I32), strconv.FormatInt(int64(row.I32), 10)
	case "i64":
		return pq.ValueOf(row.I64), strconv.FormatInt(row.I64, 10)
	case "i96":
		var b [12]byte
		for i, w := range row.I96 {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		return pq.ValueOf(row.I96), hex.EncodeToString(b[:])
	case "f32":
		return pq.ValueOf(row.F32), strconv.FormatFloat(float64(row.F32), 'g', -1, 32)
	case "f64":
		return pq.ValueOf(row.F64), strconv.FormatFloat(row.F64, 'g', -1, 64)
	case "s":
		return pq.ValueOf(row.S), row.S
	case "fb":
		return pq.ValueOf(row.FB), hex.EncodeToString(row.FB[:])
	case "nested.x":
		return pq.ValueOf(row.Nested.X), strconv.FormatInt(row.Nested.X, 10)
	}
	panic(c)
}

// ourHash hashes the text of a value of column c as package parquet does,
// by the column's physical type: what the tool computes from its arguments.
func ourHash(t testing.TB, typ parquet.PhysicalType, text string) uint64 {
	t.Helper()
	switch typ {
	case parquet.Boolean:
		v, err := strconv.ParseBool(text)
		if err != nil {
			t.Fatal(err)
		}
		return parquet.HashBool(v)
	case parquet.Int32:
		v, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		return parquet.HashInt32(int32(v))
	case parquet.Int64:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return parquet.HashInt64(v)
	case parquet.Float:
		v, err := strconv.ParseFloat(text, 32)
		if err != nil {
			t.Fatal(err)
		}
		return parquet.HashFloat32(float32(v))
	case parquet.Double:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		return parquet.HashFloat64(v)
	case parquet.ByteArray:
		return parquet.HashString(text)
	case parquet.Int96, parquet.FixedLenByteArray:
		b, err := hex.DecodeString(text)
		if err != nil {
			t.Fatal(err)
		}
		return parquet.HashBytes(b)
	}
	t.Fatalf("type %v", typ)
	return 0
}

// TestWriteTestdata rewrites the main module's parquet/testdata/cities.parquet
// with -write-testdata: a small parquet-go file with three row groups and
// bloom filters on two of its three columns, used by the main module's
// example, tests and fuzz seeds (which cannot import parquet-go).
func TestWriteTestdata(t *testing.T) {
	if !*writeTestdata {
		t.Skip("run with -write-testdata to rewrite ../testdata/cities.parquet")
	}
	type city struct {
		Name       string  `parquet:"name"`
		Population int64   `parquet:"population"`
		Area       float64 `parquet:"area"`
	}
	groups := [][]city{
		{{"Paris", 2_102_650, 105.4}, {"Lyon", 522_250, 47.87}, {"Marseille", 873_076, 240.6}},
		{{"Berlin", 3_878_100, 891.3}, {"Hamburg", 1_862_565, 755.2}},
		{{"Madrid", 3_332_035, 604.3}, {"Sevilla", 687_488, 140.8}, {"Valencia", 807_693, 134.6}, {"Bilbao", 347_342, 41.6}},
	}
	var file bytes.Buffer
	w := pq.NewGenericWriter[city](&file, pq.BloomFilters(pq.SplitBlockFilter(10, "name"), pq.SplitBlockFilter(10, "population")))
	for _, g := range groups {
		if _, err := w.Write(g); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("../testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("../testdata/cities.parquet", file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
