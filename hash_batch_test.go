package bloom

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// edgeWords are integer keys at the edges of the carries and rotates.
var edgeWords = []uint64{
	0, 1, 2, 7, 8, 0xff, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1 << 63, 1<<63 - 1,
	1<<63 + 1, math.MaxUint64, math.MaxUint64 - 1, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa,
	0x9fb21c651e98df25, 0x18bad3d405c264ca, 0x00000000ffffffff, 0xffffffff00000000,
}

// testWords returns n keys: the edge values first, then random ones.
func testWords(r *rand.Rand, n int) []uint64 {
	xs := make([]uint64, n)
	for i := range xs {
		if i < len(edgeWords) {
			xs[i] = edgeWords[i]
		} else {
			xs[i] = r.Uint64()
		}
	}
	r.Shuffle(n, func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	return xs
}

// checkWords checks hashWords on src at the active level: equal to HashUint64
// and to xxh3 of the bytes, in place too, and nothing written past len(src).
func checkWords(t *testing.T, src []uint64) {
	t.Helper()
	const guard = 0x0123456789abcdef
	dst := make([]uint64, len(src)+9)
	for i := range dst {
		dst[i] = guard
	}
	hashWords(dst, src)
	in := append([]uint64(nil), src...)
	hashWords(in, in)
	for i, x := range src {
		want := xxh3.Hash(le64(x))
		if HashUint64(x) != want {
			t.Fatalf("HashUint64(%#x) = %#x, xxh3 = %#x", x, HashUint64(x), want)
		}
		if dst[i] != want {
			t.Fatalf("%v, %d keys: key %d (%#x) hashed to %#x, want %#x", cpu.Active, len(src), i, x, dst[i], want)
		}
		if in[i] != want {
			t.Fatalf("%v, %d keys in place: key %d (%#x) hashed to %#x, want %#x", cpu.Active, len(src), i, x, in[i], want)
		}
	}
	for i := len(src); i < len(dst); i++ {
		if dst[i] != guard {
			t.Fatalf("%v, %d keys: dst[%d] written past the keys", cpu.Active, len(src), i)
		}
	}
}

// TestHashWordsLevels: at every level this CPU runs, the batch hash equals
// HashUint64 and xxh3 for every length 0..40 (every tail), for random and
// edge values, and for long batches.
func TestHashWordsLevels(t *testing.T) {
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, l cpu.Level) {
		r := rand.New(rand.NewPCG(4, uint64(l)))
		for n := 0; n <= 40; n++ {
			for range 20 {
				checkWords(t, testWords(r, n))
			}
		}
		// Every edge value in every lane position.
		for off := 0; off < 16; off++ {
			xs := make([]uint64, 16+off)
			for _, e := range edgeWords {
				xs[off] = e
				checkWords(t, xs)
			}
		}
		for _, n := range []int{255, 256, 1000, 4097} {
			checkWords(t, testWords(r, n))
		}
		// A sub-slice that does not start at the beginning of its array.
		xs := testWords(r, 100)
		checkWords(t, xs[3:50])
	})
}

// widthKeys converts xs to keys of type K (truncating), the way a caller
// holding such keys would have them.
func widthKeys[K ~int8 | ~int16 | ~int32 | ~int64 | ~int | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr](xs []uint64) []K {
	ks := make([]K, len(xs))
	for i, x := range xs {
		ks[i] = K(x)
	}
	return ks
}

// checkKind checks that the batch path hashes keys of type K exactly as Hash.
func checkKind[K Key](t *testing.T, keys []K) {
	t.Helper()
	dst := make([]uint64, len(keys))
	hashKeys(kindOf[K](), dst, keys)
	for i, k := range keys {
		if want := Hash(k); dst[i] != want {
			t.Fatalf("%v, %T: key %v hashed to %#x in a batch, Hash gives %#x", cpu.Active, k, k, dst[i], want)
		}
	}
}

// TestHashKeysEveryKind: batches of every integer type (signed ones
// sign-extended, named types too) hash exactly as Hash, at every level.
func TestHashKeysEveryKind(t *testing.T) {
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, _ cpu.Level) {
		r := rand.New(rand.NewPCG(5, 5))
		for _, n := range []int{0, 1, 7, 8, 9, 33, 300} {
			xs := testWords(r, n)
			checkKind(t, widthKeys[int8](xs))
			checkKind(t, widthKeys[int16](xs))
			checkKind(t, widthKeys[int32](xs))
			checkKind(t, widthKeys[int64](xs))
			checkKind(t, widthKeys[int](xs))
			checkKind(t, widthKeys[uint8](xs))
			checkKind(t, widthKeys[uint16](xs))
			checkKind(t, widthKeys[uint32](xs))
			checkKind(t, widthKeys[uint64](xs))
			checkKind(t, widthKeys[uint](xs))
			checkKind(t, widthKeys[uintptr](xs))
			checkKind(t, widthKeys[myInt](xs))
			checkKind(t, widthKeys[myUint](xs))
			checkKind(t, []string{"a", "", "ccc"}[:min(n, 3)])
		}
	})
}

// TestTypedBatchNoFalseNegatives: typed filters of every integer width
// built through the batch (SIMD) path find every key, single and batch, and
// every level builds the same bits as the generic one.
func TestTypedBatchNoFalseNegatives(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	xs := testWords(r, 5003)
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, l cpu.Level) {
		var ref *Filter[uint64]
		withLevel(cpu.Generic, func() {
			ref = mustNew[uint64](t, uint64(len(xs)), 0.01)
			ref.AddAll(xs)
		})
		f := mustNew[uint64](t, uint64(len(xs)), 0.01)
		f.AddAll(xs)
		out := make([]bool, len(xs))
		if n := f.HasAll(xs, out); n != len(xs) {
			t.Fatalf("%v: HasAll found %d of %d added keys", l, n, len(xs))
		}
		for i, x := range xs {
			if !out[i] || !f.Has(x) {
				t.Fatalf("%v: false negative for %#x", l, x)
			}
		}
		if !f.equal(ref) {
			t.Fatalf("%v builds a different filter than generic", l)
		}
		g := mustNew[int32](t, uint64(len(xs)), 0.01)
		ks := widthKeys[int32](xs)
		g.AddAll(ks)
		for _, k := range ks {
			if !g.Has(k) {
				t.Fatalf("%v: int32 false negative for %d", l, k)
			}
		}
	})
}

// FuzzHashWords: for arbitrary keys, every level's batch hash equals HashUint64.
func FuzzHashWords(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff"))
	f.Add(make([]byte, 8*17+3))
	levels := childtest.NewFuzzLevels(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := hashesOf(data)
		levels.Run(t, func(t *testing.T, l cpu.Level) {
			dst := make([]uint64, len(xs))
			hashWords(dst, xs)
			for i, x := range xs {
				if dst[i] != HashUint64(x) {
					t.Fatalf("%v: key %#x hashed to %#x, want %#x", l, x, dst[i], HashUint64(x))
				}
			}
		})
	})
}

// Benchmarks. b.N counts keys, so ns/op is ns per key; compare levels with
//
//	go test -run '^$' -bench 'HashWords|TypedUint64' -count 6 . | tee typed.txt
//	benchstat -col /level typed.txt

var typedSizes = flag.String("bench.typedsizes", "16K,1M,256M", "filter sizes for BenchmarkTypedUint64")

// benchLevels returns the levels to compare: every one this CPU runs.
func benchLevels() []cpu.Level { return cpu.Usable() }

// onLevel runs a sub-benchmark at level l.
func onLevel(b *testing.B, name string, l cpu.Level, fn func(b *testing.B)) {
	b.Run(fmt.Sprintf("%s/level=%v", name, l), func(b *testing.B) { withLevel(l, func() { fn(b) }) })
}

// onStrVariant runs a sub-benchmark with the string kernels v.
func onStrVariant(b *testing.B, name string, v strVariant, fn func(b *testing.B)) {
	b.Run(fmt.Sprintf("%s/level=%s", name, v.name), func(b *testing.B) { v.run(func() { fn(b) }) })
}

// BenchmarkHashWords is hashing alone, 1024 keys per call.
func BenchmarkHashWords(b *testing.B) {
	src := testWords(rand.New(rand.NewPCG(7, 7)), 1024)
	dst := make([]uint64, len(src))
	for _, l := range benchLevels() {
		onLevel(b, "op=hash", l, func(b *testing.B) {
			for i := 0; i < b.N; i += len(src) {
				hashWords(dst, src)
			}
		})
	}
}

// benchKey returns the i-th key of the benchmark filters: a bijection of i,
// so keys i >= n (the absent ones) never equal an added key.
func benchKey(i uint64) uint64 {
	i += 0x9e3779b97f4a7c15
	i = (i ^ i>>30) * 0xbf58476d1ce4e5b9
	i = (i ^ i>>27) * 0x94d049bb133111eb
	return i ^ i>>31
}

const (
	typedStreamLen = 1 << 20
	typedBatch     = 1024
)

// typedFixture is a Filter[uint64] of about 10 bits per key, filled with
// keys 0..n-1, and a stream of 2^20 keys, half present and half absent,
// shuffled.
func typedFixture(b *testing.B, size uint64) (*Filter[uint64], []uint64) {
	fb, err := blocked.NewBytes(size, 8)
	if err != nil {
		b.Fatal(err)
	}
	f := FromEngine[uint64](fb)
	n := size * 8 / 10
	var buf [4096]uint64
	for i := uint64(0); i < n; i += uint64(len(buf)) {
		m := min(uint64(len(buf)), n-i)
		for j := range m {
			buf[j] = benchKey(i + j)
		}
		f.AddAll(buf[:m])
	}
	r := rand.New(rand.NewPCG(size, 8))
	stream := make([]uint64, typedStreamLen)
	for i := range stream {
		if i < len(stream)/2 {
			stream[i] = benchKey(r.Uint64N(n))
		} else {
			stream[i] = benchKey(n + r.Uint64N(1<<40))
		}
	}
	r.Shuffle(len(stream), func(i, j int) { stream[i], stream[j] = stream[j], stream[i] })
	return f, stream
}

func parseTypedSizes(b *testing.B) []uint64 { return parseSizes(b, *typedSizes) }

// parseSizes parses a comma-separated list of sizes with a unit K, M or G.
func parseSizes(b *testing.B, list string) []uint64 {
	var out []uint64
	for _, s := range strings.Split(list, ",") {
		s = strings.ToUpper(strings.TrimSpace(s))
		var v uint64
		var unit byte
		if _, err := fmt.Sscanf(s, "%d%c", &v, &unit); err != nil {
			b.Fatalf("sizes %q: %v", s, err)
		}
		switch unit {
		case 'K':
			v <<= 10
		case 'M':
			v <<= 20
		case 'G':
			v <<= 30
		default:
			b.Fatalf("sizes %q: the unit must be K, M or G", s)
		}
		out = append(out, v)
	}
	return out
}

func sizeName(size uint64) string {
	if size >= 1<<20 {
		return fmt.Sprintf("%dM", size>>20)
	}
	return fmt.Sprintf("%dK", size>>10)
}

// BenchmarkTypedUint64: Filter[uint64].HasAll and AddAll, batches of 1024
// keys from the stream, at every level.
func BenchmarkTypedUint64(b *testing.B) {
	for _, size := range parseTypedSizes(b) {
		f, stream := typedFixture(b, size)
		out := make([]bool, typedBatch)
		sz := sizeName(size)
		for _, l := range benchLevels() {
			onLevel(b, "size="+sz+"/op=HasAll", l, func(b *testing.B) {
				n := 0
				for i := 0; i < b.N; i += typedBatch {
					j := i & (typedStreamLen - 1)
					n += f.HasAll(stream[j:j+typedBatch], out)
				}
				benchSink += n
			})
		}
		g := f.clone()
		for _, l := range benchLevels() {
			onLevel(b, "size="+sz+"/op=AddAll", l, func(b *testing.B) {
				for i := 0; i < b.N; i += typedBatch {
					j := i & (typedStreamLen - 1)
					g.AddAll(stream[j : j+typedBatch])
				}
			})
		}
	}
}

// BenchmarkTypedChunk measures the HasAll loop (hash a chunk of keys into a
// stack buffer, then one batch lookup) at several chunk sizes, at the best
// level, to choose the chunk constant.
func BenchmarkTypedChunk(b *testing.B) {
	for _, size := range parseTypedSizes(b) {
		f, stream := typedFixture(b, size)
		out := make([]bool, typedBatch)
		l := benchLevels()[len(benchLevels())-1]
		run := func(c int, has func(keys []uint64, out []bool) int) {
			onLevel(b, fmt.Sprintf("size=%s/chunk=%d", sizeName(size), c), l, func(b *testing.B) {
				n := 0
				for i := 0; i < b.N; i += typedBatch {
					j := i & (typedStreamLen - 1)
					n += has(stream[j:j+typedBatch], out)
				}
				benchSink += n
			})
		}
		run(128, func(k []uint64, o []bool) int { var buf [128]uint64; return hasAllWith(f, buf[:], k, o) })
		run(256, func(k []uint64, o []bool) int { var buf [256]uint64; return hasAllWith(f, buf[:], k, o) })
		run(512, func(k []uint64, o []bool) int { var buf [512]uint64; return hasAllWith(f, buf[:], k, o) })
		run(1024, func(k []uint64, o []bool) int { var buf [1024]uint64; return hasAllWith(f, buf[:], k, o) })
	}
}

// hasAllWith is HasAll hashing chunks of len(buf) keys into buf.
func hasAllWith(f *Filter[uint64], buf, keys []uint64, out []bool) int {
	found := 0
	for i := 0; i < len(keys); i += len(buf) {
		n := min(len(keys)-i, len(buf))
		hashKeys(f.kind, buf[:n], keys[i:i+n])
		found += f.f.HasHashes(buf[:n], out[i:i+n])
	}
	return found
}

var benchSink int

// strVariant is one set of string kernels: a level and, at AVX-512, whether
// the 64x64->128-bit multiplies use IFMA.
type strVariant struct {
	name  string
	level cpu.Level
	ifma  bool
}

// strVariants returns every set of string kernels this CPU runs: each usable
// level (AVX-512 with IFMA where the CPU has it) and, on a CPU with IFMA,
// the VPMULUDQ kernels that AVX-512 CPUs without it run, as "avx512-noifma".
func strVariants() []strVariant {
	var vs []strVariant
	ifma := cpu.Features&cpu.FeatureAVX512IFMA != 0
	for _, l := range cpu.Usable() {
		vs = append(vs, strVariant{l.String(), l, ifma})
		if l == cpu.AVX512 && ifma {
			vs = append(vs, strVariant{"avx512-noifma", l, false})
		}
	}
	return vs
}

// strVariantsAt returns the sets of string kernels of strVariants at level l.
func strVariantsAt(l cpu.Level) []strVariant {
	var vs []strVariant
	for _, v := range strVariants() {
		if v.level == l {
			vs = append(vs, v)
		}
	}
	return vs
}

// forStrVariants runs fn(t, vi, v) for every set of string kernels v =
// strVariants()[vi]: each level in a child process of its own
// (childtest.Levels, so that a fault in one level's kernels fails that
// level's subtest only), and in the AVX-512 level's child, after the
// kernels with IFMA, those without as its subtest noifma.
func forStrVariants(t *testing.T, fn func(t *testing.T, vi int, v strVariant)) {
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, l cpu.Level) {
		for vi, v := range strVariants() {
			switch {
			case v.level != l:
			case v.name == l.String():
				v.run(func() { fn(t, vi, v) })
			default:
				t.Run(strings.TrimPrefix(v.name, l.String()+"-"), func(t *testing.T) { v.run(func() { fn(t, vi, v) }) })
			}
		}
	})
}

// run runs fn with v's kernels active.
func (v strVariant) run(fn func()) {
	saved := cpu.Features
	defer func() { cpu.Features = saved }()
	if !v.ifma {
		cpu.Features &^= cpu.FeatureAVX512IFMA
	}
	withLevel(v.level, fn)
}

// strActive names the string kernels active: the level, and avx512-noifma
// for the AVX-512 kernels without IFMA.
func strActive() string {
	if cpu.Active == cpu.AVX512 && cpu.Features&cpu.FeatureAVX512IFMA == 0 {
		return "avx512-noifma"
	}
	return cpu.Active.String()
}

// checkStrings checks hashKeys on keys at the active level, as strings and
// as byte slices: equal to xxh3 lane by lane, nothing written past the keys.
func checkStrings(t *testing.T, keys []string) {
	t.Helper()
	const guard = 0x0123456789abcdef
	bs := make([][]byte, len(keys))
	for i, k := range keys {
		bs[i] = []byte(k)
	}
	dst := make([]uint64, len(keys)+9)
	for pass := range 2 {
		for i := range dst {
			dst[i] = guard
		}
		if pass == 0 {
			hashKeys(kindString, dst[:len(keys)], keys)
		} else {
			hashKeys(kindBytes, dst[:len(keys)], bs)
		}
		for i, k := range keys {
			if want := xxh3.HashString(k); dst[i] != want {
				t.Fatalf("%v, %d keys (bytes: %v): key %d of %d bytes hashed to %#x, want %#x",
					strActive(), len(keys), pass == 1, i, len(k), dst[i], want)
			}
		}
		for i := len(keys); i < len(dst); i++ {
			if dst[i] != guard {
				t.Fatalf("%v, %d keys: dst[%d] written past the keys", strActive(), len(keys), i)
			}
		}
	}
}

// randomString returns n random bytes as a string.
func randomString(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return string(b)
}

// TestHashStringsLevels: with every set of string kernels this CPU runs
// (strVariants), batches of strings and byte slices hash as xxh3 does, for every length 0..300 and a few
// longer ones, in every lane position and batch size 0..20, in batches of
// one length and of mixed lengths (every length class in one group).
func TestHashStringsLevels(t *testing.T) {
	lengths := []int{}
	for l := 0; l <= 300; l++ {
		lengths = append(lengths, l)
	}
	lengths = append(lengths, 511, 1024, 4099)
	forStrVariants(t, func(t *testing.T, vi int, _ strVariant) {
		r := rand.New(rand.NewPCG(8, uint64(vi)))
		for n := 0; n <= 20; n++ {
			for li, length := range lengths {
				same := make([]string, n)
				mixed := make([]string, n)
				for j := range n {
					same[j] = randomString(r, length)
					mixed[j] = randomString(r, lengths[(li+j*37)%len(lengths)])
				}
				checkStrings(t, same)
				checkStrings(t, mixed)
			}
		}
		// Long batches of short mixed keys, and a sub-slice.
		keys := make([]string, 1001)
		for i := range keys {
			keys[i] = randomString(r, r.IntN(140))
		}
		checkStrings(t, keys)
		checkStrings(t, keys[3:700])
	})
}

// BenchmarkHashStrings is hashing strings alone, 1024 keys per call, at every
// level (generic is the loop of xxh3.HashString), for keys of 16 and 40
// bytes and of mixed lengths 5 to 64.
func BenchmarkHashStrings(b *testing.B) {
	for _, keys := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"mixed5-64", 5, 64}} {
		r := rand.New(rand.NewPCG(10, uint64(keys.max)))
		src := make([]string, 1024)
		for i := range src {
			src[i] = randomString(r, keys.min+r.IntN(keys.max-keys.min+1))
		}
		dst := make([]uint64, len(src))
		for _, v := range strVariants() {
			onStrVariant(b, "key="+keys.name, v, func(b *testing.B) {
				for i := 0; i < b.N; i += len(src) {
					hashKeys(kindString, dst, src)
				}
			})
		}
	}
}

// TestHashStringsOneOff: with every set of string kernels, batches of one
// length class with one key of another length at each position, so that a
// class kernel stops at every group position and the mixed-length kernel
// takes the rest of the batch.
func TestHashStringsOneOff(t *testing.T) {
	forStrVariants(t, func(t *testing.T, vi int, _ strVariant) {
		r := rand.New(rand.NewPCG(12, uint64(vi)))
		for _, pair := range [][2]int{{16, 17}, {9, 8}, {40, 0}, {8, 3}, {64, 65}, {33, 32}, {100, 200}, {20, 16}} {
			for _, n := range []int{9, 40, 300, 600} {
				for p := 0; p < n; p += 1 + p/8 {
					keys := make([]string, n)
					for i := range keys {
						keys[i] = randomString(r, pair[0])
					}
					keys[p] = randomString(r, pair[1])
					checkStrings(t, keys)
				}
			}
		}
	})
}

// xxhSecret is the start of XXH3's default secret (kSecret) as little-endian
// words; keys of up to 128 bytes use words 0 to 15.
var xxhSecret = [16]uint64{
	0xbe4ba423396cfeb8, 0x1cad21f72c81017c, 0xdb979083e96dd4de, 0x1f67b3b7a4a44072,
	0x78e5c0cc4ee679cb, 0x2172ffcc7dd05a82, 0x8e2443f7744608b8, 0x4c263a81e69035e0,
	0xcb00c391bb52283c, 0xa32e531b8b65d088, 0x4ef90da297486471, 0xd8acdea946ef1938,
	0x3f349ce33f76faa8, 0x1d4f0bc7c7bbdcf9, 0x3159b4cd4be0518a, 0x647378d9c97e9fc8,
}

// mulEdges are multiply operands at the edges of the 32-bit halves of the
// VPMULUDQ multiply and of the 52- and 12-bit limbs of the IFMA one, where
// the partial sums carry most.
var mulEdges = []uint64{
	0, 1, 1<<32 - 1, 1 << 32, 1<<52 - 1, 1 << 52, 1<<52 + 1, 0xfff << 52, 0xfff<<52 | 1,
	1 << 63, 1<<63 - 1, 1<<64 - 1, 1<<64 - 2, 0xfffffffffffff000, 0x000fffff00000000,
}

// TestHashStringsMultiplyEdges: keys of 16, 32 and 64 bytes whose words,
// XORed with the secret as XXH3 does, give every pair of mulEdges to each
// 64x64->128-bit multiply (the one of the 9-16 class, every one of the
// 17-32 and 33-64 classes) hash as xxh3 does with every set of string
// kernels.
func TestHashStringsMultiplyEdges(t *testing.T) {
	le := func(b []byte, w uint64) {
		for i := range 8 {
			b[i] = byte(w >> (8 * i))
		}
	}
	forStrVariants(t, func(t *testing.T, _ int, _ strVariant) {
		for _, n := range []int{16, 32, 64} {
			var keys []string
			for _, a := range mulEdges {
				for _, b := range mulEdges {
					k := make([]byte, n)
					if n == 16 {
						// input_lo ^ (secret[3] ^ secret[4]), input_hi ^ (secret[5] ^ secret[6])
						le(k[0:], a^xxhSecret[3]^xxhSecret[4])
						le(k[8:], b^xxhSecret[5]^xxhSecret[6])
					} else {
						// Round r: the 16 bytes at 16r with secret words 4r, 4r+1, those
						// 16(r+1) before the end with 4r+2, 4r+3.
						for r := range n / 32 {
							le(k[16*r:], a^xxhSecret[4*r])
							le(k[16*r+8:], b^xxhSecret[4*r+1])
							le(k[n-16*(r+1):], a^xxhSecret[4*r+2])
							le(k[n-16*(r+1)+8:], b^xxhSecret[4*r+3])
						}
					}
					keys = append(keys, string(k))
				}
			}
			checkStrings(t, keys)
		}
	})
}

// mixedOrder returns n keys cut from buf (at least 300 bytes longer than
// the longest key) with lengths from length(i), in the order named: as
// drawn, sorted by length, or reversed.
func mixedOrder(buf string, r *rand.Rand, n int, order string, length func(i int) int) []string {
	keys := make([]string, n)
	for i := range keys {
		l := length(i)
		at := r.IntN(len(buf) - l + 1)
		keys[i] = buf[at : at+l]
	}
	switch order {
	case "sorted":
		slices.SortFunc(keys, func(a, b string) int { return len(a) - len(b) })
	case "reversed":
		slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	}
	return keys
}

// TestHashStringsMixedOrders: with every set of string kernels, batches of
// every size 0..5000 (under -short, mixedSizes: those at every boundary of
// the kernels) of mixed lengths hash as xxh3 does, their keys in random,
// sorted and reversed length order, in alternating length classes (each
// group of four holding several classes, and the classes a one-class kernel
// stops at), and all of one class but one.
func TestHashStringsMixedOrders(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 3))
	buf := randomString(r, 1<<16)
	sizes, grouped := mixedSizes(testing.Short()), []int{4, 7, 64, 257, 1000}
	if testing.Short() {
		grouped = grouped[:4] // 257 crosses a mixed-length window already
	}
	alternating := []int{5, 40, 12, 100, 2, 200, 17, 64, 0, 9, 128, 33, 8, 129, 96, 16, 97, 65, 3, 4}
	for vi, v := range strVariants() {
		t.Run(v.name, func(t *testing.T) {
			v.run(func() {
				for _, n := range sizes {
					maxLen := []int{64, 100, 140, 300}[n%4]
					order := []string{"random", "sorted", "reversed"}[(n/4)%3]
					checkStrings(t, mixedOrder(buf, r, n, order, func(int) int { return r.IntN(maxLen + 1) }))
				}
				for _, n := range grouped {
					for shift := range len(alternating) {
						checkStrings(t, mixedOrder(buf, r, n, "random", func(i int) int { return alternating[(i+shift)%len(alternating)] }))
					}
					for _, c := range []int{5, 12, 40, 64, 100, 128} {
						for _, odd := range []int{0, 3, 8, 16, 17, 65, 129, 500} {
							at := r.IntN(n)
							checkStrings(t, mixedOrder(buf, r, n, "random", func(i int) int {
								if i == at {
									return odd
								}
								return c - r.IntN(2)*(vi%2)
							}))
						}
					}
				}
			})
		})
	}
}

// mixedSizes returns the batch sizes of TestHashStringsMixedOrders: every
// size 0..5000, or, if short, those at every boundary of the string kernels
// and the loops around them, with about 40 times fewer keys (the full run
// takes seconds, minutes under the race detector): every size to 70 (every
// tail of the groups of four and eight keys, with every maxLen and order),
// the sizes around one and two mixed-length windows and byte-slice chunks
// (256 keys each), and the largest.
func mixedSizes(short bool) []int {
	var ns []int
	for n := 0; n <= 5000; n++ {
		near := func(m int) bool { return n >= m-8 && n <= m+8 }
		if !short || n <= 70 || near(mixWindow) || near(2*mixWindow) || near(strChunk) || n >= 4997 {
			ns = append(ns, n)
		}
	}
	return ns
}

// FuzzHashStringsMix: batches of keys cut from one buffer with random
// length mixes (lengths drawn up to maxLen from the seed, some of them over
// the SIMD range), in random or sorted order, hash as xxh3 does with every
// set of string kernels.
func FuzzHashStringsMix(f *testing.F) {
	f.Add(uint64(1), uint16(100), uint8(64), false)
	f.Add(uint64(2), uint16(4097), uint8(255), true)
	f.Add(uint64(3), uint16(9), uint8(17), false)
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, maxLen uint8, sorted bool) {
		r := rand.New(rand.NewPCG(seed, 22))
		buf := randomString(r, 1<<12)
		m := int(maxLen) + int(maxLen)/2 // up to 382 bytes
		order := "random"
		if sorted {
			order = "sorted"
		}
		keys := mixedOrder(buf, r, int(n)%5001, order, func(int) int { return r.IntN(m + 1) })
		for _, v := range strVariants() {
			v.run(func() { checkStrings(t, keys) })
		}
	})
}
