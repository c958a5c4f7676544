package blocked_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/zeebo/xxh3"
)

func ExampleNew() {
	// The engine takes 64-bit hashes: hash keys with a good hash (here xxh3).
	f, err := blocked.New(1_000_000, 0.01)
	if err != nil {
		panic(err)
	}
	f.AddHash(xxh3.HashString("alice"))
	fmt.Println(f.HasHash(xxh3.HashString("alice")))
	fmt.Printf("k=%d, %d bytes\n", f.K(), f.NumBits()/8)
	// Output:
	// true
	// k=8, 1269760 bytes
}

func ExampleSize() {
	s, err := blocked.Size(1_000_000, 0.001)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d blocks, k=%d, %.2f bits/key\n", s.Blocks, s.K, s.BitsPerKey)
	// Output: 30720 blocks, k=8, 15.73 bits/key
}

func ExampleFilter_AddHashes() {
	f, _ := blocked.New(10_000, 0.01)
	hs := make([]uint64, 1000)
	for i := range hs {
		hs[i] = xxh3.HashString(fmt.Sprint("key", i))
	}
	f.AddHashes(hs) // one call for the whole batch
	fmt.Println(f.HasHash(hs[500]))
	// Output: true
}

func ExampleFilter_HasHashes() {
	f, _ := blocked.New(10_000, 0.01)
	f.AddHash(xxh3.HashString("a"))
	f.AddHash(xxh3.HashString("c"))

	hs := []uint64{xxh3.HashString("a"), xxh3.HashString("b"), xxh3.HashString("c")}
	out := make([]bool, len(hs)) // at least len(hs)
	n := f.HasHashes(hs, out)
	fmt.Println(n, out)
	// Output: 2 [true false true]
}

func ExampleFilter_AddHashAtomic() {
	f, _ := blocked.New(100_000, 0.01)

	// Four goroutines add at once; plain AddHash would be a data race.
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < 40_000; i += 4 {
				f.AddHashAtomic(xxh3.Hash([]byte(fmt.Sprint(i))))
			}
		}()
	}
	wg.Wait()

	found := 0
	for i := 0; i < 40_000; i++ {
		if f.HasHashAtomic(xxh3.Hash([]byte(fmt.Sprint(i)))) {
			found++
		}
	}
	fmt.Println(found)
	// Output: 40000
}

func ExampleFilter_WriteTo() {
	f, _ := blocked.New(1000, 0.01)
	f.AddHash(xxh3.HashString("alice"))

	var buf bytes.Buffer // a file, a socket: any io.Writer
	if _, err := f.WriteTo(&buf); err != nil {
		panic(err)
	}

	var g blocked.Filter
	if _, err := g.ReadFrom(&buf); err != nil {
		panic(err)
	}
	fmt.Println(g.HasHash(xxh3.HashString("alice")), g.Equal(f))
	// Output: true true
}

func ExampleFilterView() {
	// Save a filter to a file.
	f, _ := blocked.New(100_000, 0.01)
	f.AddHash(xxh3.HashString("alice"))
	file, err := os.CreateTemp("", "example-*.sblm")
	if err != nil {
		panic(err)
	}
	defer os.Remove(file.Name())
	if _, err := f.WriteTo(file); err != nil {
		panic(err)
	}
	if err := file.Close(); err != nil {
		panic(err)
	}

	// Use the file's bytes in place: no copy, no decoding of the bits.
	// A memory-mapped file works the same way.
	data, err := os.ReadFile(file.Name())
	if err != nil {
		panic(err)
	}
	var v interface {
		HasHash(h uint64) bool
		HasHashes(hs []uint64, out []bool) int
	}
	view := new(blocked.FilterView)
	if err := view.Reset(data); err == nil {
		v = view // read-only: it has no method that writes
	} else if errors.Is(err, bloom.ErrByteOrder) {
		// Views need a little-endian machine; elsewhere decode a copy.
		g := new(blocked.Filter)
		if err := g.UnmarshalBinary(data); err != nil {
			panic(err)
		}
		v = g
	} else {
		panic(err)
	}
	fmt.Println(v.HasHash(xxh3.HashString("alice")))
	out := make([]bool, 2)
	fmt.Println(v.HasHashes([]uint64{xxh3.HashString("alice"), xxh3.HashString("bob")}, out), out)
	// Output:
	// true
	// 1 [true false]
}
