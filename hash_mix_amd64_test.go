//go:build !purego

package bloom

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/internal/cpu"
)

// mixRef is the Go reference of one lane of hashStrMixAVX2: XXH3-64 of k
// from the specification's formulas of the classes the kernel hashes (4-8,
// 9-16 and 17-128 bytes), and ok = false for the lengths it flags.
func mixRef(k string) (h uint64, ok bool) {
	n := len(k)
	if n < 4 || n > 128 {
		return 0, false
	}
	b := []byte(k)
	le64 := func(i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }
	le32 := func(i int) uint64 { return uint64(binary.LittleEndian.Uint32(b[i:])) }
	aval := func(h uint64) uint64 {
		h ^= h >> 37
		h *= 0x165667919e3779f9
		return h ^ h>>32
	}
	fold := func(a, b uint64) uint64 {
		hi, lo := bits.Mul64(a, b)
		return hi ^ lo
	}
	s := &xxhSecret
	switch {
	case n <= 8:
		const prime = 0x9fb21c651e98df25
		x := le32(n-4) | le32(0)<<32
		x ^= s[1] ^ s[2]
		x ^= bits.RotateLeft64(x, 49) ^ bits.RotateLeft64(x, 24)
		x *= prime
		x ^= x>>35 + uint64(n)
		x *= prime
		return x ^ x>>28, true
	case n <= 16:
		lo, hi := le64(0)^s[3]^s[4], le64(n-8)^s[5]^s[6]
		return aval(uint64(n) + bits.ReverseBytes64(lo) + hi + fold(lo, hi)), true
	}
	acc := uint64(n) * 0x9e3779b185ebca87
	for r := 0; 32*r < n; r++ {
		f, e := 16*r, n-16*(r+1)
		acc += fold(le64(f)^s[4*r], le64(f+8)^s[4*r+1])
		acc += fold(le64(e)^s[4*r+2], le64(e+8)^s[4*r+3])
	}
	return aval(acc), true
}

// checkMix runs hashStrMixAVX2 on keys (a multiple of four) and checks every
// lane: the flag bit set exactly for lengths below 4 or above 128, and the
// others' hashes equal to mixRef's and xxh3's; nothing written past the keys.
func checkMix(t *testing.T, keys []string) {
	t.Helper()
	const guard = 0x0123456789abcdef
	dst := make([]uint64, len(keys)+4)
	for i := range dst {
		dst[i] = guard
	}
	flags := make([]uint8, len(keys)/4+1)
	flags[len(flags)-1] = 0xa5
	if len(keys) > 0 {
		hashStrMixAVX2(dst[:len(keys)], &keys[0], &flags[0])
	}
	for i, k := range keys {
		ref, ok := mixRef(k)
		if flagged := flags[i/4]>>(i%4)&1 != 0; flagged == ok {
			t.Fatalf("%d keys: key %d of %d bytes flagged %v", len(keys), i, len(k), flagged)
		}
		if !ok {
			continue
		}
		if want := xxh3.HashString(k); ref != want {
			t.Fatalf("mixRef of %d bytes = %#x, xxh3 = %#x", len(k), ref, want)
		}
		if dst[i] != ref {
			t.Fatalf("%d keys: key %d of %d bytes hashed to %#x, want %#x", len(keys), i, len(k), dst[i], ref)
		}
	}
	for i := len(keys); i < len(dst); i++ {
		if dst[i] != guard {
			t.Fatalf("%d keys: dst[%d] written past the keys", len(keys), i)
		}
	}
	if flags[len(flags)-1] != 0xa5 {
		t.Fatalf("%d keys: flags written past the groups", len(keys))
	}
}

// TestHashStrMixKernel: the mixed-length kernel hashes every length 0..300
// in every lane position of a group whose other lanes hold every other
// length class, every pair of lengths 0..140 in alternate lanes, and long
// random batches, as mixRef and xxh3 do.
func TestHashStrMixKernel(t *testing.T) {
	if cpu.Features&(cpu.FeatureAVX|cpu.FeatureAVX2) != cpu.FeatureAVX|cpu.FeatureAVX2 {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(22, 1))
	others := []int{0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 300}
	for n := 0; n <= 300; n++ {
		for pos := range 4 {
			for _, o := range others {
				keys := make([]string, 8)
				for j := range keys {
					keys[j] = randomString(r, (o+j*13)%(o+1))
				}
				keys[pos] = randomString(r, n)
				keys[4+pos] = randomString(r, n)
				checkMix(t, keys)
			}
		}
	}
	for a := 0; a <= 140; a++ {
		for b := 0; b <= 140; b += 1 + b/16 {
			checkMix(t, []string{randomString(r, a), randomString(r, b), randomString(r, a), randomString(r, b)})
		}
	}
	for _, n := range []int{0, 4, 64, 1000, 4096} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = randomString(r, r.IntN(160))
		}
		checkMix(t, keys)
	}
}

// TestHashStrMixMultiplyEdges: every 64x64->128-bit multiply of every round
// of the mixed kernel sees each pair of mulEdges, in lanes beside keys of
// other classes, as TestHashStringsMultiplyEdges does for the class kernels.
func TestHashStrMixMultiplyEdges(t *testing.T) {
	if cpu.Features&(cpu.FeatureAVX|cpu.FeatureAVX2) != cpu.FeatureAVX|cpu.FeatureAVX2 {
		t.Skip("no AVX2")
	}
	le := func(b []byte, w uint64) { binary.LittleEndian.PutUint64(b, w) }
	r := rand.New(rand.NewPCG(22, 2))
	for _, n := range []int{16, 32, 64, 96, 128} {
		var keys []string
		for _, a := range mulEdges {
			for _, b := range mulEdges {
				k := make([]byte, n)
				if n == 16 {
					le(k[0:], a^xxhSecret[3]^xxhSecret[4])
					le(k[8:], b^xxhSecret[5]^xxhSecret[6])
				} else {
					for r := range n / 32 {
						le(k[16*r:], a^xxhSecret[4*r])
						le(k[16*r+8:], b^xxhSecret[4*r+1])
						le(k[n-16*(r+1):], a^xxhSecret[4*r+2])
						le(k[n-16*(r+1)+8:], b^xxhSecret[4*r+3])
					}
				}
				keys = append(keys, string(k), randomString(r, 5+len(keys)%60))
			}
		}
		checkMix(t, keys[:len(keys)&^3])
	}
}
