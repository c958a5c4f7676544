package bench

// simdbloom's own batch benchmarks beside the peer comparisons: the typed
// batch adds and Filter[string].HasAll against HasHashes, at every level.
// They moved here from the root module with internal/benchkit, so that the
// benchmark fixtures are not part of the library's module download.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/bench/internal/benchkit"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/cpu"
)

// BenchmarkTypedBatchAdd compares the batch adds of Counting, Cuckoo and
// Scalable (AddAll) with a loop of Add, per key, for a filter planned for
// as many keys as the blocked fixture of each size holds (8 per 10 bytes).
// Filters are remade, untimed, whenever they hold their planned keys.
func BenchmarkTypedBatchAdd(b *testing.B) {
	for _, size := range benchkit.Sizes(b) {
		fx := benchkit.Get(b, size)
		n := len(fx.Keys)
		type adder struct {
			reset  func()
			single func(k uint64)
			batch  func(ks []uint64)
		}
		kinds := []struct {
			name string
			make func() adder
		}{
			{"Counting", func() adder {
				var c *bloom.Counting[uint64]
				return adder{
					func() { c, _ = bloom.NewCounting[uint64](uint64(n), 0.01) },
					func(k uint64) { c.Add(k) },
					func(ks []uint64) { c.AddAll(ks) },
				}
			}},
			{"Cuckoo", func() adder {
				var c *bloom.Cuckoo[uint64]
				return adder{
					func() { c, _ = bloom.NewCuckoo[uint64](uint64(n), 0.01) },
					func(k uint64) { c.Add(k) },
					func(ks []uint64) { c.AddAll(ks) },
				}
			}},
			{"Scalable", func() adder {
				var s *bloom.Scalable[uint64]
				return adder{
					func() { s, _ = bloom.NewScalable[uint64](uint64(n), 0.01) },
					func(k uint64) { s.Add(k) },
					func(ks []uint64) { s.AddAll(ks) },
				}
			}},
		}
		for _, kind := range kinds {
			for _, mode := range []string{"single", "batch"} {
				b.Run(kind.name+"/"+benchkit.SizeLabel(size)+"/"+mode, func(b *testing.B) {
					a := kind.make()
					a.reset()
					done := 0
					b.ResetTimer()
					for left := b.N; left > 0; {
						if done == n {
							b.StopTimer()
							a.reset()
							done = 0
							b.StartTimer()
						}
						m := min(left, n-done, 4096)
						ks := fx.Keys[done : done+m]
						if mode == "batch" {
							a.batch(ks)
						} else {
							for _, k := range ks {
								a.single(k)
							}
						}
						done += m
						left -= m
					}
				})
			}
		}
	}
}

// BenchmarkTypedStrings compares Filter[string].HasAll with HasHashes of the
// same keys' hashes (the lookup without hashing), at every kernel level, for
// keys of 16 and 40 bytes and of mixed lengths 5 to 64, in a 16 KiB filter
// holding 8 keys per 10 bytes. The stream's keys lie in stream order in one
// buffer, half of them added. Compare the rows of one run:
//
//	cd bench && go test -run '^$' -bench TypedStrings -count 6 . | tee strings.txt
//	benchstat -col /op strings.txt
func BenchmarkTypedStrings(b *testing.B) {
	const size = 16 << 10
	for _, keys := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"mixed5-64", 5, 64}} {
		r := rand.New(rand.NewPCG(uint64(keys.min), uint64(keys.max)))
		var buf []byte
		ends := make([]int, benchkit.StreamLen)
		for i := range ends {
			n := keys.min + r.IntN(keys.max-keys.min+1)
			for range n {
				buf = append(buf, byte(r.Uint32()))
			}
			ends[i] = len(buf)
		}
		whole := string(buf)
		stream := make([]string, benchkit.StreamLen)
		hashes := make([]uint64, benchkit.StreamLen)
		start := 0
		for i, end := range ends {
			stream[i], hashes[i] = whole[start:end], bloom.Hash(whole[start:end])
			start = end
		}
		eng, err := blocked.NewBytes(size, 8)
		if err != nil {
			b.Fatal(err)
		}
		f := bloom.FromEngine[string](eng)
		added := stream[:min(len(stream)/2, size*8/10)]
		f.AddAll(added)
		for _, l := range cpu.Usable() {
			prefix := fmt.Sprintf("size=16K/key=%s/level=%v", keys.name, l)
			withLevel := func(fn func(b *testing.B)) func(b *testing.B) {
				return func(b *testing.B) {
					saved := cpu.Active
					cpu.Active = l
					defer func() { cpu.Active = saved }()
					fn(b)
				}
			}
			b.Run(prefix+"/op=HasAll", withLevel(func(b *testing.B) { benchkit.Batched(b, stream, f.HasAll) }))
			b.Run(prefix+"/op=HasHashes", withLevel(func(b *testing.B) { benchkit.Batched(b, hashes, eng.HasHashes) }))
		}
	}
}
