package blocked

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkViewLookup measures one-key lookups on encoded bytes, k = 8:
// through a view held across calls (op=held), a FilterView Reset before
// every lookup (op=reset), LookupHash (op=lookup), LookupHash as it was (op=old) and a new View per
// lookup (op=view), with the payload at a 64-byte boundary or 1 byte past
// one (align=1):
//
//	go test -run '^$' -bench ViewLookup -count 6 ./blocked/ | benchstat -col /op -
func BenchmarkViewLookup(b *testing.B) {
	for _, s := range benchSizes[:2] {
		bf := filled(b, s.bytes, 8)
		enc, err := bf.f.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		for _, off := range []int{0, 1} {
			buf := alignedCopy(enc, off)
			align := 64
			if off != 0 {
				align = off
			}
			name := fmt.Sprintf("size=%s/align=%d/op=%%s", s.name, align)
			st := bf.stream
			var held FilterView
			if err := held.Reset(buf); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf(name, "held"), func(b *testing.B) {
				c := 0
				timed(b, func() {
					for i := 0; i < b.N; i++ {
						c += int(b2u(held.HasHash(st[i&(streamLen-1)])))
					}
				})
				sink += c
			})
			b.Run(fmt.Sprintf(name, "reset"), func(b *testing.B) {
				c := 0
				var v FilterView
				timed(b, func() {
					for i := 0; i < b.N; i++ {
						if v.Reset(buf) != nil {
							b.Fatal("Reset")
						}
						c += int(b2u(v.HasHash(st[i&(streamLen-1)])))
					}
				})
				sink += c
			})
			b.Run(fmt.Sprintf(name, "lookup"), func(b *testing.B) {
				c := 0
				timed(b, func() {
					for i := 0; i < b.N; i++ {
						ok, _ := LookupHash(buf, st[i&(streamLen-1)])
						c += int(b2u(ok))
					}
				})
				sink += c
			})
			b.Run(fmt.Sprintf(name, "old"), func(b *testing.B) {
				c := 0
				timed(b, func() {
					for i := 0; i < b.N; i++ {
						ok, _ := lookupHashOld(buf, st[i&(streamLen-1)])
						c += int(b2u(ok))
					}
				})
				sink += c
			})
			b.Run(fmt.Sprintf(name, "view"), func(b *testing.B) {
				c := 0
				timed(b, func() {
					for i := 0; i < b.N; i++ {
						v, err := newView(buf)
						if err != nil {
							b.Fatal(err)
						}
						c += int(b2u(v.HasHash(st[i&(streamLen-1)])))
					}
				})
				sink += c
			})
		}
	}
}

// BenchmarkViewLookupPaired runs op=held, lookup, old and reset of
// BenchmarkViewLookup, and Reset as it was (resetold), in turn, 4096
// lookups each, inside one benchmark, and reports each one's ns per lookup
// and its ratio to held's, so that they share the machine's load as it
// changes:
//
//	go test -run '^$' -bench ViewLookupPaired -count 6 ./blocked/ | benchstat -
func BenchmarkViewLookupPaired(b *testing.B) {
	for _, s := range benchSizes[:2] {
		bf := filled(b, s.bytes, 8)
		enc, err := bf.f.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		for _, off := range []int{0, 1} {
			buf := alignedCopy(enc, off)
			st := bf.stream
			var held FilterView
			if err := held.Reset(buf); err != nil {
				b.Fatal(err)
			}
			ops := []struct {
				name string
				run  func(from, to int) int
			}{
				{"held", func(from, to int) (c int) {
					for i := from; i < to; i++ {
						c += int(b2u(held.HasHash(st[i&(streamLen-1)])))
					}
					return c
				}},
				{"lookup", func(from, to int) (c int) {
					for i := from; i < to; i++ {
						ok, _ := LookupHash(buf, st[i&(streamLen-1)])
						c += int(b2u(ok))
					}
					return c
				}},
				{"old", func(from, to int) (c int) {
					for i := from; i < to; i++ {
						ok, _ := lookupHashOld(buf, st[i&(streamLen-1)])
						c += int(b2u(ok))
					}
					return c
				}},
				{"reset", func(from, to int) (c int) {
					var v FilterView
					for i := from; i < to; i++ {
						_ = v.Reset(buf)
						c += int(b2u(v.HasHash(st[i&(streamLen-1)])))
					}
					return c
				}},
				{"resetold", func(from, to int) (c int) {
					var v FilterView
					for i := from; i < to; i++ {
						_ = v.resetOld(buf)
						c += int(b2u(v.HasHash(st[i&(streamLen-1)])))
					}
					return c
				}},
			}
			align := 64
			if off != 0 {
				align = off
			}
			b.Run(fmt.Sprintf("size=%s/align=%d", s.name, align), func(b *testing.B) {
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
						c += op.run(i, i+n)
						spent[j] += time.Since(t0)
						calls[j] += n
						i += n
					}
				}
				sink += c
				if calls[len(ops)-1] == 0 {
					return
				}
				base := float64(spent[0]) / float64(calls[0])
				for j, op := range ops {
					per := float64(spent[j]) / float64(calls[j])
					b.ReportMetric(per, op.name+"-ns/op")
					if j > 0 {
						b.ReportMetric(per/base, op.name+"/held")
					}
				}
			})
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
