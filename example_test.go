package bloom_test

import (
	"fmt"

	"github.com/simdbloom/bloom"
)

func ExampleNew() {
	f, err := bloom.New[string](1_000_000, 0.01) // a million URLs, 1% false positives
	if err != nil {
		panic(err)
	}
	f.Add("https://example.com/bad")
	fmt.Println(f.Has("https://example.com/bad"))
	fmt.Println(f.Has("https://example.com/good")) // false, except with probability ~1%
	// Output:
	// true
	// false
}

func ExampleFilter_HasAll() {
	f, _ := bloom.New[uint64](10_000, 0.001)
	f.AddAll([]uint64{10, 20, 30})
	out := make([]bool, 4)
	n := f.HasAll([]uint64{10, 11, 20, 30}, out)
	fmt.Println(n, out)
	// Output: 3 [true false true true]
}

func ExampleSize() {
	s, _ := bloom.Size(1e9, 0.01, bloom.Classic)
	fmt.Printf("classic: %.2f GB, k=%d\n", float64(s.Bytes)/1e9, s.K)
	b, _ := bloom.Size(1e9, 0.01, bloom.Blocked)
	fmt.Printf("blocked: %.2f GB, k=%d, %.2f bits/key\n", float64(b.Bytes)/1e9, b.K, b.BitsPerKey)
	// Output:
	// classic: 1.20 GB, k=7
	// blocked: 1.26 GB, k=8, 10.10 bits/key
}
