package blocked

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// Split-block benchmarks. Every lookup stream has 2^20 hashes, half present
// and half absent, shuffled (shorter streams let the branch predictor learn
// them); filters are filled to their planned load (1% FPR) before timing, so
// page faults are not timed. Batch kernels run as sub-benchmarks per CPU
// level, to be compared in one run:
//
//	go test -run NONE -bench SplitBlock -count 6 ./blocked/ | tee /tmp/sb.txt
//	benchstat -col /level /tmp/sb.txt

const splitStream = 1 << 20

type splitBench struct {
	s      *SplitBlock
	stream []uint64
}

var (
	splitBenchOnce  = map[int]*sync.Once{16 << 10: {}, 1 << 20: {}, 256 << 20: {}}
	splitBenchCache = map[int]*splitBench{}
)

// splitBenchFilter returns a filter of size bytes holding its planned number
// of keys (about 10.5 bits per key) and a shuffled lookup stream.
func splitBenchFilter(b *testing.B, size int) *splitBench {
	splitBenchOnce[size].Do(func() {
		s, err := NewSplitBlockBytes(uint64(size))
		if err != nil {
			b.Fatal(err)
		}
		n := int(float64(size*8) / 10.53)
		r := rand.New(rand.NewPCG(uint64(size), 1))
		stream := make([]uint64, 0, splitStream)
		chunk := make([]uint64, 1<<16)
		for done := 0; done < n; done += len(chunk) {
			c := chunk[:min(len(chunk), n-done)]
			for i := range c {
				c[i] = r.Uint64()
			}
			s.AddHashes(c)
			stride := max(1, n/(splitStream/2)) // a sample of the present keys
			for i := (stride - done%stride) % stride; i < len(c) && len(stream) < splitStream/2; i += stride {
				stream = append(stream, c[i])
			}
		}
		for len(stream) < splitStream/2 { // small filters: repeat present keys
			stream = append(stream, stream[len(stream)%max(1, n)])
		}
		for len(stream) < splitStream {
			stream = append(stream, r.Uint64())
		}
		r.Shuffle(len(stream), func(i, j int) { stream[i], stream[j] = stream[j], stream[i] })
		splitBenchCache[size] = &splitBench{s: s, stream: stream}
	})
	return splitBenchCache[size]
}

func splitSizeName(size int) string {
	if size >= 1<<20 {
		return fmt.Sprintf("%dMiB", size>>20)
	}
	return fmt.Sprintf("%dKiB", size>>10)
}

// perKey reports the time per hash of the stream.
func perKey(b *testing.B, keysPerOp int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(keysPerOp), "ns/key")
}

func BenchmarkSplitBlockHasHashes(b *testing.B) {
	for _, size := range []int{16 << 10, 256 << 20} {
		for _, l := range cpu.Usable() {
			b.Run(fmt.Sprintf("size=%s/level=%s", splitSizeName(size), l), func(b *testing.B) {
				sb := splitBenchFilter(b, size)
				saved := cpu.Active
				cpu.Active = l
				defer func() { cpu.Active = saved }()
				out := make([]bool, len(sb.stream))
				b.ResetTimer()
				for range b.N {
					sb.s.HasHashes(sb.stream, out)
				}
				perKey(b, len(sb.stream))
			})
		}
	}
}

// BenchmarkSplitBlockHasHash and BenchmarkSplitBlockAddHash time the
// single-key methods per level: generic is the pure-Go body, avx2 and avx512
// the one-key assembly.
func BenchmarkSplitBlockHasHash(b *testing.B) {
	for _, size := range []int{16 << 10, 1 << 20, 256 << 20} {
		for _, l := range cpu.Usable() {
			b.Run(fmt.Sprintf("size=%s/level=%s", splitSizeName(size), l), func(b *testing.B) {
				sb := splitBenchFilter(b, size)
				saved := cpu.Active
				cpu.Active = l
				defer func() { cpu.Active = saved }()
				b.ResetTimer()
				n := 0
				for i := 0; i < b.N; i++ {
					n += int(b2u(sb.s.HasHash(sb.stream[i&(splitStream-1)])))
				}
				perKey(b, 1)
				if b.N > 1000 && n == 0 {
					b.Fatal("no key found")
				}
			})
		}
	}
}

func BenchmarkSplitBlockAddHash(b *testing.B) {
	for _, size := range []int{16 << 10, 1 << 20, 256 << 20} {
		for _, l := range cpu.Usable() {
			b.Run(fmt.Sprintf("size=%s/level=%s", splitSizeName(size), l), func(b *testing.B) {
				sb := splitBenchFilter(b, size)
				saved := cpu.Active
				cpu.Active = l
				defer func() { cpu.Active = saved }()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					sb.s.AddHash(sb.stream[i&(splitStream-1)]) // its own keys: the bits are set already
				}
				perKey(b, 1)
			})
		}
	}
}

func BenchmarkSplitBlockAddHashes(b *testing.B) {
	for _, l := range cpu.Usable() {
		b.Run(fmt.Sprintf("size=16KiB/level=%s", l), func(b *testing.B) {
			sb := splitBenchFilter(b, 16<<10)
			s := sb.s.Clone()
			saved := cpu.Active
			cpu.Active = l
			defer func() { cpu.Active = saved }()
			b.ResetTimer()
			for range b.N {
				s.AddHashes(sb.stream)
			}
			perKey(b, len(sb.stream))
		})
	}
}
