package blocked

import (
	"fmt"
	"testing"
)

// BenchmarkFold measures folding against Union, at 64 MiB (beyond the
// caches): Fold(1) of a 64 MiB filter into a new 32 MiB one (op=fold,
// allocation included), Union of a 32 MiB filter with the 64 MiB one,
// folded in the same pass (op=unionfold), and Union of two 64 MiB filters
// (op=union), against copying 64 MiB into a filter (op=copy, the memory
// bandwidth reference). Each reports the bytes of the argument read as its
// throughput (MB/s):
//
//	go test -run '^$' -bench BenchmarkFold -count 6 ./blocked | benchstat -col /op -
func BenchmarkFold(b *testing.B) {
	const big = 64 << 20
	src, _ := NewBytes(big, 8)
	src.AddHashes(foldKeys(1<<20, 9))
	half, _ := NewBytes(big/2, 8)
	same, _ := NewBytes(big, 8)
	for _, op := range []string{"fold", "unionfold", "union", "copy"} {
		b.Run(fmt.Sprintf("size=64MiB/op=%s", op), func(b *testing.B) {
			b.SetBytes(big)
			for range b.N {
				switch op {
				case "fold":
					g, err := src.Fold(1)
					if err != nil || g.NumBlocks() != src.NumBlocks()/2 {
						b.Fatal(err)
					}
				case "unionfold":
					if err := half.Union(src); err != nil {
						b.Fatal(err)
					}
				case "copy":
					copy(same.blocks, src.blocks)
				case "union":
					if err := same.Union(src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
