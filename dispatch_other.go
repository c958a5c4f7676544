//go:build purego || !amd64

package bloom

// Without the amd64 assembly cpu.Active is never AVX2 or AVX512, so hashWords
// and hashStrings never call these; they exist only so that hash.go compiles
// everywhere.

func hashUint64sAVX512(dst, src []uint64) { panic("bloom: no hashing assembly") }
func hashUint64sAVX2(dst, src []uint64)   { panic("bloom: no hashing assembly") }

func hashStr4AVX512(dst []uint64, keys *string) int  { panic("bloom: no hashing assembly") }
func hashStr9AVX512(dst []uint64, keys *string) int  { panic("bloom: no hashing assembly") }
func hashStr17AVX512(dst []uint64, keys *string) int { panic("bloom: no hashing assembly") }
func hashStr33AVX512(dst []uint64, keys *string) int { panic("bloom: no hashing assembly") }
func hashStr9IFMA(dst []uint64, keys *string) int    { panic("bloom: no hashing assembly") }
func hashStr17IFMA(dst []uint64, keys *string) int   { panic("bloom: no hashing assembly") }
func hashStr33IFMA(dst []uint64, keys *string) int   { panic("bloom: no hashing assembly") }
func hashStr4AVX2(dst []uint64, keys *string) int    { panic("bloom: no hashing assembly") }
func hashStr9AVX2(dst []uint64, keys *string) int    { panic("bloom: no hashing assembly") }
func hashStr17AVX2(dst []uint64, keys *string) int   { panic("bloom: no hashing assembly") }
func hashStr33AVX2(dst []uint64, keys *string) int   { panic("bloom: no hashing assembly") }
func hashStr65AVX2(dst []uint64, keys *string) int   { panic("bloom: no hashing assembly") }
func hashStr97AVX2(dst []uint64, keys *string) int   { panic("bloom: no hashing assembly") }
func hashStrMixAVX2(dst []uint64, keys *string, flags *uint8) {
	panic("bloom: no hashing assembly")
}

// Without the amd64 assembly the typed kernels are the Go functions of
// generic.go, called directly.

func hasTyped(f *typedFilter, p *uint64) bool { return hasSlow(f, p) }
func addTyped(f *typedFilter, p *uint64)      { addSlow(f, p) }

func hasGens(gens *uintptr, n int, live, h uint64) bool { return hasGensGo(gens, n, live, h) }

func hasGensAll(gens *uintptr, n int, hs []uint64, out []bool) int {
	return hasGensAllGo(gens, n, hs, out)
}
