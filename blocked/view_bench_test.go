package blocked

import (
	"fmt"
	"testing"
)

// BenchmarkViewAlign measures what a 64-byte aligned payload gains over one
// that is 8-byte aligned but not 64 (every block then straddles two cache
// lines), for views of k = 8 filters, at the current level:
//
//	go test -run '^$' -bench ViewAlign -count 8 ./blocked/ | benchstat -col /align -
func BenchmarkViewAlign(b *testing.B) {
	for _, s := range benchSizes[:3] {
		bf := filled(b, s.bytes, 8)
		enc, err := bf.f.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		for _, off := range []int{0, 8} {
			v, err := newView(alignedCopy(enc, off))
			if err != nil {
				b.Fatal(err)
			}
			align := 64
			if off != 0 {
				align = 8
			}
			name := fmt.Sprintf("size=%s/%%s/align=%d", s.name, align)
			b.Run(fmt.Sprintf(name, "op=HasHashes"), func(b *testing.B) {
				out := make([]bool, benchBatch)
				c := 0
				batches(b, bf.stream, func(hs []uint64) { c += v.HasHashes(hs, out) })
				sink += c
			})
			b.Run(fmt.Sprintf(name, "op=HasHash"), func(b *testing.B) {
				c, st := 0, bf.stream
				for i := 0; i < b.N; i++ {
					c += int(b2u(v.HasHash(st[i&(streamLen-1)])))
				}
				reportPerKey(b)
				sink += c
			})
		}
	}
}
