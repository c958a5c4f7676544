package main

import (
	"math/bits"
)

// The root package hashes a 64-bit integer key x as XXH3-64 of its 8-byte
// little-endian encoding (bloom.Hash[uint64]):
//
//	h := rotl(x, 32) ^ secret
//	h ^= rotl(h, 49) ^ rotl(h, 24)
//	h *= prime; h ^= h>>35 + 8
//	h *= prime; h ^= h>>28
//
// AVX-512 has 64-bit lane multiplies (VPMULLQ, DQ) and rotates (VPROLQ), so
// the kernel hashes eight keys per zmm. The first two lines become three
// independent rotates of x and one constant, since rotates distribute over
// XOR: h = rotl(x,32) ^ rotl(x,17) ^ rotl(x,56) ^ (s ^ rotl(s,49) ^ rotl(s,24)).
const (
	xxhSecret = 0x1cad21f72c81017c ^ 0xdb979083e96dd4de
	xxhPrime  = 0x9fb21c651e98df25
)

// hashUnroll is how many zmm registers of keys one loop iteration hashes.
const hashUnroll = 2

// xxhFolded is the constant of the folded first step.
var xxhFolded = uint64(xxhSecret) ^ bits.RotateLeft64(xxhSecret, 49) ^ bits.RotateLeft64(xxhSecret, 24)
