package cuckoo

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

// Benchmarks on tables of 16 KiB and 1 MiB, in ns per key. Filter fills a
// table to 90% load; Add averages the cost of filling an empty table to
// 90% (kicks grow near the end); Remove removes added keys; lookup streams
// have 2^20 keys, half present and half absent, shuffled. VsBlocked runs
// the batch lookups of a cuckoo filter at 95% load and a blocked filter
// (k = 8, 10 bits per key) of the same size side by side:
//
//	go test -run '^$' -bench VsBlocked -count 6 ./cuckoo | benchstat -col /filter -

const benchLoad = 0.90

var benchSizes = []struct {
	name  string
	bytes uint64
}{{"16KiB", 16 << 10}, {"1MiB", 1 << 20}}

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

// bucketsOf returns the number of buckets of g that fill bytes bytes.
func bucketsOf(bytes uint64, g geometry) uint64 { return bytes * 8 / bucketBits(g.fb, g.l) }

var benchGeometries = []geometry{{10, SemiSorted}, {10, Plain}, {17, SemiSorted}}

func BenchmarkFilter(b *testing.B) {
	for _, s := range benchSizes {
		for _, g := range benchGeometries {
			b.Run(fmt.Sprintf("size=%s/%v", s.name, g), func(b *testing.B) { benchFilter(b, bucketsOf(s.bytes, g), g) })
		}
	}
}

func benchFilter(b *testing.B, buckets uint64, g geometry) {
	keys := randomHashes(int(benchLoad*float64(buckets*bucketSize)), 1)
	stream := lookupStream(keys, 2)
	fill := func(f *Filter) {
		for _, h := range keys {
			if err := f.AddHash(h); err != nil {
				b.Fatal(err)
			}
		}
	}
	full := func() *Filter {
		f := mustBuckets(b, buckets, g.fb, g.l)
		fill(f)
		return f
	}
	b.Run("Add", func(b *testing.B) {
		f := mustBuckets(b, buckets, g.fb, g.l)
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
		benchBatches(b, stream, f.HasHashes)
	})
}

// benchBatches runs has over batches of 1024 keys of stream, b.N keys in all.
func benchBatches(b *testing.B, stream []uint64, has func([]uint64, []bool) int) {
	out := make([]bool, 1024)
	j, n := 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i += 1024 {
		n += has(stream[j:j+min(1024, b.N-i)], out)
		j = (j + 1024) & (len(stream) - 1)
	}
	sinkInt = n
}

// BenchmarkVsBlocked compares batch lookups with blocked.Filter's at the
// same table size: a semi-sorted 10-bit cuckoo filter at 95% load (0.8% FPR)
// and a k = 8 blocked filter at 10 bits per key (1% FPR).
func BenchmarkVsBlocked(b *testing.B) {
	for _, s := range benchSizes {
		g := geometry{10, SemiSorted}
		nb := bucketsOf(s.bytes, g)
		c := mustBuckets(b, nb, g.fb, g.l)
		ckeys := randomHashes(int(maxLoad*float64(nb*bucketSize)), 1)
		for _, h := range ckeys {
			if err := c.AddHash(h); err != nil {
				b.Fatal(err)
			}
		}
		bf, err := blocked.NewBytes(s.bytes, 8)
		if err != nil {
			b.Fatal(err)
		}
		bkeys := randomHashes(int(s.bytes*8/10), 1)
		for _, h := range bkeys {
			bf.AddHash(h)
		}
		cs, bs := lookupStream(ckeys, 2), lookupStream(bkeys, 2)
		b.Run(fmt.Sprintf("size=%s/filter=cuckoo", s.name), func(b *testing.B) { benchBatches(b, cs, c.HasHashes) })
		b.Run(fmt.Sprintf("size=%s/filter=blocked", s.name), func(b *testing.B) { benchBatches(b, bs, bf.HasHashes) })
	}
}

var sinkInt int
