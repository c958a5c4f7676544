package parquet_test

import (
	"bytes"
	"fmt"

	"github.com/simdbloom/bloom/parquet"
)

func ExampleNewFilter() {
	// A filter for a column chunk of a million distinct INT64 values at 1%:
	// the smallest power-of-two size whose exact false-positive rate is <= 1%.
	f, err := parquet.NewFilter(1_000_000, 0.01)
	if err != nil {
		panic(err)
	}
	for v := int64(0); v < 1_000_000; v++ {
		f.AddHash(parquet.HashInt64(v * 7))
	}
	fmt.Println(f.SizeBytes(), "bytes")
	fmt.Println(f.HasHash(parquet.HashInt64(700)))
	// Output:
	// 2097152 bytes
	// true
}

func ExampleWriteFilter() {
	f, _ := parquet.NewFilter(10, 0.01)
	f.AddHash(parquet.HashString("apple"))
	f.AddHash(parquet.HashString("pear"))

	// Header and bitset, as stored at a column chunk's bloom_filter_offset.
	var buf bytes.Buffer
	if err := parquet.WriteFilter(&buf, f); err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", buf.Bytes()[:buf.Len()-int(f.SizeBytes())])

	g, err := parquet.ReadFilter(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Equal(f), g.HasHash(parquet.HashString("pear")))
	// Output:
	// 15 40 1c 1c 00 00 1c 1c 00 00 1c 1c 00 00 00
	// true true
}
