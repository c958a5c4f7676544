package bloom

import (
	"fmt"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/blocked"
)

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
