package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/memlimit"
	sbparquet "github.com/simdbloom/bloom/parquet"

	"github.com/simdbloom/bloom/internal/errs"
)

// parquetFilter is one line of "bloom parquet FILE": a column chunk with a
// Bloom filter. Error is set, and the figures left out, when the filter
// is of a kind this tool cannot read (another algorithm, hash or
// compression).
type parquetFilter struct {
	RowGroup          int      `json:"row_group"`
	Column            string   `json:"column"`
	Type              string   `json:"type"`
	FilterBytes       uint64   `json:"filter_bytes,omitempty"`
	FillRatio         *float64 `json:"fill_ratio,omitempty"`
	EstimatedDistinct *float64 `json:"estimated_distinct,omitempty"`
	Error             string   `json:"error,omitempty"`
}

// parquetAnswer is one value's answer in "bloom parquet -column".
type parquetAnswer struct {
	Value     string           `json:"value"`
	RowGroups []rowGroupAnswer `json:"row_groups"`
}

// rowGroupAnswer says whether one row group may hold a value. A row group
// whose chunk has no filter (or one this tool cannot read) may hold
// anything: has_filter false, may_contain true.
type rowGroupAnswer struct {
	RowGroup   int  `json:"row_group"`
	HasFilter  bool `json:"has_filter"`
	MayContain bool `json:"may_contain"`
}

func runParquet(args []string, stdout, _ io.Writer) error {
	fs := newFlags("parquet", "bloom parquet [--json] FILE: every column chunk of the Parquet file that has a Bloom filter:\n"+
		"row group, column path, physical type, filter bytes, fill ratio and estimated distinct values.\n\n"+
		"bloom parquet [--json] [-hex] -column PATH FILE VALUE...: for each value, for each row group, whether the\n"+
		"column's filter says the row group may contain it, certainly does not, or has no filter. Values are\n"+
		"parsed by the column's physical type: INT32 and INT64 decimal; FLOAT and DOUBLE as Go parses floats;\n"+
		"BYTE_ARRAY as the text given (UTF-8), or with -hex as hexadecimal bytes (binary values: -hex 00ff);\n"+
		"BOOLEAN true or false; FIXED_LEN_BYTE_ARRAY and INT96 in hex. Flags come before FILE, so a value\n"+
		"such as -5 needs no quoting.\n\n"+
		"FILE may be \"-\" or a pipe (/dev/stdin): a Parquet file is read from its end, so a pipe of at most\n"+
		"256 MB is read into memory first; a larger one must be given as a file.\n\n"+
		"Exit status of -column: 0 if some row group may contain some value, 1 if every value is certainly\n"+
		"absent from every row group, 2 on an error.")
	column := fs.String("column", "", "the column's dotted path (as listed by bloom parquet FILE)")
	hexBytes := fs.Bool("hex", false, "BYTE_ARRAY VALUEs are hexadecimal bytes, not text (for binary values)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseArgs(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("FILE is required")
	}
	if *hexBytes && *column == "" {
		return usagef("-hex needs -column PATH and VALUEs")
	}
	if *column == "" && fs.NArg() > 1 {
		return usagef("unexpected argument %q (values need -column PATH)", fs.Arg(1))
	}
	if *column != "" && fs.NArg() < 2 {
		return usagef("-column needs at least one VALUE after FILE")
	}
	name := fs.Arg(0)
	f := os.Stdin
	if name == "-" {
		name = "standard input"
	} else {
		var err error
		if f, err = os.Open(name); err != nil {
			return badFile(fileError(err))
		}
		defer f.Close()
	}
	r, size, err := parquetSource(f, name, maxParquetPipe)
	if err != nil {
		return err
	}
	footer, err := sbparquet.ReadFooter(r, size)
	if err != nil {
		return badFile(fmt.Errorf("%s: %w", name, err))
	}
	if *column == "" {
		return listParquet(stdout, r, size, name, footer, *asJSON)
	}
	return queryParquet(stdout, r, size, name, footer, *column, fs.Args()[1:], *hexBytes, *asJSON)
}

// maxParquetPipe is the largest Parquet file bloom parquet reads from a
// pipe into memory.
const maxParquetPipe = 256_000_000

// parquetSource returns f, opened as name, for reading at offsets, and its
// size. A Parquet file is read from its end (the footer), so a file that
// cannot seek (a pipe, "-") of at most limit bytes is read into memory; a
// larger one is an error saying so.
func parquetSource(f *os.File, name string, limit int64) (io.ReaderAt, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, badFile(fileError(err))
	}
	if st.IsDir() {
		return nil, 0, badFile(fmt.Errorf("%s is a directory", name))
	}
	if st.Mode().IsRegular() {
		return f, st.Size(), nil
	}
	if end, err := f.Seek(0, io.SeekEnd); err == nil && end > 0 { // a device
		return f, end, nil
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, badFile(readError(name, err))
	}
	if int64(len(b)) > limit {
		return nil, 0, badFile(fmt.Errorf("%s is a pipe of more than %s: a Parquet file is read from its end, so give it as a file",
			name, memlimit.Human(uint64(limit))))
	}
	return bytes.NewReader(b), int64(len(b)), nil
}

// unsupported reports a filter error that means "a kind of filter this tool
// cannot read", not a damaged file.
func unsupported(err error) bool {
	return errors.Is(err, errs.ErrVariant) || errors.Is(err, errs.ErrHashMismatch)
}

func listParquet(stdout io.Writer, r io.ReaderAt, size int64, name string, footer *sbparquet.Footer, asJSON bool) error {
	rows := []parquetFilter{}
	for g, rg := range footer.RowGroups {
		for _, c := range rg.Columns {
			if !c.HasBloomFilter {
				continue
			}
			row := parquetFilter{RowGroup: g, Column: c.Name(), Type: c.Type.String()}
			s, err := c.ReadFilter(r, size)
			switch {
			case err == nil:
				fill, est := s.FillRatio(), s.EstimatedCount()
				row.FilterBytes, row.FillRatio, row.EstimatedDistinct = (s.NumBits() / 8), &fill, &est
			case unsupported(err):
				row.Error = toolWords(err)
			default:
				return badFile(fmt.Errorf("%s: row group %d: %w", name, g, err))
			}
			rows = append(rows, row)
		}
	}
	if asJSON {
		return writeJSON(stdout, rows)
	}
	if len(rows) == 0 {
		cols := 0
		if len(footer.RowGroups) > 0 {
			cols = len(footer.RowGroups[0].Columns)
		}
		fmt.Fprintf(stdout, "%s: no Bloom filters (%d row groups, %d columns)\n", name, len(footer.RowGroups), cols)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "row group\tcolumn\ttype\tfilter bytes\tfill ratio\testimated distinct")
	for _, row := range rows {
		if row.Error != "" {
			fmt.Fprintf(tw, "%d\t%s\t%s\t-\t-\t%s\n", row.RowGroup, row.Column, row.Type, row.Error)
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%.4f\t%.0f\n", row.RowGroup, row.Column, row.Type, row.FilterBytes, *row.FillRatio, *row.EstimatedDistinct)
	}
	return tw.Flush()
}

func queryParquet(stdout io.Writer, r io.ReaderAt, size int64, name string, footer *sbparquet.Footer, column string, values []string, hexBytes, asJSON bool) error {
	// The column's chunk in each row group, and its filter.
	type chunk struct {
		typ    sbparquet.PhysicalType
		filter *blocked.SplitBlock // nil: no filter, or one of a kind this tool cannot read
	}
	var chunks []chunk
	var names []string
	for g, rg := range footer.RowGroups {
		found := false
		for _, c := range rg.Columns {
			if g == 0 {
				names = append(names, c.Name())
			}
			if c.Name() != column {
				continue
			}
			found = true
			ch := chunk{typ: c.Type}
			if c.HasBloomFilter {
				s, err := c.ReadFilter(r, size)
				if err != nil && !unsupported(err) {
					return badFile(fmt.Errorf("%s: row group %d: %w", name, g, err))
				}
				ch.filter = s
			}
			chunks = append(chunks, ch)
			break
		}
		if !found {
			if g == 0 {
				return badFile(fmt.Errorf("%s has no column %q (its columns: %s)", name, column, strings.Join(names, ", ")))
			}
			return badFile(fmt.Errorf("%s: row group %d has no column %q", name, g, column))
		}
	}
	answers := make([]parquetAnswer, len(values))
	any := false
	for i, v := range values {
		answers[i] = parquetAnswer{Value: v, RowGroups: []rowGroupAnswer{}}
		for g, ch := range chunks {
			h, err := hashValue(ch.typ, v, hexBytes)
			if err != nil {
				return usageError{fmt.Sprintf("value %q for column %s (%s): %v", v, column, ch.typ, err)}
			}
			a := rowGroupAnswer{RowGroup: g, HasFilter: ch.filter != nil, MayContain: true}
			if ch.filter != nil {
				a.MayContain = ch.filter.HasHash(h)
			}
			any = any || a.MayContain
			answers[i].RowGroups = append(answers[i].RowGroups, a)
		}
	}
	if asJSON {
		if err := writeJSON(stdout, answers); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "value\trow group\tanswer")
		for _, a := range answers {
			for _, g := range a.RowGroups {
				answer := "certainly absent"
				switch {
				case !g.HasFilter:
					answer = "no filter"
				case g.MayContain:
					answer = "may contain"
				}
				fmt.Fprintf(tw, "%s\t%d\t%s\n", printable(a.Value), g.RowGroup, answer)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !any {
		return errNothingFound
	}
	return nil
}

// printable quotes a value that would not print as itself in a table.
func printable(s string) string {
	if s == "" || !utf8.ValidString(s) || strings.ContainsAny(s, "\t\n\r") {
		return strconv.Quote(s)
	}
	return s
}

// hashValue parses the text v as a value of the physical type t and returns
// its Parquet hash. hexBytes: a BYTE_ARRAY value is hexadecimal bytes.
func hashValue(t sbparquet.PhysicalType, v string, hexBytes bool) (uint64, error) {
	switch t {
	case sbparquet.Boolean:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return 0, errors.New("want true or false")
		}
		return sbparquet.HashBool(b), nil
	case sbparquet.Int32:
		i, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return 0, errors.New("want a decimal integer from -2147483648 to 2147483647")
		}
		return sbparquet.HashInt32(int32(i)), nil
	case sbparquet.Int64:
		i, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, errors.New("want a decimal 64-bit integer")
		}
		return sbparquet.HashInt64(i), nil
	case sbparquet.Float:
		f, err := strconv.ParseFloat(v, 32)
		if err != nil {
			return 0, errors.New("want a 32-bit floating-point number")
		}
		return sbparquet.HashFloat32(float32(f)), nil
	case sbparquet.Double:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, errors.New("want a floating-point number")
		}
		return sbparquet.HashFloat64(f), nil
	case sbparquet.ByteArray:
		if !hexBytes {
			return sbparquet.HashString(v), nil
		}
		b, err := hex.DecodeString(v)
		if err != nil {
			return 0, errors.New("want hexadecimal bytes (-hex)")
		}
		return sbparquet.HashBytes(b), nil
	case sbparquet.FixedLenByteArray, sbparquet.Int96:
		b, err := hex.DecodeString(v)
		if err != nil {
			return 0, errors.New("want hexadecimal bytes")
		}
		if t == sbparquet.Int96 && len(b) != 12 {
			return 0, fmt.Errorf("want 12 bytes (24 hex digits), got %d", len(b))
		}
		return sbparquet.HashBytes(b), nil
	}
	return 0, fmt.Errorf("cannot parse values of physical type %s", t)
}
