package blocked

import (
	"math/rand/v2"
	"testing"
)

// The Counting benchmarks run on a 1 MiB filter (16384 blocks) holding
// 183,000 keys (about 1% FPR: 45.7 bits/key), and on a 16 KiB one (L1)
// holding 1/64 as many, and a 16 MiB one (L3) holding 16 times as many. One op is one key. Lookup
// streams have 2^20 keys, half present and half absent, shuffled, so the
// branch predictor cannot learn them. A plain Filter of the same size is
// measured in the same run for reference.

const (
	benchCountingBytes = 1 << 20
	benchCountingKeys  = 183_000
)

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

func BenchmarkCounting(b *testing.B) {
	b.Run("1MiB", func(b *testing.B) { benchCounting(b, benchCountingBytes, benchCountingKeys) })
	b.Run("16KiB", func(b *testing.B) { benchCounting(b, 16<<10, benchCountingKeys/64) })
	b.Run("16MiB", func(b *testing.B) { benchCounting(b, 16<<20, benchCountingKeys*16) })
}

func benchCounting(b *testing.B, size uint64, nkeys int) {
	keys := randomHashes(nkeys, 1)
	stream := lookupStream(keys, 2)
	full := func(b *testing.B) *Counting {
		c := mustCounting(b, size)
		c.AddHashes(keys)
		return c
	}
	// Add and Remove are branch-free apart from Remove's presence test, so
	// their cost does not depend on the counter values: Add keeps adding
	// (counters saturate) and Remove works on a filter whose keys were added
	// 15 times, so they stay present (saturated) however often they are
	// removed. This avoids b.StopTimer, which costs tens of microseconds.
	b.Run("Add", func(b *testing.B) {
		c := mustCounting(b, size)
		j := 0
		for b.Loop() {
			c.AddHash(keys[j])
			if j++; j == len(keys) {
				j = 0
			}
		}
	})
	b.Run("AddHashes", func(b *testing.B) {
		c := mustCounting(b, size)
		for i, j := 0, 0; i < b.N; i += 1024 {
			c.AddHashes(keys[j : j+min(1024, b.N-i, len(keys)-j)])
			if j += 1024; j >= len(keys) {
				j = 0
			}
		}
	})
	b.Run("Remove", func(b *testing.B) {
		c := mustCounting(b, size)
		for range 15 {
			c.AddHashes(keys)
		}
		j, n := 0, 0
		for b.Loop() {
			n += int(b2u(c.RemoveHash(keys[j])))
			if j++; j == len(keys) {
				j = 0
			}
		}
		if n != b.N {
			b.Fatalf("removed %d of %d", n, b.N)
		}
	})
	b.Run("Has", func(b *testing.B) {
		c := full(b)
		j, n := 0, 0
		for b.Loop() {
			n += int(b2u(c.HasHash(stream[j])))
			j = (j + 1) & (len(stream) - 1)
		}
		sinkInt = n
	})
	// HasHashes per kernel level: generic is the pure-Go loop.
	b.Run("HasHashes", func(b *testing.B) {
		c := full(b)
		out := make([]bool, 1024)
		forEachBenchLevel(b, func(b *testing.B) {
			j, n := 0, 0
			for i := 0; i < b.N; i += 1024 {
				hs := stream[j : j+min(1024, b.N-i)]
				n += c.HasHashes(hs, out)
				j = (j + 1024) & (len(stream) - 1)
			}
			sinkInt = n
		})
	})
	b.Run("FilterHas", func(b *testing.B) {
		f := mustBytes(b, size, 8)
		f.AddHashes(keys)
		j, n := 0, 0
		for b.Loop() {
			n += int(b2u(f.HasHash(stream[j])))
			j = (j + 1) & (len(stream) - 1)
		}
		sinkInt = n
	})
}

var sinkInt int
