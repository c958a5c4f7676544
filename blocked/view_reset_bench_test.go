package blocked

import (
	"fmt"
	"testing"
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
				cpuTimed(b, func() {
					for i := 0; i < b.N; i++ {
						c += int(b2u(held.HasHash(st[i&(streamLen-1)])))
					}
				})
				sink += c
			})
			b.Run(fmt.Sprintf(name, "reset"), func(b *testing.B) {
				c := 0
				var v FilterView
				cpuTimed(b, func() {
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
				cpuTimed(b, func() {
					for i := 0; i < b.N; i++ {
						ok, _ := LookupHash(buf, st[i&(streamLen-1)])
						c += int(b2u(ok))
					}
				})
				sink += c
			})
			b.Run(fmt.Sprintf(name, "old"), func(b *testing.B) {
				c := 0
				cpuTimed(b, func() {
					for i := 0; i < b.N; i++ {
						ok, _ := lookupHashOld(buf, st[i&(streamLen-1)])
						c += int(b2u(ok))
					}
				})
				sink += c
			})
			b.Run(fmt.Sprintf(name, "view"), func(b *testing.B) {
				c := 0
				cpuTimed(b, func() {
					for i := 0; i < b.N; i++ {
						v, err := View(buf)
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
