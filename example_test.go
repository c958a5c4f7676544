package bloom_test

import (
	"bytes"
	"errors"
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

func ExampleFilter_MarshalBinary() {
	f, _ := bloom.New[string](1000, 0.01)
	f.Add("alice")
	b, err := f.MarshalBinary() // FORMAT.md: header, then the bits
	if err != nil {
		panic(err)
	}

	// Decode into a zero Filter; the encoding carries the size, k and key hash.
	var g bloom.Filter[string]
	if err := g.UnmarshalBinary(b); err != nil {
		panic(err)
	}
	again, _ := g.MarshalBinary() // the same bytes: the same filter
	fmt.Println(g.Has("alice"), bytes.Equal(again, b))
	// Output: true true
}

func ExampleFilter_WriteTo() {
	f, _ := bloom.New[uint64](1000, 0.01)
	f.AddAll([]uint64{1, 2, 3})

	var buf bytes.Buffer // a file, a socket: any io.Writer
	if _, err := f.WriteTo(&buf); err != nil {
		panic(err)
	}

	var g bloom.Filter[uint64]
	if _, err := g.ReadFrom(&buf); err != nil {
		panic(err)
	}
	fmt.Println(g.Has(2))
	// Output: true
}

func ExampleFilter_Engine() {
	// Hash once with bloom.Hash and use the hash-level filter underneath,
	// for example to check one key against several filters.
	f, _ := bloom.New[string](1000, 0.01)
	f.Add("alice")
	h := bloom.Hash("alice")
	fmt.Println(f.Engine().HasHash(h))
	// Output: true
}

func ExampleNewScalable() {
	// Plan for 1,000 keys at 1%, then add 100 times as many:
	// the filter adds stages and keeps its total rate under 1%.
	s, err := bloom.NewScalable[uint64](1000, 0.01)
	if err != nil {
		panic(err)
	}
	keys := make([]uint64, 100_000)
	for i := range keys {
		keys[i] = uint64(i)
	}
	s.AddAll(keys)
	out := make([]bool, len(keys))
	fmt.Println(s.HasAll(keys, out) == len(keys))
	fmt.Println(s.Stages() > 1, s.EstimatedFPR() < 0.01)
	// Output:
	// true
	// true true
}

func ExampleScalableView() {
	// Save a Scalable, then look keys up in its bytes (a memory-mapped
	// file, say) without decoding or copying them.
	s, err := bloom.NewScalable[string](100, 0.01)
	if err != nil {
		panic(err)
	}
	for i := range 1000 {
		s.Add(fmt.Sprint("user-", i))
	}
	b, err := s.MarshalBinary()
	if err != nil {
		panic(err)
	}
	var v interface {
		Has(key string) bool
		HasAll(keys []string, out []bool) int
	}
	var view bloom.ScalableView[string] // keep one and Reset it for each buffer
	if err := view.Reset(b); err == nil {
		v = &view // read-only: it has no method that writes
	} else if errors.Is(err, bloom.ErrByteOrder) {
		// Views need a little-endian machine; elsewhere decode a copy.
		g := new(bloom.Scalable[string])
		if err := g.UnmarshalBinary(b); err != nil {
			panic(err)
		}
		v = g
	} else {
		panic(err) // damaged bytes, or not a Scalable of string keys
	}
	fmt.Println(v.Has("user-7"), v.Has("user-7000"))
	out := make([]bool, 2)
	fmt.Println(v.HasAll([]string{"user-1", "user-999"}, out))
	// Output:
	// true false
	// 2
}

func ExampleNewCounting() {
	c, err := bloom.NewCounting[string](1000, 0.01)
	if err != nil {
		panic(err)
	}
	c.Add("alice")
	c.Add("bob")
	fmt.Println(c.Remove("alice")) // remove only keys that were added
	fmt.Println(c.Has("alice"), c.Has("bob"))
	// Output:
	// true
	// false true
}

func ExampleNewCuckoo() {
	c, err := bloom.NewCuckoo[string](1000, 0.001)
	if err != nil {
		panic(err)
	}
	if err := c.Add("alice"); err != nil { // ErrFull: the filter is unchanged
		panic(err)
	}
	c.Add("bob")
	fmt.Println(c.Has("alice"), c.EstimatedCount())
	c.Remove("alice")
	fmt.Println(c.Has("alice"), c.EstimatedCount())
	// Output:
	// true 2
	// false 1
}
