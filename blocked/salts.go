package blocked

// The salts that turn the lower 32 bits of a hash into bit positions: bit
// (uint32(h)*salt)>>26 of a 64-bit word. They are odd 32-bit constants (the
// first 32 bits of the fractional parts of the square roots of the primes 2
// to 53, with the low bit set). They are part of the binary format: a filter
// written with them must be read with them, so they never change.
//
// Word i of a block uses salt i for k = 8, and salts i and i+8 for k = 16.
const (
	salt0  = 0x6a09e667
	salt1  = 0xbb67ae85
	salt2  = 0x3c6ef373
	salt3  = 0xa54ff53b
	salt4  = 0x510e527f
	salt5  = 0x9b05688d
	salt6  = 0x1f83d9ab
	salt7  = 0x5be0cd19
	salt8  = 0xcbbb9d5d
	salt9  = 0x629a292b
	salt10 = 0x9159015b
	salt11 = 0x152fecd9
	salt12 = 0x67332667
	salt13 = 0x8eb44a87
	salt14 = 0xdb0c2e0d
	salt15 = 0x47b5481d
)

// salt lists the salts in order, for loops and for the NEON kernels, which
// load it by symbol. The amd64 generator (../asm) reads the constants above;
// salts_test.go checks the generated tables and the NEON file against these.
var salt = [16]uint32{
	salt0, salt1, salt2, salt3, salt4, salt5, salt6, salt7,
	salt8, salt9, salt10, salt11, salt12, salt13, salt14, salt15,
}

// The Parquet salts of SplitBlock: word i of a block uses splitSalt i. They
// are fixed by the Parquet specification (BloomFilter.md).
const (
	splitSalt0 = 0x47b6137b
	splitSalt1 = 0x44974d91
	splitSalt2 = 0x8824ad5b
	splitSalt3 = 0xa2b7289d
	splitSalt4 = 0x705495c7
	splitSalt5 = 0x2df1424b
	splitSalt6 = 0x9efc4947
	splitSalt7 = 0x5c6bfb31
)

// splitSalt lists the Parquet salts in order, for loops and for the NEON
// kernels, which load it by symbol.
var splitSalt = [8]uint32{
	splitSalt0, splitSalt1, splitSalt2, splitSalt3,
	splitSalt4, splitSalt5, splitSalt6, splitSalt7,
}
