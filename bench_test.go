package bloom

// The root package's benchmarks: batches of keys (HasAll), one-call lookups
// on encoded bytes, one-key typed Has and Add, Window and Scalable.Verify.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/simdbloom/bloom/blocked"
	"github.com/zeebo/xxh3"
)

// The string hashing targets of issue 12: Filter[string].HasAll against
// blocked HasHashes of the same keys' precomputed hashes, at a 16 KiB filter,
// each level's two rows in one process. The keys lie contiguously in one
// buffer, as a page of keys would, and the stream is short enough (2^16 keys,
// at most 2.5 MiB of key bytes) to stay in L2/L3 like a user's batch, so the
// rows measure hashing rather than streaming the keys from memory:
//
//	go test -run '^$' -bench HasAllStrings -count 8 . | tee hasall.txt
//	benchstat -col /op hasall.txt
//
// ns/op is wall time per key (b.N counts keys). On shared cores busy with
// other work it swings by tens of percent between runs: alternate the runs
// and compare with benchstat. The bench/ module's BenchmarkTypedStrings
// measures the same rows at 16 KiB with the thread's CPU time per key
// (cpu-ns/key) besides.

const (
	hasAllStream = 1 << 16
	hasAllBatch  = 4096
)

// hasAllKeys returns a stream of hasAllStream keys of min to max random
// bytes, sub-strings of one buffer in stream order, and their hashes.
func hasAllKeys(min, max int) ([]string, []uint64) {
	r := rand.New(rand.NewPCG(uint64(min), uint64(max)))
	ends := make([]int, hasAllStream)
	var buf []byte
	for i := range ends {
		for range min + r.IntN(max-min+1) {
			buf = append(buf, byte(r.Uint32()))
		}
		ends[i] = len(buf)
	}
	whole := string(buf)
	keys := make([]string, hasAllStream)
	hashes := make([]uint64, hasAllStream)
	start := 0
	for i, end := range ends {
		keys[i], hashes[i] = whole[start:end], Hash(whole[start:end])
		start = end
	}
	return keys, hashes
}

// hasAllBatches runs has over batches of hasAllBatch from stream; b.N
// counts keys.
func hasAllBatches[T any](b *testing.B, stream []T, has func([]T, []bool) int) {
	out := make([]bool, hasAllBatch)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i += hasAllBatch {
		j := i & (hasAllStream - 1)
		n += has(stream[j:j+hasAllBatch], out)
	}
	benchSink += n
}

// BenchmarkHasAllStrings: for 16-byte, 40-byte and mixed 5-64-byte keys, a
// 16 KiB Filter[string] holding half of the stream's keys (at most 8 per 10
// bytes), HasAll of the keys and HasHashes of their hashes, with every set of
// string kernels (strVariants: each level, and AVX-512 without IFMA).
func BenchmarkHasAllStrings(b *testing.B) {
	const size = 16 << 10
	for _, kc := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"mixed5-64", 5, 64}} {
		keys, hashes := hasAllKeys(kc.min, kc.max)
		eng, err := blocked.NewBytes(size, 8)
		if err != nil {
			b.Fatal(err)
		}
		f := FromEngine[string](eng)
		f.AddAll(keys[:min(len(keys)/2, size*8/10)])
		for _, v := range strVariants() {
			name := fmt.Sprintf("size=16K/key=%s", kc.name)
			onStrVariant(b, name+"/op=HasAll", v, func(b *testing.B) { hasAllBatches(b, keys, f.HasAll) })
			onStrVariant(b, name+"/op=HasHashes", v, func(b *testing.B) { hasAllBatches(b, hashes, eng.HasHashes) })
		}
	}
}

// BenchmarkHashAllStrings is hashKeys alone over the same streams, batches
// of hasAllBatch keys, with every set of string kernels: the part of HasAll
// the string kernels decide.
func BenchmarkHashAllStrings(b *testing.B) {
	for _, kc := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"100", 100, 100}, {"mixed5-64", 5, 64}, {"mixed20-100", 20, 100}, {"mixed65-128", 65, 128}} {
		keys, _ := hasAllKeys(kc.min, kc.max)
		dst := make([]uint64, hasAllBatch)
		for _, v := range strVariants() {
			onStrVariant(b, "key="+kc.name, v, func(b *testing.B) {
				b.ResetTimer()
				for i := 0; i < b.N; i += hasAllBatch {
					j := i & (hasAllStream - 1)
					hashKeys(kindString, dst, keys[j:j+hasAllBatch])
				}
			})
		}
	}
}

// The mixed-length targets of issue 22: streams of mixedStream keys (more
// than L2 holds) in the two layouts users have, at a 16 KiB filter:
//
//	go test -run '^$' -bench HasAllMixed -count 6 . | tee mixed.txt
//	benchstat -col /op mixed.txt
//
// layout=buffer keys are cut from one buffer in stream order (a page of keys,
// a file's lines); layout=alloc keys are each in their own allocation, the
// stream visiting them in an order unrelated to the heap's (keys from a map).
// op=HasAll is Filter[string].HasAll, op=Has a loop of Has on the same keys,
// op=HasHashes blocked HasHashes of their hashes.
const mixedStream = 1 << 18

// mixedKeys returns mixedStream keys of min to max random bytes in layout
// buffer or alloc, and their hashes.
func mixedKeys(min, max int, layout string) ([]string, []uint64) {
	r := rand.New(rand.NewPCG(uint64(min)<<8|uint64(max), 22))
	keys := make([]string, mixedStream)
	var buf []byte
	ends := make([]int, mixedStream)
	for i := range ends {
		for range min + r.IntN(max-min+1) {
			buf = append(buf, byte(r.Uint32()))
		}
		ends[i] = len(buf)
	}
	whole, start := string(buf), 0
	for i, end := range ends {
		if layout == "alloc" {
			keys[i] = string(buf[start:end]) // its own allocation
		} else {
			keys[i] = whole[start:end]
		}
		start = end
	}
	if layout == "alloc" {
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	}
	hashes := make([]uint64, len(keys))
	for i, k := range keys {
		hashes[i] = Hash(k)
	}
	return keys, hashes
}

// mixedBatches is hasAllBatches over a stream of mixedStream keys.
func mixedBatches[T any](b *testing.B, stream []T, has func([]T, []bool) int) {
	out := make([]bool, hasAllBatch)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i += hasAllBatch {
		j := i & (mixedStream - 1)
		n += has(stream[j:j+hasAllBatch], out)
	}
	benchSink += n
}

// BenchmarkHasAllMixed: for keys of 16, 40, 5-64, 20-100 and 65-128 bytes in both
// layouts, a 16 KiB Filter[string] holding 8 keys per 10 bytes of the
// stream's, HasAll of the keys, a loop of Has, and HasHashes of their hashes,
// with every set of string kernels.
func BenchmarkHasAllMixed(b *testing.B) {
	const size = 16 << 10
	for _, kc := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"5-64", 5, 64}, {"20-100", 20, 100}, {"65-128", 65, 128}} {
		for _, layout := range []string{"buffer", "alloc"} {
			keys, hashes := mixedKeys(kc.min, kc.max, layout)
			eng, err := blocked.NewBytes(size, 8)
			if err != nil {
				b.Fatal(err)
			}
			f := FromEngine[string](eng)
			f.AddAll(keys[:size*8/10])
			loop := func(ks []string, out []bool) int {
				n := 0
				for i, k := range ks {
					out[i] = f.Has(k)
					if out[i] {
						n++
					}
				}
				return n
			}
			for _, v := range strVariants() {
				name := fmt.Sprintf("key=%s/layout=%s", kc.name, layout)
				onStrVariant(b, name+"/op=HasAll", v, func(b *testing.B) { mixedBatches(b, keys, f.HasAll) })
				onStrVariant(b, name+"/op=Has", v, func(b *testing.B) { mixedBatches(b, keys, loop) })
				onStrVariant(b, name+"/op=HasHashes", v, func(b *testing.B) { mixedBatches(b, hashes, eng.HasHashes) })
			}
		}
	}
}

var lookupSink int

// BenchmarkLookup measures one-key lookups of 13-byte []byte keys on
// encoded bytes (10k and 800k keys at 1%, 12 KiB and 960 KiB): through a
// FilterView[[]byte] held across calls (op=held), Lookup (op=lookup), and
// Lookup as it was, a FilterView Reset per call (op=old), in one process;
// op=paired runs the three in turn, 4096 keys each, inside one benchmark,
// with xxh3.Hash then HasHash on the held view's engine (heldxxh3), and
// reports each one's ns per key and its ratio to held's:
//
//	go test -run '^$' -bench BenchmarkLookup -count 6 . | benchstat -col /op -
func BenchmarkLookup(b *testing.B) {
	for _, n := range []int{10_000, 800_000} {
		f, _ := New[[]byte](uint64(n), 0.01)
		keys := make([][]byte, 1<<14)
		for i := range n {
			k := fmt.Appendf(nil, "key-%09d", i)
			f.Add(k)
			if i < len(keys) {
				keys[i] = k
			}
		}
		for i := range keys {
			if keys[i] == nil {
				keys[i] = fmt.Appendf(nil, "key-%09d", i)
			}
			if i%2 == 1 {
				keys[i] = fmt.Appendf(nil, "nokey%08d", i) // half absent
			}
		}
		enc, _ := f.MarshalBinary()
		enc = aligned(enc)
		var held FilterView[[]byte]
		if err := held.Reset(enc); err != nil {
			b.Fatal(err)
		}
		var eng blocked.FilterView
		if err := eng.Reset(enc); err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("keys=%d/op=%%s", n)
		b.Run(fmt.Sprintf("keys=%d/op=paired", n), func(b *testing.B) {
			ops := []func(k []byte) bool{
				func(k []byte) bool { return held.Has(k) },
				func(k []byte) bool { ok, _ := Lookup(enc, k); return ok },
				func(k []byte) bool { ok, _ := lookupReset(enc, k); return ok },
				func(k []byte) bool { return eng.HasHash(xxh3.Hash(k)) },
			}
			pairedLookups(b, keys, ops, []string{"held", "lookup", "old", "heldxxh3"})
		})
		b.Run(fmt.Sprintf(name, "held"), func(b *testing.B) {
			c := 0
			timed(b, func() {
				for i := 0; i < b.N; i++ {
					if held.Has(keys[i&(len(keys)-1)]) {
						c++
					}
				}
			})
			lookupSink += c
		})
		b.Run(fmt.Sprintf(name, "lookup"), func(b *testing.B) {
			c := 0
			timed(b, func() {
				for i := 0; i < b.N; i++ {
					if ok, _ := Lookup(enc, keys[i&(len(keys)-1)]); ok {
						c++
					}
				}
			})
			lookupSink += c
		})
		b.Run(fmt.Sprintf(name, "old"), func(b *testing.B) {
			c := 0
			timed(b, func() {
				for i := 0; i < b.N; i++ {
					if ok, _ := lookupReset(enc, keys[i&(len(keys)-1)]); ok {
						c++
					}
				}
			})
			lookupSink += c
		})
	}
}

// lookupReset is Lookup by a FilterView[K] Reset for each call: op=old.
//
//go:noinline
func lookupReset[K Key](b []byte, key K) (bool, error) {
	var v FilterView[K]
	if err := v.Reset(b); err != nil {
		return false, err
	}
	return v.Has(key), nil
}

// pairedLookups runs ops in turn over keys, 4096 calls each, until b.N
// calls in all, and reports each one's ns per call and its ratio to the
// first's.
func pairedLookups(b *testing.B, keys [][]byte, ops []func([]byte) bool, names []string) {
	spent := make([]time.Duration, len(ops))
	calls := make([]int, len(ops))
	c := 0
	for i := 0; i < b.N; {
		for j, op := range ops {
			n := min(4096, b.N-i)
			if n <= 0 {
				break
			}
			t0 := time.Now()
			for x := i; x < i+n; x++ {
				if op(keys[x&(len(keys)-1)]) {
					c++
				}
			}
			spent[j] += time.Since(t0)
			calls[j] += n
			i += n
		}
	}
	lookupSink += c
	if calls[len(ops)-1] == 0 {
		return
	}
	base := float64(spent[0]) / float64(calls[0])
	for j := range ops {
		per := float64(spent[j]) / float64(calls[j])
		b.ReportMetric(per, names[j]+"-ns/op")
		if j > 0 {
			b.ReportMetric(per/base, names[j]+"/held")
		}
	}
}

// timed runs loop, b's timed loop, after resetting b's timer. (The thread
// CPU-time metric lives in the bench module, outside the library's module;
// these benchmarks compare forms run in turn in one process, whose wall-time
// ratio survives a busy machine.)
func timed(b *testing.B, loop func()) {
	b.ResetTimer()
	loop()
}

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

var windowSink int

// BenchmarkWindow compares a Window (default 4 generations, n keys per
// window at 1%, every generation full) with a Filter of the same total
// size holding the same keys, for n = 10^4 (in cache) and 10^6 (beyond
// it), half the keys looked up present: Has per key (op=has), HasAll over
// 4096 keys (op=hasall), for the Window (kind=window) and the Filter
// (kind=filter). ns/op is per key.
//
//	go test -run '^$' -bench BenchmarkWindow -count 6 . | benchstat -col /kind -
//	go test -run '^$' -bench BenchmarkWindow -count 6 . | benchstat -col /op -
func BenchmarkWindow(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		clock := &fakeClock{t: t0}
		w, err := NewWindow[uint64](uint64(n), 0.01, time.Hour, WithClock(clock.now))
		if err != nil {
			b.Fatal(err)
		}
		const g = 4
		var all []uint64
		for gen := range g + 1 { // g+1 generations of n/g keys: the fullest a Window gets
			clock.t = t0.Add(time.Duration(gen) * time.Hour / g)
			ks := make([]uint64, n/g)
			for i := range ks {
				ks[i] = uint64(gen*n + i)
			}
			w.AddAll(ks)
			all = append(all, ks...)
		}
		e, _ := blocked.NewBytes(w.NumBits()/8, 8)
		f := FromEngine[uint64](e)
		f.AddAll(all)
		keys := make([]uint64, 4096)
		for i := range keys {
			keys[i] = all[(i*7919)%len(all)]
			if i%2 == 1 {
				keys[i] = 1<<40 + uint64(i) // absent
			}
		}
		out := make([]bool, len(keys))
		for _, kind := range []string{"window", "filter"} {
			has, hasAll := w.Has, w.HasAll
			if kind == "filter" {
				has, hasAll = f.Has, f.HasAll
			}
			b.Run(fmt.Sprintf("keys=%d/op=has/kind=%s", n, kind), func(b *testing.B) {
				c := 0
				for i := range b.N {
					if has(keys[i&4095]) {
						c++
					}
				}
				windowSink += c
			})
			b.Run(fmt.Sprintf("keys=%d/op=hasall/kind=%s", n, kind), func(b *testing.B) {
				c := 0
				for i := 0; i < b.N; i += len(keys) {
					c += hasAll(keys, out)
				}
				windowSink += c
			})
		}
	}
}

// BenchmarkVerifyScalable is blocked.Verify of a Scalable encoding of two
// stages, about 40 MiB (out of cache), against Verify of a Filter encoding
// of as many bytes: Verify reads a Scalable's stages once for the outer
// checksum and theirs together.
func BenchmarkVerifyScalable(b *testing.B) {
	s, err := NewScalable[uint64](1<<22, 0.01, WithGrowth(2))
	if err != nil {
		b.Fatal(err)
	}
	s.AddAll(seedKeys(7, 5<<20))
	if s.Stages() != 2 {
		b.Fatalf("%d stages, want 2", s.Stages())
	}
	sb := mustMarshal(b, s)
	f, err := blocked.NewBytes(uint64(len(sb)-128), 8)
	if err != nil {
		b.Fatal(err)
	}
	f.SetKeyHash(blocked.HashXXH3)
	fb, err := f.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		enc  []byte
	}{{"Scalable", sb}, {"Filter", fb}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.enc)))
			for b.Loop() {
				if err := blocked.Verify(c.enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
