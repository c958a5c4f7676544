//go:build purego || !amd64

package bloom

// Without the amd64 assembly cpu.Active is never AVX2 or AVX512, so hashWords
// never calls these; they exist only so that hash.go compiles everywhere.

func hashUint64sAVX512(dst, src []uint64) { panic("bloom: no hashing assembly") }
func hashUint64sAVX2(dst, src []uint64)   { panic("bloom: no hashing assembly") }
