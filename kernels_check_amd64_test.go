//go:build !purego

package bloom

import (
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/kernelcheck"
)

// kernels maps every assembly function of this package to its features, the
// variables of hash.go that decide whether it runs. Only tests read it:
// TestKernelFeatures here, and asm's TestKernelsInTables, which checks that
// the generator emits exactly these functions.
var kernels = map[string]cpu.Kernel{
	"hashUint64sAVX512": kWords512, "hashUint64sAVX2": kAVX2,
	"hashStr4AVX512": kStr512, "hashStr9AVX512": kStr512, "hashStr17AVX512": kStr512, "hashStr33AVX512": kStr512,
	"hashStr9IFMA": kStrIFMA, "hashStr17IFMA": kStrIFMA, "hashStr33IFMA": kStrIFMA,
	"hashStr4AVX2": kStr2, "hashStr9AVX2": kStr2, "hashStr17AVX2": kStr2, "hashStr33AVX2": kStr2,
	"hashStr65AVX2": kStr2, "hashStr97AVX2": kStr2, "hashStrMixAVX2": kMix2,
	"hasTyped": kTypedEntry, "addTyped": kTypedEntry,
	"hasTypedAVX2": kTypedAVX2, "addTypedAVX2": kTypedAVX2,
	"hasGens": kTypedEntry, "hasGensAVX2": kTypedAVX2,
	"hasGensAll": kTypedEntry, "hasGensAllAVX2": kWindowAVX2,
}

// equivalenceTests is the -run pattern of this package's tests that compare
// its kernels with the generic code: the hash tests (hash_batch_test.go,
// hash_mix_amd64_test.go and the guard-page tests: every set of kernels
// against xxh3), and the typed one-key path at every level against the
// engine's (TestTypedOneKeyEveryKind, TestTypedStringLengths), and
// Window's lookups against the engine's (TestWindowHasMatchesEngine). ../asm's
// TestEveryKernelHasEquivalenceTest checks that they reach every kernel of
// kernels.
const equivalenceTests = `^(TestHash.*|TestTypedOneKeyEveryKind|TestTypedStringLengths|TestWindowHasMatchesEngine)$`

// TestKernelFeatures checks every kernel of the generated .s files against
// kernels: the features its instructions need, and no EVEX encoding in a
// function below the AVX-512 level.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom", kernels, "kernels_amd64.s", "kernels_avx2_amd64.s", "kernels_avx512_amd64.s")
}
