package sbparquet

import (
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/cespare/xxhash/v2"
)

// The XXH64 primes.
const (
	prime1 uint64 = 11400714785074694791
	prime2 uint64 = 14029467366897019727
	prime3 uint64 = 1609587929392839161
	prime4 uint64 = 9650029242287828579
	prime5 uint64 = 2870177450012600261
)

// avalanche is XXH64's final mix.
func avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

// hash8 is XXH64 (seed 0) of the 8 bytes of v, little-endian.
func hash8(v uint64) uint64 {
	k := bits.RotateLeft64(v*prime2, 31) * prime1
	h := (prime5 + 8) ^ k
	h = bits.RotateLeft64(h, 27)*prime1 + prime4
	return avalanche(h)
}

// hash4 is XXH64 (seed 0) of the 4 bytes of v, little-endian.
func hash4(v uint32) uint64 {
	h := (prime5 + 4) ^ uint64(v)*prime1
	h = bits.RotateLeft64(h, 23)*prime2 + prime3
	return avalanche(h)
}

// HashInt64 returns the Parquet hash of an INT64 value: XXH64 (seed 0) of its
// 8-byte little-endian encoding.
func HashInt64(v int64) uint64 { return hash8(uint64(v)) }

// HashInt32 returns the Parquet hash of an INT32 value: XXH64 (seed 0) of its
// 4-byte little-endian encoding. (An INT32 is not hashed as an INT64: the
// column's physical type decides.)
func HashInt32(v int32) uint64 { return hash4(uint32(v)) }

// HashFloat64 returns the Parquet hash of a DOUBLE value: XXH64 (seed 0) of
// its IEEE 754 bits, little-endian. The bits are hashed as they are: 0.0 and
// -0.0, and NaNs with different payloads, hash differently.
func HashFloat64(v float64) uint64 { return hash8(math.Float64bits(v)) }

// HashFloat32 returns the Parquet hash of a FLOAT value: XXH64 (seed 0) of
// its IEEE 754 bits, little-endian, hashed as they are (see HashFloat64).
func HashFloat32(v float32) uint64 { return hash4(math.Float32bits(v)) }

// HashBytes returns the Parquet hash of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
// value: XXH64 (seed 0) of its bytes, without a length prefix.
func HashBytes(b []byte) uint64 { return xxhash.Sum64(b) }

// HashString returns the Parquet hash of a BYTE_ARRAY value given as a string
// (for example a UTF8 column): the same as HashBytes([]byte(s)).
func HashString(s string) uint64 { return xxhash.Sum64String(s) }

// HashBool returns the hash of a BOOLEAN value as one byte, 0 or 1. The
// specification does not fix how BOOLEAN columns are hashed (their plain
// encoding is bit-packed) and writers seldom give them filters; this is
// XXH64 (seed 0) of that byte.
func HashBool(v bool) uint64 {
	var b uint64
	if v {
		b = 1
	}
	h := (prime5 + 1) ^ b*prime5
	h = bits.RotateLeft64(h, 11) * prime1
	return avalanche(h)
}

// HashInt64s appends HashInt64(v) for every v of src to dst and returns
// the extended slice, ready for SplitBlock.AddHashes or HasHashes; pass
// dst[:0] to reuse dst's memory. The appended hashes may take src's own
// memory (hashing in place: dst[:0] where dst starts at src) but must not
// otherwise overlap it: that panics, before writing anything.
func HashInt64s(dst []uint64, src []int64) []uint64 {
	dst, out := grow(dst, src)
	for i, v := range src {
		out[i] = hash8(uint64(v))
	}
	return dst
}

// grow extends dst by len(src) elements, as append would, and returns it
// and the new elements, after checkDst.
func grow[T int64 | int32 | float64](dst []uint64, src []T) (all, out []uint64) {
	n := len(dst)
	dst = slices.Grow(dst, len(src))[:n+len(src)]
	out = dst[n:]
	checkDst(out, src)
	return dst, out
}

// checkDst panics unless dst, as long as src, can take the hashes of src:
// it must not share memory with src (a hash would overwrite values
// not yet read), except dst at src's own address for 8-byte values, where
// each value is read before its hash replaces it.
func checkDst[T int64 | int32 | float64](dst []uint64, src []T) {
	if len(src) == 0 {
		return
	}
	d, s := uintptr(unsafe.Pointer(&dst[0])), uintptr(unsafe.Pointer(&src[0]))
	size := unsafe.Sizeof(src[0])
	if d == s && size == 8 {
		return
	}
	if d < s+uintptr(len(src))*size && s < d+uintptr(len(src))*8 {
		panic("sbparquet: hash destination overlaps the values; use separate memory, or (for 8-byte values) dst at the values' own address")
	}
}

// HashInt32s appends HashInt32(v) for every v of src to dst and returns the
// extended slice, as HashInt64s does, except that the appended hashes must
// not share memory with src at all (that panics, before writing anything).
func HashInt32s(dst []uint64, src []int32) []uint64 {
	dst, out := grow(dst, src)
	for i, v := range src {
		out[i] = hash4(uint32(v))
	}
	return dst
}

// HashFloat64s appends HashFloat64(v) for every v of src to dst and returns
// the extended slice, as HashInt64s does (in place allowed, any other
// overlap panics, before writing anything).
func HashFloat64s(dst []uint64, src []float64) []uint64 {
	dst, out := grow(dst, src)
	for i, v := range src {
		out[i] = hash8(math.Float64bits(v))
	}
	return dst
}
