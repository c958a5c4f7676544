// Package cpu holds every fact about the processor that the kernels depend
// on: the kernel level, the instruction set extensions each kernel needs
// (Feature), and the cache sizes that decide when the batch kernels
// prefetch. Everything is read once at start-up; nothing else in the module
// asks the processor.
//
// Every assembly function of the module is listed, beside its dispatch, with
// the level it belongs to and the exact features its instructions need (a
// Kernel); its dispatcher calls it only when Can reports that Active allows
// that level and the processor has every one of those features. The tests
// check each table against the assembler's "// Requires:" lines.
//
// The level is the best the processor supports (detected with
// github.com/klauspost/cpuid/v2), lowered by the environment variable
// SIMDBLOOM_CPU=generic|avx2|avx512|neon. The variable can only lower the level:
// asking for a level the processor lacks, or a name that is not known, leaves the
// detected level unless the name is "generic". Builds with the purego tag, and
// architectures without kernels, always use Generic.
package cpu

import (
	"os"
	"strings"
)

// Level is a kernel level, ordered so that a larger level is faster on
// processors that support it.
type Level int

const (
	// Generic is the pure-Go path, available everywhere.
	Generic Level = iota
	// NEON is the arm64 Advanced SIMD path.
	NEON
	// AVX2 is the amd64 path using 256-bit AVX2 instructions.
	AVX2
	// AVX512 is the amd64 path using 512-bit AVX-512 F, VL, DQ and BW instructions.
	AVX512
)

// String returns the level's name as SIMDBLOOM_CPU spells it.
func (l Level) String() string {
	switch l {
	case NEON:
		return "neon"
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	}
	return "generic"
}

// Detected is the best level this processor and build support.
var Detected = detect()

// Active is the level the filters use: Detected, lowered by SIMDBLOOM_CPU.
// This module's tests and benchmarks (and the bloom command's bench, which
// times every level) change it, to compare kernels; it is not safe to
// change while filters are in use.
var Active = choose(Detected, os.Getenv("SIMDBLOOM_CPU"))

// L2 is the size in bytes of one core's L2 cache, and L3 the size of the
// last-level cache, as the processor reports them; 0 when it does not
// (common on arm64), under purego and on other architectures.
var (
	L2 = detectL2()
	L3 = detectL3()
)

// cacheBytes converts a cache size reported by cpuid (-1 when unknown) to
// bytes, 0 when unknown.
func cacheBytes(n int) uint64 {
	if n <= 0 {
		return 0
	}
	return uint64(n)
}

// All lists every level, slowest first.
var All = []Level{Generic, NEON, AVX2, AVX512}

// Ceiling is the level chosen at start-up, Detected lowered by SIMDBLOOM_CPU:
// what Active starts as. Tests that change Active keep it at or below
// Ceiling, so that forcing a level also forces the tests.
var Ceiling = Active

// Usable returns the levels that can run here, slowest first, up to Ceiling:
// with SIMDBLOOM_CPU=generic only Generic, with avx2 on an AVX-512 processor
// Generic and AVX2.
func Usable() []Level {
	var ls []Level
	for _, l := range All {
		if Supported(l) && l <= Ceiling {
			ls = append(ls, l)
		}
	}
	return ls
}

// Parse returns the level named by s (generic, neon, avx2, avx512; case-insensitive).
func Parse(s string) (Level, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "generic", "purego", "go":
		return Generic, true
	case "neon":
		return NEON, true
	case "avx2":
		return AVX2, true
	case "avx512":
		return AVX512, true
	}
	return Generic, false
}

// Supported reports whether level l can run here.
func Supported(l Level) bool {
	if l == Generic {
		return true
	}
	if l == NEON {
		return Detected == NEON
	}
	if Detected == NEON {
		return false
	}
	return l <= Detected
}

// choose applies the override env to the detected level.
func choose(detected Level, env string) Level {
	if env == "" {
		return detected
	}
	l, ok := Parse(env)
	if !ok {
		return detected
	}
	if l == Generic {
		return Generic
	}
	if l == NEON {
		if detected == NEON {
			return NEON
		}
		return detected
	}
	if detected == NEON || l > detected {
		return detected
	}
	return l
}
