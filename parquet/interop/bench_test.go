package interop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	pqbloom "github.com/parquet-go/parquet-go/bloom"

	"github.com/simdbloom/bloom/blocked"
)

// Lookup benchmarks against parquet-go's split block filter, in one run:
//
//	cd parquet/interop
//	go test -run NONE -bench Lookup -count 6 . | tee /tmp/interop.txt
//	benchstat -col /impl /tmp/interop.txt
//
// Both libraries probe the same bits (the same bitset, copied), with a stream
// of 2^20 hashes, half present and half absent, shuffled. parquet-go has no
// batch lookup, so its single-key Check is the reference.

type lookupBench struct {
	ours   *blocked.SplitBlock
	peer   pqbloom.SplitBlockFilter
	stream []uint64
}

var lookupCache = map[int]*lookupBench{}

func lookupFilter(b *testing.B, size int) *lookupBench {
	if lb := lookupCache[size]; lb != nil {
		return lb
	}
	ours, err := blocked.NewSplitBlockBytes(uint64(size))
	if err != nil {
		b.Fatal(err)
	}
	const streamLen = 1 << 20
	n := int(float64(size*8) / 10.53) // the planned load at 1% FPR
	r := rand.New(rand.NewPCG(uint64(size), 2))
	stream := make([]uint64, 0, streamLen)
	chunk := make([]uint64, 1<<16)
	stride := max(1, n/(streamLen/2))
	for done := 0; done < n; done += len(chunk) {
		c := chunk[:min(len(chunk), n-done)]
		for i := range c {
			c[i] = r.Uint64()
		}
		ours.AddHashes(c)
		for i := (stride - done%stride) % stride; i < len(c) && len(stream) < streamLen/2; i += stride {
			stream = append(stream, c[i])
		}
	}
	for i := 0; len(stream) < streamLen/2; i++ {
		stream = append(stream, stream[i])
	}
	for len(stream) < streamLen {
		stream = append(stream, r.Uint64())
	}
	r.Shuffle(len(stream), func(i, j int) { stream[i], stream[j] = stream[j], stream[i] })
	lb := &lookupBench{ours: ours, peer: pqbloom.MakeSplitBlockFilter(ours.Bitset()), stream: stream}
	lookupCache[size] = lb
	return lb
}

func perKey(b *testing.B, keys int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(keys), "ns/key")
}

func BenchmarkLookup(b *testing.B) {
	for _, size := range []int{16 << 10, 256 << 20} {
		name := fmt.Sprintf("size=%dKiB", size>>10)
		if size >= 1<<20 {
			name = fmt.Sprintf("size=%dMiB", size>>20)
		}
		b.Run(name+"/impl=simdbloom-batch", func(b *testing.B) {
			lb := lookupFilter(b, size)
			out := make([]bool, len(lb.stream))
			b.ResetTimer()
			for range b.N {
				lb.ours.HasHashes(lb.stream, out)
			}
			perKey(b, len(lb.stream))
		})
		b.Run(name+"/impl=simdbloom-single", func(b *testing.B) {
			lb := lookupFilter(b, size)
			b.ResetTimer()
			n := 0
			for range b.N {
				for _, h := range lb.stream {
					if lb.ours.HasHash(h) {
						n++
					}
				}
			}
			perKey(b, len(lb.stream))
			sinkN = n
		})
		b.Run(name+"/impl=parquet-go-single", func(b *testing.B) {
			lb := lookupFilter(b, size)
			b.ResetTimer()
			n := 0
			for range b.N {
				for _, h := range lb.stream {
					if lb.peer.Check(h) {
						n++
					}
				}
			}
			perKey(b, len(lb.stream))
			sinkN = n
		})
	}
}

var sinkN int
