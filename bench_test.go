package bloom_test

// The library's own benchmarks: hash-level and typed lookups and adds, single
// and batch, against the hardware floor, in one run, at filters of 16 KiB,
// 1 MiB, 8 MiB and 256 MiB holding about 10 bits per key. Every benchmark
// reports ns/op per KEY (b.N counts keys), so benchstat compares them directly:
//
//	go test -run '^$' -bench . -count 6 -timeout 60m . | tee bench.txt
//	benchstat -col /lib bench.txt
//
// SIMDBLOOM_CPU=generic|avx2|avx512|neon measures a lower kernel level on the
// same machine. Lookup streams hold 2^20 keys, half present and half absent,
// shuffled (the branch predictor learns shorter streams). Filters are filled
// before the timer starts (no first-touch page faults are timed).
//
// The comparisons against other Go Bloom filters (same benchmark names, plus
// the peers' rows) live in the nested module bench/, so that the peers never
// enter this module's go.mod: cd bench && go test -run '^$' -bench .
//
// Set -bench.sizes=16K,1M to limit the sizes (256 MiB needs several GiB of
// memory); -short defaults them to 16K.

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
)

var benchSizes = flag.String("bench.sizes", "", "filter sizes for the benchmarks (default 16K,1M,8M,256M; 16K with -short)")

const (
	streamLen  = 1 << 20
	streamMask = streamLen - 1
	batch      = 1024 // keys per batch call
)

// fixture holds simdbloom's filters of one size, filled with the same keys.
type fixture struct {
	size   uint64
	keys   []uint64 // the added keys
	hashes []uint64 // HashUint64 of keys
	// Lookup streams: half present, half absent, shuffled.
	keyStream  []uint64
	hashStream []uint64
	strStream  []string // 16-byte keys
	strKeys    []string

	ours     *blocked.Filter
	typed    *bloom.Filter[uint64]
	typedStr *bloom.Filter[string]
}

var (
	fixtures   = map[uint64]*fixture{}
	fixturesMu sync.Mutex
)

func sizeLabel(b uint64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%dM", b>>20)
	default:
		return fmt.Sprintf("%dK", b>>10)
	}
}

func parseSizes(tb testing.TB) []uint64 {
	sizes := *benchSizes
	if sizes == "" {
		sizes = "16K,1M,8M,256M"
		if testing.Short() {
			sizes = "16K"
		}
	}
	var out []uint64
	for _, s := range strings.Split(sizes, ",") {
		var v uint64
		var unit string
		if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d%s", &v, &unit); err != nil {
			tb.Fatalf("-bench.sizes: %q: %v", s, err)
		}
		switch strings.ToUpper(unit) {
		case "K":
			v <<= 10
		case "M":
			v <<= 20
		case "G":
			v <<= 30
		default:
			tb.Fatalf("-bench.sizes: %q: unit must be K, M or G", s)
		}
		out = append(out, v)
	}
	return out
}

// getFixture builds (once per process) the filters of one size.
func getFixture(tb testing.TB, size uint64) *fixture {
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f := fixtures[size]; f != nil {
		return f
	}
	n := size * 8 / 10
	r := rand.New(rand.NewPCG(size, 42))
	fx := &fixture{size: size, keys: make([]uint64, n), hashes: make([]uint64, n)}
	for i := range fx.keys {
		fx.keys[i] = r.Uint64()
		fx.hashes[i] = bloom.HashUint64(fx.keys[i])
	}
	var err error
	fx.ours, err = blocked.NewBytes(size, 8)
	if err != nil {
		tb.Fatal(err)
	}
	fx.ours.AddHashes(fx.hashes)
	fx.typed = bloom.FromEngine[uint64](fx.ours)

	// String keys: 16 bytes each, a separate (smaller) set so the set-up stays quick.
	ns := min(n, streamLen)
	fx.strKeys = make([]string, ns)
	for i := range fx.strKeys {
		fx.strKeys[i] = fmt.Sprintf("%016x", fx.keys[i])
	}
	strFilter, err := blocked.NewBytes(size, 8)
	if err != nil {
		tb.Fatal(err)
	}
	fx.typedStr = bloom.FromEngine[string](strFilter)
	fx.typedStr.AddAll(fx.strKeys)

	// Streams: the i-th present key is keys[i mod n]; absent keys come from
	// another generator (absent with overwhelming probability).
	perm := r.Perm(streamLen)
	fx.keyStream = make([]uint64, streamLen)
	fx.hashStream = make([]uint64, streamLen)
	var strIndex []int // which string key each present slot holds, -1 for absent
	strIndex = make([]int, streamLen)
	for i, p := range perm {
		key := r.Uint64()
		strIndex[p] = -1
		if i < streamLen/2 {
			key = fx.keys[uint64(i)%n]
			strIndex[p] = i % len(fx.strKeys)
		}
		fx.keyStream[p], fx.hashStream[p] = key, bloom.HashUint64(key)
	}
	// String keys are laid out in stream order in one buffer, as a batch of
	// keys read from a page would be: the stream itself costs no cache misses.
	buf := make([]byte, 0, 16*streamLen)
	for p, si := range strIndex {
		if si >= 0 {
			buf = append(buf, fx.strKeys[si]...)
		} else {
			buf = fmt.Appendf(buf, "%016x", fx.keyStream[p])
		}
	}
	whole := string(buf)
	fx.strStream = make([]string, streamLen)
	for p := range fx.strStream {
		fx.strStream[p] = whole[16*p : 16*p+16]
	}
	fixtures[size] = fx
	return fx
}

var sink int

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// single runs a single-key lookup over the stream, one key per b.N.
func single[T any](b *testing.B, stream []T, has func(T) bool) {
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n += b2i(has(stream[i&streamMask]))
	}
	sink += n
}

// batched runs a batch lookup over the stream, b.N keys in calls of batch keys.
func batched[T any](b *testing.B, stream []T, has func([]T, []bool) int) {
	out := make([]bool, batch)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		j := i & streamMask
		n += has(stream[j:j+batch], out)
	}
	sink += n
}

// benchCase is one lookup benchmark on one fixture.
type benchCase struct {
	lib string
	fn  func(b *testing.B)
}

// lookupCases lists simdbloom's lookups over fx's streams. The names are
// those of the same rows in bench/, so one benchstat lines up both.
func lookupCases(fx *fixture) []benchCase {
	return []benchCase{
		// Hash level: the caller has 64-bit hashes.
		{"simdbloom-batch", func(b *testing.B) { batched(b, fx.hashStream, fx.ours.HasHashes) }},
		{"simdbloom-single", func(b *testing.B) { single(b, fx.hashStream, fx.ours.HasHash) }},
		// Key level: uint64 keys, hashing included.
		{"simdbloom-typed-uint64-batch", func(b *testing.B) { batched(b, fx.keyStream, fx.typed.HasAll) }},
		{"simdbloom-typed-uint64-single", func(b *testing.B) { single(b, fx.keyStream, fx.typed.Has) }},
		// Key level: 16-byte string keys.
		{"simdbloom-typed-string-batch", func(b *testing.B) { batched(b, fx.strStream, fx.typedStr.HasAll) }},
		{"simdbloom-typed-string-single", func(b *testing.B) { single(b, fx.strStream, fx.typedStr.Has) }},
	}
}

func BenchmarkLookup(b *testing.B) {
	for _, size := range parseSizes(b) {
		for _, c := range lookupCases(getFixture(b, size)) {
			b.Run(fmt.Sprintf("size=%s/lib=%s", sizeLabel(size), c.lib), c.fn)
		}
	}
}

func BenchmarkAdd(b *testing.B) {
	for _, size := range parseSizes(b) {
		size := size
		fx := getFixture(b, size)
		run := func(lib string, fn func(b *testing.B)) {
			b.Run(fmt.Sprintf("size=%s/lib=%s", sizeLabel(size), lib), fn)
		}
		// Adds go into copies so the lookup fixtures stay as they are; the
		// stream is re-added, which is what an add costs whether or not the
		// bits were set before.
		ours := fx.ours.Clone()
		run("simdbloom-batch", func(b *testing.B) {
			for i := 0; i < b.N; i += batch {
				j := i & streamMask
				ours.AddHashes(fx.hashStream[j : j+batch])
			}
		})
		run("simdbloom-single", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				ours.AddHash(fx.hashStream[i&streamMask])
			}
		})
		typed := bloom.FromEngine[uint64](ours)
		run("simdbloom-typed-uint64-batch", func(b *testing.B) {
			for i := 0; i < b.N; i += batch {
				j := i & streamMask
				typed.AddAll(fx.keyStream[j : j+batch])
			}
		})
	}
}

// BenchmarkFloor is what no lookup can beat: hashing alone, and one random
// cache-line load per key from an array of the filter's size.
func BenchmarkFloor(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	keys := make([]uint64, streamLen)
	var buf []byte
	for i := range keys {
		keys[i] = r.Uint64()
		buf = fmt.Appendf(buf, "%016x", keys[i])
	}
	whole := string(buf)
	strs := make([]string, streamLen)
	for i := range strs {
		strs[i] = whole[16*i : 16*i+16]
	}
	b.Run("hash=xxh3-8B-inline", func(b *testing.B) {
		single(b, keys, func(x uint64) bool { return bloom.HashUint64(x)&1 == 0 })
	})
	b.Run("hash=xxh3-8B-bytes", func(b *testing.B) {
		var buf [8]byte
		single(b, keys, func(x uint64) bool {
			binary.LittleEndian.PutUint64(buf[:], x)
			return xxh3.Hash(buf[:])&1 == 0
		})
	})
	b.Run("hash=xxh3-16B-string", func(b *testing.B) {
		single(b, strs, func(s string) bool { return xxh3.HashString(s)&1 == 0 })
	})
	for _, size := range parseSizes(b) {
		lines := make([]uint64, size/8)
		for i := range lines {
			lines[i] = uint64(i)
		}
		nl := uint64(len(lines) / 8)
		b.Run(fmt.Sprintf("size=%s/line-load", sizeLabel(size)), func(b *testing.B) {
			single(b, keys, func(h uint64) bool { return lines[((h>>32)*nl)>>32*8]&1 == 0 })
		})
	}
}

// BenchmarkTypedBatchAdd compares the batch adds of Counting, Cuckoo and
// Scalable (AddAll) with a loop of Add, per key, for a filter planned for
// as many keys as the blocked fixture of each size holds (8 per 10 bytes).
// Filters are remade, untimed, whenever they hold their planned keys.
func BenchmarkTypedBatchAdd(b *testing.B) {
	for _, size := range parseSizes(b) {
		fx := getFixture(b, size)
		n := len(fx.keys)
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
				b.Run(kind.name+"/"+sizeLabel(size)+"/"+mode, func(b *testing.B) {
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
						ks := fx.keys[done : done+m]
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
