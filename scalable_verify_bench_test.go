package bloom

import (
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

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
