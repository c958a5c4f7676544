package sbparquet_test

import (
	"bytes"
	"fmt"
	"os"

	// The package is named sbparquet, beside parquet-go's parquet.
	sbparquet "github.com/simdbloom/bloom/parquet"
)

func Example() {
	// A filter for one column chunk of INT64 values, built in batches.
	values := []int64{3, 1, 4, 1, 5, 9, 2, 6}
	f, err := sbparquet.New(uint64(len(values)), 0.01)
	if err != nil {
		panic(err)
	}
	hs := make([]uint64, len(values))
	f.AddHashes(sbparquet.HashInt64s(hs[:0], values))

	// Which of these values may the column chunk hold?
	probe := []int64{4, 7, 9}
	out := make([]bool, len(probe))
	f.HasHashes(sbparquet.HashInt64s(hs[:0], probe), out)
	fmt.Println(out)
	// Output: [true false true]
}

func ExampleNew() {
	// A filter for a column chunk of a million distinct INT64 values at 1%:
	// the smallest power-of-two size whose exact false-positive rate is <= 1%.
	f, err := sbparquet.New(1_000_000, 0.01)
	if err != nil {
		panic(err)
	}
	for v := int64(0); v < 1_000_000; v++ {
		f.AddHash(sbparquet.HashInt64(v * 7))
	}
	fmt.Println((f.NumBits() / 8), "bytes")
	fmt.Println(f.HasHash(sbparquet.HashInt64(700)))
	// Output:
	// 2097152 bytes
	// true
}

func ExampleWriteFilter() {
	f, _ := sbparquet.New(10, 0.01)
	f.AddHash(sbparquet.HashString("apple"))
	f.AddHash(sbparquet.HashString("pear"))

	// Header and bitset, as stored at a column chunk's bloom_filter_offset.
	var buf bytes.Buffer
	if err := sbparquet.WriteFilter(&buf, f); err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", buf.Bytes()[:buf.Len()-int((f.NumBits()/8))])

	g, err := sbparquet.ReadFilter(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Equal(f), g.HasHash(sbparquet.HashString("pear")))
	// Output:
	// 15 40 1c 1c 00 00 1c 1c 00 00 1c 1c 00 00 00
	// true true
}

func ExampleReadFooter() {
	// Which row groups of a Parquet file may hold the city "Lyon"?
	f, err := os.Open("testdata/cities.parquet")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		panic(err)
	}
	footer, err := sbparquet.ReadFooter(f, st.Size())
	if err != nil {
		panic(err)
	}
	h := sbparquet.HashString("Lyon") // the column is a BYTE_ARRAY
	for i, rg := range footer.RowGroups {
		for _, c := range rg.Columns {
			if c.Name() != "name" || !c.HasBloomFilter {
				continue
			}
			filter, err := c.ReadFilter(f, st.Size())
			if err != nil {
				panic(err)
			}
			fmt.Printf("row group %d (%d rows, %s): may hold Lyon: %v\n", i, rg.NumRows, c.Type, filter.HasHash(h))
		}
	}
	// Output:
	// row group 0 (3 rows, BYTE_ARRAY): may hold Lyon: true
	// row group 1 (2 rows, BYTE_ARRAY): may hold Lyon: false
	// row group 2 (4 rows, BYTE_ARRAY): may hold Lyon: false
}
