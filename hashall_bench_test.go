package bloom

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

// The string hashing targets of issue 12: Filter[string].HasAll against
// blocked HasHashes of the same keys' precomputed hashes, at a 16 KiB filter,
// each level's two rows in one process. The keys lie contiguously in one
// buffer, as a page of keys would, and the stream is short enough (2^16 keys,
// at most 2.5 MiB of key bytes) to stay in L2/L3 like a user's batch, so the
// rows measure hashing rather than streaming the keys from memory:
//
//	go test -run '^$' -bench HasAllStrings -count 8 . | tee hasall.txt
//	benchstat -col /op hasall.txt
//
// ns/op is wall time per key (b.N counts keys). On shared cores busy with
// other work it swings by tens of percent between runs: alternate the runs
// and compare with benchstat. The bench/ module's BenchmarkTypedStrings
// measures the same rows at 16 KiB with the thread's CPU time per key
// (cpu-ns/key) besides.

const (
	hasAllStream = 1 << 16
	hasAllBatch  = 4096
)

// hasAllKeys returns a stream of hasAllStream keys of min to max random
// bytes, sub-strings of one buffer in stream order, and their hashes.
func hasAllKeys(min, max int) ([]string, []uint64) {
	r := rand.New(rand.NewPCG(uint64(min), uint64(max)))
	ends := make([]int, hasAllStream)
	var buf []byte
	for i := range ends {
		for range min + r.IntN(max-min+1) {
			buf = append(buf, byte(r.Uint32()))
		}
		ends[i] = len(buf)
	}
	whole := string(buf)
	keys := make([]string, hasAllStream)
	hashes := make([]uint64, hasAllStream)
	start := 0
	for i, end := range ends {
		keys[i], hashes[i] = whole[start:end], Hash(whole[start:end])
		start = end
	}
	return keys, hashes
}

// hasAllBatches runs has over batches of hasAllBatch from stream; b.N
// counts keys.
func hasAllBatches[T any](b *testing.B, stream []T, has func([]T, []bool) int) {
	out := make([]bool, hasAllBatch)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i += hasAllBatch {
		j := i & (hasAllStream - 1)
		n += has(stream[j:j+hasAllBatch], out)
	}
	benchSink += n
}

// BenchmarkHasAllStrings: for 16-byte, 40-byte and mixed 5-64-byte keys, a
// 16 KiB Filter[string] holding half of the stream's keys (at most 8 per 10
// bytes), HasAll of the keys and HasHashes of their hashes, with every set of
// string kernels (strVariants: each level, and AVX-512 without IFMA).
func BenchmarkHasAllStrings(b *testing.B) {
	const size = 16 << 10
	for _, kc := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"mixed5-64", 5, 64}} {
		keys, hashes := hasAllKeys(kc.min, kc.max)
		eng, err := blocked.NewBytes(size, 8)
		if err != nil {
			b.Fatal(err)
		}
		f := FromEngine[string](eng)
		f.AddAll(keys[:min(len(keys)/2, size*8/10)])
		for _, v := range strVariants() {
			name := fmt.Sprintf("size=16K/key=%s", kc.name)
			onStrVariant(b, name+"/op=HasAll", v, func(b *testing.B) { hasAllBatches(b, keys, f.HasAll) })
			onStrVariant(b, name+"/op=HasHashes", v, func(b *testing.B) { hasAllBatches(b, hashes, eng.HasHashes) })
		}
	}
}

// BenchmarkHashAllStrings is hashKeys alone over the same streams, batches
// of hasAllBatch keys, with every set of string kernels: the part of HasAll
// the string kernels decide.
func BenchmarkHashAllStrings(b *testing.B) {
	for _, kc := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"100", 100, 100}, {"mixed5-64", 5, 64}, {"mixed20-100", 20, 100}, {"mixed65-128", 65, 128}} {
		keys, _ := hasAllKeys(kc.min, kc.max)
		dst := make([]uint64, hasAllBatch)
		for _, v := range strVariants() {
			onStrVariant(b, "key="+kc.name, v, func(b *testing.B) {
				b.ResetTimer()
				for i := 0; i < b.N; i += hasAllBatch {
					j := i & (hasAllStream - 1)
					hashKeys(kindString, dst, keys[j:j+hasAllBatch])
				}
			})
		}
	}
}

// The mixed-length targets of issue 22: streams of mixedStream keys (more
// than L2 holds) in the two layouts users have, at a 16 KiB filter:
//
//	go test -run '^$' -bench HasAllMixed -count 6 . | tee mixed.txt
//	benchstat -col /op mixed.txt
//
// layout=buffer keys are cut from one buffer in stream order (a page of keys,
// a file's lines); layout=alloc keys are each in their own allocation, the
// stream visiting them in an order unrelated to the heap's (keys from a map).
// op=HasAll is Filter[string].HasAll, op=Has a loop of Has on the same keys,
// op=HasHashes blocked HasHashes of their hashes.
const mixedStream = 1 << 18

// mixedKeys returns mixedStream keys of min to max random bytes in layout
// buffer or alloc, and their hashes.
func mixedKeys(min, max int, layout string) ([]string, []uint64) {
	r := rand.New(rand.NewPCG(uint64(min)<<8|uint64(max), 22))
	keys := make([]string, mixedStream)
	var buf []byte
	ends := make([]int, mixedStream)
	for i := range ends {
		for range min + r.IntN(max-min+1) {
			buf = append(buf, byte(r.Uint32()))
		}
		ends[i] = len(buf)
	}
	whole, start := string(buf), 0
	for i, end := range ends {
		if layout == "alloc" {
			keys[i] = string(buf[start:end]) // its own allocation
		} else {
			keys[i] = whole[start:end]
		}
		start = end
	}
	if layout == "alloc" {
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	}
	hashes := make([]uint64, len(keys))
	for i, k := range keys {
		hashes[i] = Hash(k)
	}
	return keys, hashes
}

// mixedBatches is hasAllBatches over a stream of mixedStream keys.
func mixedBatches[T any](b *testing.B, stream []T, has func([]T, []bool) int) {
	out := make([]bool, hasAllBatch)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i += hasAllBatch {
		j := i & (mixedStream - 1)
		n += has(stream[j:j+hasAllBatch], out)
	}
	benchSink += n
}

// BenchmarkHasAllMixed: for keys of 16, 40, 5-64, 20-100 and 65-128 bytes in both
// layouts, a 16 KiB Filter[string] holding 8 keys per 10 bytes of the
// stream's, HasAll of the keys, a loop of Has, and HasHashes of their hashes,
// with every set of string kernels.
func BenchmarkHasAllMixed(b *testing.B) {
	const size = 16 << 10
	for _, kc := range []struct {
		name     string
		min, max int
	}{{"16", 16, 16}, {"40", 40, 40}, {"5-64", 5, 64}, {"20-100", 20, 100}, {"65-128", 65, 128}} {
		for _, layout := range []string{"buffer", "alloc"} {
			keys, hashes := mixedKeys(kc.min, kc.max, layout)
			eng, err := blocked.NewBytes(size, 8)
			if err != nil {
				b.Fatal(err)
			}
			f := FromEngine[string](eng)
			f.AddAll(keys[:size*8/10])
			loop := func(ks []string, out []bool) int {
				n := 0
				for i, k := range ks {
					out[i] = f.Has(k)
					if out[i] {
						n++
					}
				}
				return n
			}
			for _, v := range strVariants() {
				name := fmt.Sprintf("key=%s/layout=%s", kc.name, layout)
				onStrVariant(b, name+"/op=HasAll", v, func(b *testing.B) { mixedBatches(b, keys, f.HasAll) })
				onStrVariant(b, name+"/op=Has", v, func(b *testing.B) { mixedBatches(b, keys, loop) })
				onStrVariant(b, name+"/op=HasHashes", v, func(b *testing.B) { mixedBatches(b, hashes, eng.HasHashes) })
			}
		}
	}
}
