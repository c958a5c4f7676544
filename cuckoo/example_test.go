package cuckoo_test

import (
	"errors"
	"fmt"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/cuckoo"
	"github.com/zeebo/xxh3"
)

func ExampleNew() {
	// The filter takes 64-bit hashes: hash keys with a good hash (here xxh3).
	f, err := cuckoo.New(1000, 0.001)
	if err != nil {
		panic(err)
	}
	alice, bob := xxh3.HashString("alice"), xxh3.HashString("bob")
	if err := f.AddHash(alice); err != nil {
		if errors.Is(err, bloom.ErrFull) { // no room: the filter is unchanged
			fmt.Println("full")
		}
		return
	}
	f.AddHash(bob)
	fmt.Println(f.HasHash(alice), f.EstimatedCount())

	// Remove only hashes that were added.
	fmt.Println(f.RemoveHash(alice))
	fmt.Println(f.HasHash(alice), f.HasHash(bob), f.EstimatedCount())
	// Output:
	// true 2
	// true
	// false true 1
}

func ExampleSize() {
	s, err := cuckoo.Size(1_000_000, 0.001)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d buckets of 4 %d-bit fingerprints, %.2f bits/key\n",
		s.Blocks, s.FingerprintBits, s.BitsPerKey)
	// Output: 263158 buckets of 4 13-bit fingerprints, 12.63 bits/key
}
