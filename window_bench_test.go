package bloom

import (
	"fmt"
	"testing"
	"time"

	"github.com/simdbloom/bloom/blocked"
)

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
