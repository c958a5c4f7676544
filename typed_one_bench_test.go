package bloom

import (
	"flag"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/blocked"
)

var oneSizes = flag.String("bench.onesizes", "16K,1M,8M", "filter sizes for BenchmarkTypedOne")

// BenchmarkTypedOne compares a loop of the typed one-key Has with the same
// loop written with the public API by hand, at every level, so that one run
// shows whether Has is at least as fast as the best composition:
//
//	go test -run '^$' -bench BenchmarkTypedOne -count 6 . | benchstat -col /op -
//
// key=uint64 streams 2^20 keys (half present) through Has, e.HasHash(
// HashUint64(k)) with e := f.Engine() before the loop (hashu64), f.Engine().
// HasHash(HashUint64(k)) (engine) and e.HasHash(Hash(k)) (hash);
// key=str5-64 streams 2^18 strings of 5-64 random bytes, each in its own
// allocation in stream order, through HasAll (1024 keys a call, run first,
// as a program would), Has, e.HasHash(Hash(k)) (hash) and
// e.HasHash(xxh3.HashString(k)) (xxh3); key=uint64add compares Add with
// AddHash(HashUint64(k)) of the uint64 stream, on a copy of the filter.
// Filters hold 10 bits a key, k = 8.
// Compare med-ns/key, robust to a busy machine.
func BenchmarkTypedOne(b *testing.B) {
	for _, size := range parseSizes(b, *oneSizes) {
		sz := sizeName(size)
		f, stream := typedFixture(b, size)
		e := f.Engine()
		for _, l := range benchLevels() {
			pre := "size=" + sz + "/key=uint64/level=" + l.String() + "/op="
			b.Run(pre+"Has", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i++ {
							c += one(f.Has(stream[i&(typedStreamLen-1)]))
						}
						return c
					})
				})
			})
			b.Run(pre+"hashu64", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i++ {
							c += one(e.HasHash(HashUint64(stream[i&(typedStreamLen-1)])))
						}
						return c
					})
				})
			})
			b.Run(pre+"engine", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i++ {
							c += one(f.Engine().HasHash(HashUint64(stream[i&(typedStreamLen-1)])))
						}
						return c
					})
				})
			})
			b.Run(pre+"hash", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i++ {
							c += one(e.HasHash(Hash(stream[i&(typedStreamLen-1)])))
						}
						return c
					})
				})
			})
			// Add and AddHash of the same keys, into a copy of the filter.
			g := f.clone()
			ge := g.Engine()
			pre = "size=" + sz + "/key=uint64add/level=" + l.String() + "/op="
			b.Run(pre+"Add", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) int {
						for i := lo; i < hi; i++ {
							g.Add(stream[i&(typedStreamLen-1)])
						}
						return 0
					})
				})
			})
			b.Run(pre+"hashu64", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) int {
						for i := lo; i < hi; i++ {
							ge.AddHash(HashUint64(stream[i&(typedStreamLen-1)]))
						}
						return 0
					})
				})
			})
		}
		fs, keys := oneStrFixture(b, size, 5, 64)
		es := fs.Engine()
		for _, l := range benchLevels() {
			pre := "size=" + sz + "/key=str5-64/level=" + l.String() + "/op="
			// HasAll first, as a program (and ../shared/peers/boost/run.sh's
			// C cells) would run a batch before the one-key loop.
			b.Run(pre+"HasAll", func(b *testing.B) {
				out := make([]bool, 1024)
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i += len(out) {
							j := i & (len(keys) - 1)
							c += fs.HasAll(keys[j:j+min(len(out), hi-i)], out)
						}
						return c
					})
				})
			})
			b.Run(pre+"Has", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i++ {
							c += one(fs.Has(keys[i&(len(keys)-1)]))
						}
						return c
					})
				})
			})
			b.Run(pre+"hash", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i++ {
							c += one(es.HasHash(Hash(keys[i&(len(keys)-1)])))
						}
						return c
					})
				})
			})
			b.Run(pre+"xxh3", func(b *testing.B) {
				withLevel(l, func() {
					chunked(b, func(lo, hi int) (c int) {
						for i := lo; i < hi; i++ {
							c += one(es.HasHash(xxh3.HashString(keys[i&(len(keys)-1)])))
						}
						return c
					})
				})
			})
		}
	}
}

// oneStrFixture returns a Filter[string] of size bytes holding 8 keys per 10
// bytes, and a stream of 2^18 keys of lo-hi random bytes, half of them
// added, each in its own allocation, allocated in stream order.
func oneStrFixture(b *testing.B, size uint64, lo, hi int) (*Filter[string], []string) {
	fb, err := blocked.NewBytes(size, 8)
	if err != nil {
		b.Fatal(err)
	}
	f := FromEngine[string](fb)
	n := size * 8 / 10
	var buf []byte
	key := func(i uint64) []byte {
		x := benchKey(i)
		buf = buf[:0]
		for range lo + int(x%uint64(hi-lo+1)) {
			x = benchKey(x)
			buf = append(buf, byte(x))
		}
		return buf
	}
	for i := range n {
		fb.AddHash(xxh3.Hash(key(i)))
	}
	r := rand.New(rand.NewPCG(size, 9))
	keys := make([]string, 1<<18)
	for i := range keys {
		if i%2 == 0 {
			keys[i] = string(key(r.Uint64N(n)))
		} else {
			keys[i] = string(key(n + r.Uint64N(1<<40)))
		}
	}
	return f, keys
}

// one is 1 for true, as the peers' harnesses count their lookups.
func one(b bool) int {
	if b {
		return 1
	}
	return 0
}

// chunked runs loop over keys [0, b.N) in chunks of 4096 and reports,
// besides ns/op, the median of the chunks' wall time per key (med-ns/key):
// on a shared machine a chunk that lost the processor to another program
// is an outlier there, where it inflates the mean.
func chunked(b *testing.B, loop func(lo, hi int) int) {
	const chunk = 4096
	per := make([]float64, 0, b.N/chunk+1)
	c := 0
	b.ResetTimer()
	for lo := 0; lo < b.N; lo += chunk {
		hi := min(lo+chunk, b.N)
		t0 := time.Now()
		c += loop(lo, hi)
		per = append(per, float64(time.Since(t0))/float64(hi-lo))
	}
	b.StopTimer()
	benchSink += c
	slices.Sort(per)
	b.ReportMetric(per[len(per)/2], "med-ns/key")
}
