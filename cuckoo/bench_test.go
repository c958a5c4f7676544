package cuckoo

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The benchmarks run on tables of about 1 MiB: 2^18 buckets of 8-bit
// fingerprints (1 MiB), 2^17 of 12-bit (768 KiB) and 2^17 of 16-bit (1 MiB),
// filled to 90% load. One op is one key. Add averages the cost of filling an
// empty table to 90% (kicks grow near the end); Remove removes added keys;
// lookup streams have 2^20 keys, half present and half absent, shuffled.

const benchLoad = 0.90

// lookupStream returns 2^20 hashes, half of them from present, shuffled.
func lookupStream(present []uint64, seed uint64) []uint64 {
	const n = 1 << 20
	hs := randomHashes(n, seed)
	for i := 0; i < n/2; i++ {
		hs[i] = present[i%len(present)]
	}
	r := rand.New(rand.NewPCG(seed, 3))
	r.Shuffle(n, func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
	return hs
}

func BenchmarkFilter(b *testing.B) {
	for _, g := range []struct {
		fb      int
		buckets uint64
	}{{8, 1 << 18}, {12, 1 << 17}, {16, 1 << 17}} {
		b.Run(fmt.Sprintf("f=%d", g.fb), func(b *testing.B) { benchFilter(b, g.buckets, g.fb) })
	}
}

func benchFilter(b *testing.B, buckets uint64, fb int) {
	keys := randomHashes(int(benchLoad*float64(buckets*BucketSize)), 1)
	stream := lookupStream(keys, 2)
	fill := func(f *Filter) {
		for _, h := range keys {
			if err := f.AddHash(h); err != nil {
				b.Fatal(err)
			}
		}
	}
	full := func() *Filter {
		f := mustBuckets(b, buckets, fb)
		fill(f)
		return f
	}
	b.Run("Add", func(b *testing.B) {
		f := mustBuckets(b, buckets, fb)
		j := 0
		for b.Loop() {
			if f.AddHash(keys[j]) != nil {
				b.Fatal("full")
			}
			if j++; j == len(keys) {
				b.StopTimer()
				f.Clear()
				j = 0
				b.StartTimer()
			}
		}
	})
	b.Run("Remove", func(b *testing.B) {
		f := full()
		j := 0
		for b.Loop() {
			f.RemoveHash(keys[j])
			if j++; j == len(keys) {
				b.StopTimer()
				fill(f)
				j = 0
				b.StartTimer()
			}
		}
	})
	b.Run("Has", func(b *testing.B) {
		f := full()
		j, n := 0, 0
		for b.Loop() {
			n += int(b2u(f.HasHash(stream[j])))
			j = (j + 1) & (len(stream) - 1)
		}
		sinkInt = n
	})
	b.Run("HasHashes", func(b *testing.B) {
		f := full()
		out := make([]bool, 1024)
		j, n := 0, 0
		for i := 0; i < b.N; i += 1024 {
			n += f.HasHashes(stream[j:j+min(1024, b.N-i)], out)
			j = (j + 1024) & (len(stream) - 1)
		}
		sinkInt = n
	})
}

var sinkInt int
