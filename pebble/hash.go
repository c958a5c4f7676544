package sbpebble

import (
	"encoding/binary"
	"math/bits"

	"github.com/zeebo/xxh3"
)

// keyHash returns xxh3 (64-bit, seed 0) of key, as xxh3.Hash and
// bloom.Hash do. Keys of 9 to 32 bytes, the usual sizes of table keys, are
// hashed by pieces small enough to inline (hash9to16, hash17to32 of two
// fold16), so that MayContain, which makes the same choice in its own
// body, saves the call into the xxh3 package.
func keyHash(key []byte) uint64 {
	switch n := uint64(len(key)); {
	case n-9 <= 16-9:
		return hash9to16(key)
	case n-17 <= 32-17:
		return hash17to32(key)
	}
	return xxh3.Hash(key)
}

// hash9to16 is xxh3 of a key of 9 to 16 bytes.
func hash9to16(key []byte) uint64 {
	n := uint64(len(key))
	lo := binary.LittleEndian.Uint64(key) ^ (secret3 ^ secret4)
	hi := binary.LittleEndian.Uint64(key[n-8:]) ^ (secret5 ^ secret6)
	return avalanche(n + bits.ReverseBytes64(lo) + hi + mulFold(lo, hi))
}

// hash17to32 is xxh3 of a key of 17 to 32 bytes: its first and last 16
// bytes, each folded with 16 bytes of the secret.
func hash17to32(key []byte) uint64 {
	n := uint64(len(key))
	return avalanche(n*prime64 + fold16(key, secret0, secret1) + fold16(key[n-16:], secret2, secret3))
}

// fold16 is XXH3's mix of the first 16 bytes of b with the secret words
// s0 and s1.
func fold16(b []byte, s0, s1 uint64) uint64 {
	return mulFold(binary.LittleEndian.Uint64(b)^s0, binary.LittleEndian.Uint64(b[8:])^s1)
}

// The words of XXH3's default secret (the specification's kSecret) at
// byte offsets 0, 8, ..., 48, little-endian.
const (
	secret0 = 0xbe4ba423396cfeb8
	secret1 = 0x1cad21f72c81017c
	secret2 = 0xdb979083e96dd4de
	secret3 = 0x1f67b3b7a4a44072
	secret4 = 0x78e5c0cc4ee679cb
	secret5 = 0x2172ffcc7dd05a82
	secret6 = 0x8e2443f7744608b8
)

// prime64 is XXH64's first prime, which XXH3 multiplies the length by.
const prime64 = 0x9e3779b185ebca87

// mulFold returns the high and low words of a*b, xored.
func mulFold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// avalanche is XXH3's final mix of the short paths.
func avalanche(h uint64) uint64 {
	h ^= h >> 37
	h *= 0x165667919e3779f9
	return h ^ h>>32
}
