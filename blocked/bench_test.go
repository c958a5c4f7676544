package blocked

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// Benchmarks by filter size and kernel level, in ns/key. Filters are filled
// to about 10 bits per key before the timer starts (which also pays the
// first-touch page faults); lookups stream 2^20 hashes, half added and half
// not, shuffled, so the branch predictor cannot learn them. Compare levels
// within one run:
//
//	go test -run '^$' -bench . -count 6 ./blocked/ | benchstat -col /level -

var benchSizes = []struct {
	name  string
	bytes uint64
}{
	{"16KiB", 16 << 10},
	{"1MiB", 1 << 20},
	{"8MiB", 8 << 20},
	{"256MiB", 256 << 20},
}

const (
	streamLen  = 1 << 20 // lookup and add stream length
	benchBatch = 8192    // keys per batch call
)

// splitmix64 is a well-mixed sequence: the i-th hash of a seed.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

type benchFilter struct {
	f      *Filter
	stream []uint64 // half added, half not, shuffled
}

var benchFilters = map[string]*benchFilter{}

// filled returns the filter of the given size and k, filled to 10 bits per
// key, and its lookup stream; filters are built once per process.
func filled(b *testing.B, bytes uint64, k int) *benchFilter {
	key := fmt.Sprint(bytes, k)
	if bf, ok := benchFilters[key]; ok {
		return bf
	}
	b.StopTimer()
	defer b.StartTimer()
	f, err := NewBytes(bytes, k)
	if err != nil {
		b.Fatal(err)
	}
	bf := &benchFilter{f: f, stream: fillTenBitsPerKey(f.AddHashes, f.NumBits(), bytes+uint64(k))}
	benchFilters[key] = bf
	return bf
}

// fillTenBitsPerKey adds bits/10 hashes with add and returns a shuffled
// lookup stream of streamLen hashes, half of them added.
func fillTenBitsPerKey(add func([]uint64), bits, seed uint64) []uint64 {
	n := bits / 10
	chunk := make([]uint64, 1<<16)
	for i := uint64(0); i < n; {
		c := chunk[:min(uint64(len(chunk)), n-i)]
		for j := range c {
			c[j] = splitmix64(i + uint64(j))
		}
		add(c)
		i += uint64(len(c))
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	stream := make([]uint64, streamLen)
	for i := range stream {
		if i%2 == 0 {
			stream[i] = splitmix64(r.Uint64N(n)) // added
		} else {
			stream[i] = splitmix64(n + r.Uint64()>>1) // not added
		}
	}
	r.Shuffle(len(stream), func(i, j int) { stream[i], stream[j] = stream[j], stream[i] })
	return stream
}

// forEachBenchLevel runs fn as a sub-benchmark at every usable level.
func forEachBenchLevel(b *testing.B, fn func(b *testing.B)) {
	saved := cpu.Active
	defer func() { cpu.Active = saved }()
	for _, l := range cpu.Usable() {
		cpu.Active = l
		b.Run("level="+l.String(), fn)
	}
}

// forEachBenchKernel is forEachBenchLevel followed by the supported
// variants of benchVariants, for the benchmarks whose kernel they change.
func forEachBenchKernel(b *testing.B, fn func(b *testing.B)) {
	forEachBenchLevel(b, fn)
	saved := cpu.Active
	defer func() { cpu.Active = saved }()
	for _, v := range benchVariants {
		if cpu.Supported(v.level) {
			cpu.Active = v.level
			restore := v.set()
			b.Run("level="+v.name, fn)
			restore()
		}
	}
}

// benchVariant is a kernel a level falls back to on processors that lack an
// extension this one has: set switches to it and returns what switches back.
type benchVariant struct {
	name  string
	level cpu.Level
	set   func() (restore func())
}

// benchVariants are the Filter lookups' variants (kernels_amd64_test.go
// adds AVX-512 without BITALG).
var benchVariants []benchVariant

func reportPerKey(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/key")
}

// batches calls fn on consecutive batches of the stream, b.N keys in all.
func batches(b *testing.B, stream []uint64, fn func(hs []uint64)) {
	b.ResetTimer()
	for done, pos := 0, 0; done < b.N; {
		n := min(benchBatch, b.N-done)
		fn(stream[pos : pos+n])
		done += n
		pos = (pos + benchBatch) % len(stream)
	}
	reportPerKey(b)
}

// benchSizesK runs fn for every size with k = 8, and for 16 KiB and 1 MiB
// with k = 16.
func benchSizesK(b *testing.B, fn func(b *testing.B, bytes uint64, k int)) {
	for _, s := range benchSizes {
		for _, k := range []int{8, 16} {
			if k == 16 && s.bytes > 1<<20 {
				continue
			}
			b.Run(fmt.Sprintf("size=%s/k=%d", s.name, k), func(b *testing.B) { fn(b, s.bytes, k) })
		}
	}
}

var sink int

func BenchmarkHasHashes(b *testing.B) {
	benchSizesK(b, func(b *testing.B, bytes uint64, k int) {
		bf := filled(b, bytes, k)
		out := make([]bool, benchBatch)
		forEachBenchKernel(b, func(b *testing.B) {
			c := 0
			batches(b, bf.stream, func(hs []uint64) { c += bf.f.HasHashes(hs, out) })
			sink += c
		})
	})
}

func BenchmarkAddHashes(b *testing.B) {
	benchSizesK(b, func(b *testing.B, bytes uint64, k int) {
		bf := filled(b, bytes, k)
		f := bf.f.Clone() // keep the shared filter at 10 bits per key
		forEachBenchLevel(b, func(b *testing.B) {
			batches(b, bf.stream, f.AddHashes)
		})
	})
}

// BenchmarkHasHash and BenchmarkAddHash time the single-key methods per
// level: generic is the pure-Go body, avx2 and avx512 the one-key assembly.
func BenchmarkHasHash(b *testing.B) {
	benchSizesK(b, func(b *testing.B, bytes uint64, k int) {
		bf := filled(b, bytes, k)
		f, s := bf.f, bf.stream
		forEachBenchLevel(b, func(b *testing.B) {
			c := 0
			for i := 0; i < b.N; i++ {
				// Count without a branch: a branch on a random result
				// mispredicts half the time, a cost of the caller's, not
				// of HasHash.
				c += int(b2u(f.HasHash(s[i&(streamLen-1)])))
			}
			reportPerKey(b)
			sink += c
		})
	})
}

func BenchmarkAddHash(b *testing.B) {
	benchSizesK(b, func(b *testing.B, bytes uint64, k int) {
		bf := filled(b, bytes, k)
		f, s := bf.f.Clone(), bf.stream
		forEachBenchLevel(b, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f.AddHash(s[i&(streamLen-1)])
			}
			reportPerKey(b)
		})
	})
}

// floorKernels touch one cache line per key. The floor is plain Go: a
// benchmark-only assembly kernel would have to ship in the library's
// generated .s (Go has no test-only assembly files).
var floorKernels = []floorKernel{{"go", touchLinesGo}}

// floorKernel is one way of touching the block of every hash.
type floorKernel struct {
	name string
	fn   func(f *Filter, hs []uint64) uint64
}

// touchLinesGo loads the first word of the block of every hash (no prefetch).
func touchLinesGo(f *Filter, hs []uint64) uint64 {
	var s uint64
	for _, h := range hs {
		s += f.blockAt(h)[0]
	}
	return s
}

// BenchmarkFloor is the hardware floor of a batch lookup: one random cache
// line per key from a filter of each benchmark size, nothing else (a Go
// loop without prefetch).
func BenchmarkFloor(b *testing.B) {
	for _, s := range benchSizes {
		bf := filled(b, s.bytes, 8)
		for _, fk := range floorKernels {
			b.Run("size="+s.name+"/touch="+fk.name, func(b *testing.B) {
				var sum uint64
				batches(b, bf.stream, func(hs []uint64) { sum += fk.fn(bf.f, hs) })
				sink += int(sum)
			})
		}
	}
}
