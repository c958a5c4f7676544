package bloom

import (
	"fmt"
	"testing"
)

var lookupSink int

// BenchmarkLookup measures one-key lookups of 13-byte []byte keys on
// encoded bytes (10k and 800k keys at 1%, 12 KiB and 960 KiB): through a
// FilterView[[]byte] held across calls (op=held), Lookup (op=lookup), and
// Lookup as it was, a FilterView Reset per call (op=old), in one process:
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
		name := fmt.Sprintf("keys=%d/op=%%s", n)
		b.Run(fmt.Sprintf(name, "held"), func(b *testing.B) {
			c := 0
			cpuTimed(b, func() {
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
			cpuTimed(b, func() {
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
			cpuTimed(b, func() {
				for i := 0; i < b.N; i++ {
					if ok, _ := lookupSlow(enc, keys[i&(len(keys)-1)]); ok {
						c++
					}
				}
			})
			lookupSink += c
		})
	}
}
