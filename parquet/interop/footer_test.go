package interop

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"

	sbparquet "github.com/simdbloom/bloom/parquet"
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

// ourHash hashes the text of a value of column c as package sbparquet does,
// by the column's physical type: what the tool computes from its arguments.
func ourHash(t testing.TB, typ sbparquet.PhysicalType, text string) uint64 {
	t.Helper()
	switch typ {
	case sbparquet.Boolean:
		v, err := strconv.ParseBool(text)
		if err != nil {
			t.Fatal(err)
		}
		return sbparquet.HashBool(v)
	case sbparquet.Int32:
		v, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		return sbparquet.HashInt32(int32(v))
	case sbparquet.Int64:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return sbparquet.HashInt64(v)
	case sbparquet.Float:
		v, err := strconv.ParseFloat(text, 32)
		if err != nil {
			t.Fatal(err)
		}
		return sbparquet.HashFloat32(float32(v))
	case sbparquet.Double:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		return sbparquet.HashFloat64(v)
	case sbparquet.ByteArray:
		return sbparquet.HashString(text)
	case sbparquet.Int96, sbparquet.FixedLenByteArray:
		b, err := hex.DecodeString(text)
		if err != nil {
			t.Fatal(err)
		}
		return sbparquet.HashBytes(b)
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

// TestFooterAllTypes writes a file of four row groups with a filtered column
// of every physical type (and a nested one) with parquet-go, and checks that
// ReadFooter finds what parquet-go's own reader finds (paths, types, filter
// offsets and lengths), and that for every row group and column the filter
// read by package sbparquet answers exactly as parquet-go's Check for every
// value of the file and values of no row group.
func TestFooterAllTypes(t *testing.T) {
	const groups, n = 4, 2000
	data, rows := writeAllTypes(t, groups, n, 10)
	pf, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	footer, err := sbparquet.ReadFooter(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	md := pf.Metadata()
	if len(footer.RowGroups) != groups || len(md.RowGroups) != groups || footer.NumRows != md.NumRows || footer.Version != md.Version || footer.CreatedBy != md.CreatedBy {
		t.Fatalf("footer: %d row groups, %d rows, version %d, %q; parquet-go: %d, %d, %d, %q",
			len(footer.RowGroups), footer.NumRows, footer.Version, footer.CreatedBy, len(md.RowGroups), md.NumRows, md.Version, md.CreatedBy)
	}
	probes := extraRows(rand.New(rand.NewPCG(1, 1)), 500)
	for g, rg := range footer.RowGroups {
		prg := md.RowGroups[g]
		if rg.NumRows != prg.NumRows || rg.TotalByteSize != prg.TotalByteSize || len(rg.Columns) != len(allColumns) {
			t.Fatalf("row group %d: %d rows, %d bytes, %d columns; parquet-go %d, %d; want %d columns", g, rg.NumRows, rg.TotalByteSize,
				len(rg.Columns), prg.NumRows, prg.TotalByteSize, len(allColumns))
		}
		chunks := pf.RowGroups()[g].ColumnChunks()
		for c, cc := range rg.Columns {
			pm := prg.Columns[c].MetaData
			if cc.Name() != allColumns[c] || fmt.Sprint(cc.Path) != fmt.Sprint(pm.PathInSchema) || int32(cc.Type) != int32(pm.Type) ||
				cc.NumValues != pm.NumValues || cc.BloomFilterOffset != pm.BloomFilterOffset || cc.BloomFilterLength != pm.BloomFilterLength {
				t.Fatalf("row group %d column %d: %+v; parquet-go %v %v %d values, filter at %d (%d bytes)", g, c, cc,
					pm.PathInSchema, pm.Type, pm.NumValues, pm.BloomFilterOffset, pm.BloomFilterLength)
			}
			if !cc.HasBloomFilter {
				t.Fatalf("row group %d column %s (%s): no bloom filter", g, cc.Name(), cc.Type)
			}
			ours, err := cc.ReadFilter(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatalf("row group %d column %s: %v", g, cc.Name(), err)
			}
			peer := chunks[c].(*pq.FileColumnChunk).BloomFilter()
			if peer == nil || peer.Size() != int64((ours.NumBits()/8)) {
				t.Fatalf("row group %d column %s: parquet-go filter %v, ours %d bytes", g, cc.Name(), peer, (ours.NumBits() / 8))
			}
			check := func(row allTypes, present bool) {
				v, text := columnValue(row, cc.Name())
				want, err := peer.Check(v)
				if err != nil {
					t.Fatal(err)
				}
				got := ours.HasHash(ourHash(t, cc.Type, text))
				if got != want || (present && !got) {
					t.Fatalf("row group %d column %s value %q: simdbloom %v, parquet-go %v, present %v", g, cc.Name(), text, got, want, present)
				}
			}
			for gg := range rows {
				for _, row := range rows[gg] {
					check(row, gg == g)
				}
			}
			for _, row := range probes {
				check(row, false)
			}
		}
		t.Logf("row group %d: %d columns, all answers equal parquet-go's", g, len(rg.Columns))
	}
}

// extraRows returns rows of no row group the tests write (group 1000+).
func extraRows(r *rand.Rand, n int) []allTypes {
	out := make([]allTypes, n)
	for i := range out {
		out[i] = allRow(r, 1000+i%7, i)
	}
	return out
}

// TestToolMatchesParquetGo runs the bloom command on a parquet-go file with a
// filtered column of every physical type: "bloom parquet --json" lists every
// chunk with parquet-go's filter size, and "bloom parquet -column" answers,
// for values present in each row group and values of none, exactly what
// parquet-go's Check answers for every row group.
func TestToolMatchesParquetGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bloom command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bloom")
	build := exec.Command("go", "build", "-o", bin, "./cmd/bloom")
	build.Dir = "../.." // in the main module, with its own go.sum
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const groups, n = 3, 1000
	data, rows := writeAllTypes(t, groups, n, 10)
	file := filepath.Join(dir, "all.parquet")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	pf, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) []byte {
		t.Helper()
		out, err := exec.Command(bin, args...).Output()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return out // nothing may be in any row group
		}
		if err != nil {
			t.Fatalf("bloom %q: %v", args, err)
		}
		return out
	}

	var list []struct {
		RowGroup    int    `json:"row_group"`
		Column      string `json:"column"`
		Type        string `json:"type"`
		FilterBytes int64  `json:"filter_bytes"`
	}
	if err := json.Unmarshal(run("parquet", "--json", file), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != groups*len(allColumns) {
		t.Fatalf("bloom parquet lists %d filters, want %d", len(list), groups*len(allColumns))
	}
	for i, l := range list {
		g, c := i/len(allColumns), i%len(allColumns)
		peer := pf.RowGroups()[g].ColumnChunks()[c].(*pq.FileColumnChunk)
		if l.RowGroup != g || l.Column != allColumns[c] || l.Type != pf.Metadata().RowGroups[g].Columns[c].MetaData.Type.String() ||
			l.FilterBytes != peer.BloomFilter().Size() {
			t.Fatalf("line %d: %+v; parquet-go: row group %d column %s, %d bytes", i, l, g, allColumns[c], peer.BloomFilter().Size())
		}
	}

	r := rand.New(rand.NewPCG(7, 7))
	probes := extraRows(r, 40)
	for c, col := range allColumns {
		// 20 values from each row group, then 40 of none.
		var sample []allTypes
		for g := range rows {
			for range 20 {
				sample = append(sample, rows[g][r.IntN(n)])
			}
		}
		sample = append(sample, probes...)
		args := []string{"parquet", "--json", "-column", col, file}
		for _, row := range sample {
			_, text := columnValue(row, col)
			args = append(args, text)
		}
		var answers []struct {
			Value     string `json:"value"`
			RowGroups []struct {
				RowGroup   int  `json:"row_group"`
				HasFilter  bool `json:"has_filter"`
				MayContain bool `json:"may_contain"`
			} `json:"row_groups"`
		}
		if err := json.Unmarshal(run(args...), &answers); err != nil {
			t.Fatal(err)
		}
		if len(answers) != len(sample) {
			t.Fatalf("%s: %d answers for %d values", col, len(answers), len(sample))
		}
		absent := 0
		for i, row := range sample {
			v, text := columnValue(row, col)
			a := answers[i]
			if a.Value != text || len(a.RowGroups) != groups {
				t.Fatalf("%s: answer %d %+v for %q", col, i, a, text)
			}
			for g, ga := range a.RowGroups {
				want, err := pf.RowGroups()[g].ColumnChunks()[c].(*pq.FileColumnChunk).BloomFilter().Check(v)
				if err != nil {
					t.Fatal(err)
				}
				if ga.RowGroup != g || !ga.HasFilter || ga.MayContain != want {
					t.Fatalf("%s %q row group %d: tool %+v, parquet-go may contain %v", col, text, g, ga, want)
				}
				if !want {
					absent++
				}
			}
		}
		if col != "b" && absent < len(sample) { // each value is absent from most row groups
			t.Fatalf("%s: only %d certainly-absent answers: the filters answer \"may contain\" too often", col, absent)
		}
		t.Logf("%s: %d values x %d row groups equal parquet-go's answers (%d certainly absent)", col, len(sample), groups, absent)
	}
}
