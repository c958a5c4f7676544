// Package benchkit holds the bench module's benchmark fixtures: the
// -bench.sizes flag, the keys and lookup streams of one filter size with
// simdbloom's own filters built on them, the single and batched lookup
// loops, simdbloom's lookup and add rows and the hardware floor. It lives in
// the bench module, so it is not part of the library's module download.
//
// Every benchmark built with it reports ns/op per KEY (b.N counts keys), and,
// on Linux, cpu-ns/key: the CPU time of the benchmark's thread per key, which
// time spent waiting for a shared core does not inflate.
package benchkit

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/bench/internal/cputime"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/cpu"
)

var sizesFlag = flag.String("bench.sizes", "", "filter sizes for the benchmarks (default 16K,1M,8M,256M; 16K with -short)")

const (
	// StreamLen is the length of every lookup stream: long enough that the
	// branch predictor cannot learn it.
	StreamLen = 1 << 20
	// StreamMask wraps a key index into a stream.
	StreamMask = StreamLen - 1
	// Batch is the number of keys per batch call.
	Batch = 1024
)

// Sizes returns the filter sizes in bytes that -bench.sizes asks for
// (16K,1M,8M,256M by default; 16K with -short), failing tb if it is malformed.
func Sizes(tb testing.TB) []uint64 {
	s := *sizesFlag
	if s == "" {
		s = "16K,1M,8M,256M"
		if testing.Short() {
			s = "16K"
		}
	}
	sizes, err := parseSizes(s)
	if err != nil {
		tb.Fatalf("-bench.sizes: %v", err)
	}
	return sizes
}

// parseSizes reads a comma-separated list of sizes such as 16K,1M,2G.
func parseSizes(list string) ([]uint64, error) {
	var out []uint64
	for _, s := range strings.Split(list, ",") {
		var v uint64
		var unit string
		if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d%s", &v, &unit); err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		switch strings.ToUpper(unit) {
		case "K":
			v <<= 10
		case "M":
			v <<= 20
		case "G":
			v <<= 30
		default:
			return nil, fmt.Errorf("%q: %w", s, errUnit)
		}
		out = append(out, v)
	}
	return out, nil
}

var errUnit = errors.New("unit must be K, M or G")

// SizeLabel is the size's part of a benchmark name: 16K, 1M, 256M.
func SizeLabel(b uint64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%dM", b>>20)
	default:
		return fmt.Sprintf("%dK", b>>10)
	}
}

// Fixture holds simdbloom's filters of one size, about 10 bits per key
// (8 keys per 10 bytes), and the keys and lookup streams of that size.
type Fixture struct {
	Size   uint64
	Keys   []uint64 // the added keys
	Hashes []uint64 // HashUint64 of Keys
	// Lookup streams of StreamLen keys: half present, half absent, shuffled.
	KeyStream  []uint64
	HashStream []uint64
	StrStream  []string // 16-byte keys
	StrKeys    []string // the added string keys: %016x of the first Keys

	Ours     *blocked.Filter // Hashes, k=8
	Typed    *bloom.Filter[uint64]
	TypedStr *bloom.Filter[string] // StrKeys, in a filter of its own
}

var (
	fixtures   = map[uint64]*Fixture{}
	fixturesMu sync.Mutex
)

// Get returns the fixture of one size, building it once per process.
func Get(tb testing.TB, size uint64) *Fixture {
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f := fixtures[size]; f != nil {
		return f
	}
	n := size * 8 / 10
	r := rand.New(rand.NewPCG(size, 42))
	fx := &Fixture{Size: size, Keys: make([]uint64, n), Hashes: make([]uint64, n)}
	for i := range fx.Keys {
		fx.Keys[i] = r.Uint64()
		fx.Hashes[i] = bloom.HashUint64(fx.Keys[i])
	}
	var err error
	fx.Ours, err = blocked.NewBytes(size, 8)
	if err != nil {
		tb.Fatal(err)
	}
	fx.Ours.AddHashes(fx.Hashes)
	fx.Typed = bloom.FromEngine[uint64](fx.Ours)

	// String keys: 16 bytes each, a separate (smaller) set so the set-up stays quick.
	ns := min(n, StreamLen)
	fx.StrKeys = make([]string, ns)
	for i := range fx.StrKeys {
		fx.StrKeys[i] = fmt.Sprintf("%016x", fx.Keys[i])
	}
	strFilter, err := blocked.NewBytes(size, 8)
	if err != nil {
		tb.Fatal(err)
	}
	fx.TypedStr = bloom.FromEngine[string](strFilter)
	fx.TypedStr.AddAll(fx.StrKeys)

	// Streams: the i-th present key is Keys[i mod n]; absent keys come from
	// another generator (absent with overwhelming probability).
	perm := r.Perm(StreamLen)
	fx.KeyStream = make([]uint64, StreamLen)
	fx.HashStream = make([]uint64, StreamLen)
	strIndex := make([]int, StreamLen) // which string key each present slot holds, -1 for absent
	for i, p := range perm {
		key := r.Uint64()
		strIndex[p] = -1
		if i < StreamLen/2 {
			key = fx.Keys[uint64(i)%n]
			strIndex[p] = i % len(fx.StrKeys)
		}
		fx.KeyStream[p], fx.HashStream[p] = key, bloom.HashUint64(key)
	}
	// String keys are laid out in stream order in one buffer, as a batch of
	// keys read from a page would be: the stream itself costs no cache misses.
	buf := make([]byte, 0, 16*StreamLen)
	for p, si := range strIndex {
		if si >= 0 {
			buf = append(buf, fx.StrKeys[si]...)
		} else {
			buf = fmt.Appendf(buf, "%016x", fx.KeyStream[p])
		}
	}
	whole := string(buf)
	fx.StrStream = make([]string, StreamLen)
	for p := range fx.StrStream {
		fx.StrStream[p] = whole[16*p : 16*p+16]
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

// Single runs a single-key lookup over the stream, one key per b.N.
func Single[T any](b *testing.B, stream []T, has func(T) bool) {
	n := 0
	cputime.PerKey(b, func() {
		for i := 0; i < b.N; i++ {
			n += b2i(has(stream[i&StreamMask]))
		}
	})
	sink += n
}

// Batched runs a batch lookup over the stream, b.N keys in calls of Batch keys.
func Batched[T any](b *testing.B, stream []T, has func([]T, []bool) int) {
	out := make([]bool, Batch)
	n := 0
	cputime.PerKey(b, func() {
		for i := 0; i < b.N; i += Batch {
			j := i & StreamMask
			n += has(stream[j:j+Batch], out)
		}
	})
	sink += n
}

// Case is one library's benchmark on one fixture, named lib=Lib.
type Case struct {
	Lib string
	Fn  func(b *testing.B)
}

// Run runs the cases as sub-benchmarks size=<SizeLabel(size)>/lib=<Lib>.
func Run(b *testing.B, size uint64, cases []Case) {
	for _, c := range cases {
		b.Run(fmt.Sprintf("size=%s/lib=%s", SizeLabel(size), c.Lib), c.Fn)
	}
}

// Lookups are lookup cases grouped by what the caller holds.
type Lookups struct {
	Hash   []Case // 64-bit hashes
	Uint64 []Case // uint64 keys, hashing included
	String []Case // 16-byte string keys
}

// LookupCases lists simdbloom's lookups over fx's streams and then, at each
// level (hash, uint64, string), the peers' of that level. The rows carry the
// same names in the root module and in bench/.
func LookupCases(fx *Fixture, peers Lookups) []Case {
	var out []Case
	strEngine := fx.TypedStr.Engine()
	// Hash level: the caller has 64-bit hashes.
	out = append(out,
		Case{"simdbloom-batch", func(b *testing.B) { Batched(b, fx.HashStream, fx.Ours.HasHashes) }},
		Case{"simdbloom-single", func(b *testing.B) { Single(b, fx.HashStream, fx.Ours.HasHash) }})
	out = append(out, peers.Hash...)
	// Key level: uint64 keys, hashing included.
	out = append(out,
		Case{"simdbloom-typed-uint64-batch", func(b *testing.B) { Batched(b, fx.KeyStream, fx.Typed.HasAll) }},
		Case{"simdbloom-typed-uint64-single", func(b *testing.B) { Single(b, fx.KeyStream, fx.Typed.Has) }},
		// The typed lookup's bar: the caller hashes (HashUint64, inlined)
		// and calls HasHash, in the closure the harness calls.
		Case{"simdbloom-hash-uint64-single", func(b *testing.B) {
			Single(b, fx.KeyStream, func(x uint64) bool { return fx.Ours.HasHash(bloom.HashUint64(x)) })
		}})
	out = append(out, peers.Uint64...)
	// Key level: 16-byte string keys.
	out = append(out,
		Case{"simdbloom-typed-string-batch", func(b *testing.B) { Batched(b, fx.StrStream, fx.TypedStr.HasAll) }},
		Case{"simdbloom-typed-string-single", func(b *testing.B) { Single(b, fx.StrStream, fx.TypedStr.Has) }},
		// The typed lookup's bar: xxh3.HashString, then HasHash.
		Case{"simdbloom-hash-string-single", func(b *testing.B) {
			Single(b, fx.StrStream, func(s string) bool { return strEngine.HasHash(xxh3.HashString(s)) })
		}})
	return append(out, peers.String...)
}

// AddCases lists simdbloom's adds of fx's streams. They add into one copy of
// fx.Ours, made now, so the lookup fixture stays as it is; the stream is
// re-added, which is what an add costs whether or not the bits were set before.
func AddCases(fx *Fixture) []Case {
	ours := fx.Ours.Clone()
	typed := bloom.FromEngine[uint64](ours)
	return []Case{
		{"simdbloom-batch", func(b *testing.B) {
			cputime.PerKey(b, func() {
				for i := 0; i < b.N; i += Batch {
					j := i & StreamMask
					ours.AddHashes(fx.HashStream[j : j+Batch])
				}
			})
		}},
		{"simdbloom-single", func(b *testing.B) {
			cputime.PerKey(b, func() {
				for i := 0; i < b.N; i++ {
					ours.AddHash(fx.HashStream[i&StreamMask])
				}
			})
		}},
		{"simdbloom-typed-uint64-batch", func(b *testing.B) {
			cputime.PerKey(b, func() {
				for i := 0; i < b.N; i += Batch {
					j := i & StreamMask
					typed.AddAll(fx.KeyStream[j : j+Batch])
				}
			})
		}},
		{"simdbloom-typed-uint64-single", func(b *testing.B) {
			cputime.PerKey(b, func() {
				for i := 0; i < b.N; i++ {
					typed.Add(fx.KeyStream[i&StreamMask])
				}
			})
		}},
	}
}

// Floor runs what no lookup can beat: hashing alone (xxh3 of 8-byte keys,
// inline and through bytes, and of 16-byte strings), and, at every size of
// Sizes, one random cache-line load per key from an array of that size.
func Floor(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	keys := make([]uint64, StreamLen)
	var buf []byte
	for i := range keys {
		keys[i] = r.Uint64()
		buf = fmt.Appendf(buf, "%016x", keys[i])
	}
	whole := string(buf)
	strs := make([]string, StreamLen)
	for i := range strs {
		strs[i] = whole[16*i : 16*i+16]
	}
	b.Run("hash=xxh3-8B-inline", func(b *testing.B) {
		Single(b, keys, func(x uint64) bool { return bloom.HashUint64(x)&1 == 0 })
	})
	b.Run("hash=xxh3-8B-bytes", func(b *testing.B) {
		var buf [8]byte
		Single(b, keys, func(x uint64) bool {
			binary.LittleEndian.PutUint64(buf[:], x)
			return xxh3.Hash(buf[:])&1 == 0
		})
	})
	b.Run("hash=xxh3-16B-string", func(b *testing.B) {
		Single(b, strs, func(s string) bool { return xxh3.HashString(s)&1 == 0 })
	})
	for _, size := range Sizes(b) {
		lines := make([]uint64, size/8)
		for i := range lines {
			lines[i] = uint64(i)
		}
		nl := uint64(len(lines) / 8)
		b.Run(fmt.Sprintf("size=%s/line-load", SizeLabel(size)), func(b *testing.B) {
			Single(b, keys, func(h uint64) bool { return lines[((h>>32)*nl)>>32*8]&1 == 0 })
		})
		// The plain Go loop over a batch, no call per key, as blocked's
		// BenchmarkFloor/size=.../touch=go: what a batch lookup must beat.
		b.Run(fmt.Sprintf("size=%s/touch=go", SizeLabel(size)), func(b *testing.B) {
			var s uint64
			cputime.PerKey(b, func() {
				for i := 0; i < b.N; i += Batch {
					j := i & StreamMask
					for _, h := range keys[j : j+Batch] {
						s += lines[((h>>32)*nl)>>32*8]
					}
				}
			})
			sink += int(s)
		})
	}
}

// Levels runs simdbloom's hash-level and typed lookups and adds (the rows of
// LookupCases and AddCases without peers) at every kernel level this
// machine and build can run, switching cpu.Active in the process, as
// sub-benchmarks op=<lookup|add>/size=<size>/lib=<Lib>/level=<level>, the
// level as SIMDBLOOM_CPU spells it. The level is restored after each row.
func Levels(b *testing.B) {
	for _, size := range Sizes(b) {
		fx := Get(b, size)
		for _, op := range []struct {
			name  string
			cases []Case
		}{{"lookup", LookupCases(fx, Lookups{})}, {"add", AddCases(fx)}} {
			for _, c := range op.cases {
				for _, l := range cpu.Usable() {
					b.Run(fmt.Sprintf("op=%s/size=%s/lib=%s/level=%s", op.name, SizeLabel(size), c.Lib, l), func(b *testing.B) {
						saved := cpu.Active
						cpu.Active = l
						defer func() { cpu.Active = saved }()
						c.Fn(b)
					})
				}
			}
		}
	}
}
