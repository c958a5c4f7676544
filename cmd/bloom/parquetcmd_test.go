package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sbparquet "github.com/simdbloom/bloom/parquet"
)

// cities is a small file written by parquet-go (parquet/interop writes it):
// three row groups; name (BYTE_ARRAY) and population (INT64) have filters,
// area (DOUBLE) has none.
const cities = "../../parquet/testdata/cities.parquet"

// libraryAnswers computes, with package sbparquet, whether each row group's
// filter on column may hold each value: what the tool must print.
func libraryAnswers(t *testing.T, column string, hash func(string) uint64, values []string) []parquetAnswer {
	t.Helper()
	f, err := os.Open(cities)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	footer, err := sbparquet.ReadFooter(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var out []parquetAnswer
	for _, v := range values {
		a := parquetAnswer{Value: v}
		for g, rg := range footer.RowGroups {
			for _, c := range rg.Columns {
				if c.Name() != column {
					continue
				}
				ans := rowGroupAnswer{RowGroup: g, HasFilter: c.HasBloomFilter, MayContain: true}
				if c.HasBloomFilter {
					s, err := c.ReadFilter(f, st.Size())
					if err != nil {
						t.Fatal(err)
					}
					ans.MayContain = s.HasHash(hash(v))
				}
				a.RowGroups = append(a.RowGroups, ans)
			}
		}
		out = append(out, a)
	}
	return out
}

func TestParquetList(t *testing.T) {
	code, out, errs := runChild(t, "parquet", "--json", cities)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []parquetFilter
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	wantRows := []int{3, 3, 2, 2, 4, 4}
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 6 (name and population in 3 row groups): %s", len(rows), out)
	}
	for i, r := range rows {
		col, typ := "name", "BYTE_ARRAY"
		if i%2 == 1 {
			col, typ = "population", "INT64"
		}
		if r.RowGroup != i/2 || r.Column != col || r.Type != typ || r.FilterBytes != 32 || r.Error != "" ||
			r.FillRatio == nil || *r.FillRatio <= 0 || r.EstimatedDistinct == nil {
			t.Fatalf("row %d: %+v", i, r)
		}
		// A 32-byte filter: one block, 8 bits a value; the estimate is
		// within one value of the truth for so few.
		if d := *r.EstimatedDistinct - float64(wantRows[i]); d < -1 || d > 1 {
			t.Errorf("row %d: estimated %v distinct values, %d written", i, *r.EstimatedDistinct, wantRows[i])
		}
	}
	code, out, _ = runChild(t, "parquet", cities)
	if code != 0 || len(lines(out)) != 7 || !strings.Contains(lines(out)[1], "name") || !strings.Contains(out, "estimated distinct") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
}

// The tool's answers equal the library's, for present and absent values;
// every value a row group holds is found in it.
func TestParquetColumn(t *testing.T) {
	names := []string{"Paris", "Lyon", "Berlin", "Bilbao", "Rome", "Oslo", "-5", ""}
	pops := []string{"2102650", "3878100", "347342", "-5", "1", "0"}
	for _, c := range []struct {
		column  string
		hash    func(string) uint64
		values  []string
		present map[string]int // value: the row group holding it
	}{
		{"name", sbparquet.HashString, names, map[string]int{"Paris": 0, "Lyon": 0, "Berlin": 1, "Bilbao": 2}},
		{"population", func(s string) uint64 { var v int64; fmt.Sscan(s, &v); return sbparquet.HashInt64(v) }, pops,
			map[string]int{"2102650": 0, "3878100": 1, "347342": 2}},
	} {
		args := append([]string{"parquet", "--json", "-column", c.column, cities}, c.values...)
		code, out, errs := runChild(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		var got []parquetAnswer
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		want := libraryAnswers(t, c.column, c.hash, c.values)
		if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
			t.Fatalf("%s: tool %s\nlibrary %s", c.column, g, w)
		}
		for _, a := range got {
			if g, ok := c.present[a.Value]; ok && !a.RowGroups[g].MayContain {
				t.Errorf("%s %q: row group %d holds it, the tool says certainly absent", c.column, a.Value, g)
			}
		}
	}
	// A column without filters: every row group may hold anything.
	code, out, _ := runChild(t, "parquet", "-column", "area", cities, "105.4", "1e300")
	if code != 0 || strings.Count(out, "no filter") != 6 {
		t.Errorf("area: exit %d\n%s", code, out)
	}
	// Exit 1 when every value is certainly absent everywhere: pick such a
	// value with the library first.
	for i := range 1000 {
		v := fmt.Sprintf("nowhere-%d", i)
		a := libraryAnswers(t, "name", sbparquet.HashString, []string{v})[0]
		if a.RowGroups[0].MayContain || a.RowGroups[1].MayContain || a.RowGroups[2].MayContain {
			continue
		}
		code, out, _ := runChild(t, "parquet", "-column", "name", cities, v)
		if code != 1 || strings.Count(out, "certainly absent") != 3 {
			t.Errorf("%q absent everywhere: exit %d\n%s", v, code, out)
		}
		return
	}
	t.Fatal("no value absent from every row group in 1000 tries")
}

func TestParquetErrors(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(cities)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := map[string]string{
		"missing":   filepath.Join(dir, "nope.pq"),
		"empty":     write("empty", nil),
		"truncated": write("truncated", good[:len(good)-100]),
		"no tail":   write("tail", good[:len(good)-4]),
		"junk":      write("junk", []byte(strings.Repeat("junk ", 1000))),
		"metadata":  write("metadata", append(append([]byte(nil), good[:len(good)-300]...), good[len(good)-8:]...)),
		"directory": dir,
	}
	for what, f := range bad {
		for _, args := range [][]string{{"parquet", f}, {"parquet", "--json", f}, {"parquet", "-column", "name", f, "x"}} {
			code, out, errs := runChild(t, args...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "bloom parquet: ") {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit 2 and one line", what, args, code, out, errs)
			}
			for _, p := range libPrefixes {
				if strings.Contains(strings.TrimPrefix(errs, "bloom parquet: "), p) {
					t.Errorf("%s: stderr %q has the library's prefix %q", what, errs, p)
				}
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"parquet"}, "FILE is required"},
		{[]string{"parquet", cities, "x"}, "values need -column"},
		{[]string{"parquet", "-column", "name", cities}, "at least one VALUE"},
		{[]string{"parquet", "-column", "population", cities, "12x"}, `value "12x" for column population (INT64)`},
		{[]string{"parquet", "-column", "nope", cities, "1"}, `no column "nope" (its columns: name, population, area)`},
	} {
		code, out, errs := runChild(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}

func TestHashValue(t *testing.T) {
	for _, c := range []struct {
		typ  sbparquet.PhysicalType
		v    string
		want uint64
	}{
		{sbparquet.Boolean, "true", sbparquet.HashBool(true)},
		{sbparquet.Int32, "-7", sbparquet.HashInt32(-7)},
		{sbparquet.Int64, "9000000000", sbparquet.HashInt64(9e9)},
		{sbparquet.Float, "1.5", sbparquet.HashFloat32(1.5)},
		{sbparquet.Double, "-0.25", sbparquet.HashFloat64(-0.25)},
		{sbparquet.ByteArray, "héllo", sbparquet.HashString("héllo")},
		{sbparquet.FixedLenByteArray, "00ff10", sbparquet.HashBytes([]byte{0, 0xff, 0x10})},
		{sbparquet.Int96, "0102030405060708090a0b0c", sbparquet.HashBytes([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})},
	} {
		if h, err := hashValue(c.typ, c.v, false); err != nil || h != c.want {
			t.Errorf("%v %q: %#x, %v; want %#x", c.typ, c.v, h, err, c.want)
		}
	}
	for _, c := range []struct {
		typ sbparquet.PhysicalType
		v   string
	}{{sbparquet.Boolean, "yes"}, {sbparquet.Int32, "2147483648"}, {sbparquet.Int64, "1.0"}, {sbparquet.Float, "x"},
		{sbparquet.Double, ""}, {sbparquet.FixedLenByteArray, "0g"}, {sbparquet.Int96, "00"}, {sbparquet.PhysicalType(9), "1"}} {
		if _, err := hashValue(c.typ, c.v, false); err == nil {
			t.Errorf("%v %q: no error", c.typ, c.v)
		}
	}
	// -hex: BYTE_ARRAY values as hexadecimal bytes, binary ones too; other
	// types are parsed as without it.
	for _, c := range []struct {
		typ  sbparquet.PhysicalType
		v    string
		want uint64
	}{
		{sbparquet.ByteArray, "5061726973", sbparquet.HashString("Paris")},
		{sbparquet.ByteArray, "00ff", sbparquet.HashBytes([]byte{0, 0xff})},
		{sbparquet.ByteArray, "", sbparquet.HashString("")},
		{sbparquet.Int64, "12", sbparquet.HashInt64(12)},
	} {
		if h, err := hashValue(c.typ, c.v, true); err != nil || h != c.want {
			t.Errorf("-hex %v %q: %#x, %v; want %#x", c.typ, c.v, h, err, c.want)
		}
	}
	if _, err := hashValue(sbparquet.ByteArray, "Paris", true); err == nil || !strings.Contains(err.Error(), "hexadecimal") {
		t.Errorf("-hex BYTE_ARRAY \"Paris\": %v; want an error asking for hex", err)
	}
}

// A Parquet file from a pipe (/dev/stdin, "-") is read into memory and
// answers as the file does (it said "parquet file of 0 bytes: too short");
// a pipe beyond the limit says why it cannot be read.
func TestParquetFromPipe(t *testing.T) {
	b, err := os.ReadFile(cities)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := runChild(t, "parquet", "--json", cities)
	for _, name := range []string{"/dev/stdin", "-"} {
		if name == "/dev/stdin" {
			if _, err := os.Stat(name); err != nil {
				continue
			}
		}
		code, out, errs := runChildStdin(t, string(b), "parquet", "--json", name)
		if code != 0 || out != want {
			t.Errorf("parquet %s from a pipe: exit %d, %q, stdout\n%s\nwant\n%s", name, code, errs, out, want)
		}
	}
	// -hex from a pipe: "Paris" as hexadecimal bytes is in row group 0.
	code, out, errs := runChildStdin(t, string(b), "parquet", "--json", "-column", "name", "-hex", "-", "5061726973")
	var got []parquetAnswer
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got) != 1 || !got[0].RowGroups[0].MayContain {
		t.Errorf("parquet -column name -hex - 5061726973: exit %d, %q, %s", code, errs, out)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write(b); w.Close() }()
	_, _, err = parquetSource(r, "the pipe", int64(len(b)-1))
	r.Close()
	if err == nil || !strings.Contains(err.Error(), "the pipe is a pipe of more than") || !strings.Contains(err.Error(), "read from its end") {
		t.Errorf("a pipe over the limit: %v", err)
	}
}
