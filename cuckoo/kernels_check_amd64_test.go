//go:build !purego

package cuckoo

import (
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/kernelcheck"
)

// kernels maps every assembly function of this package to its features, the
// variables of dispatch_amd64.go that decide whether it runs. Only tests
// read it: TestKernelFeatures here, and ../asm's TestKernelsInTables, which
// checks that the generator emits exactly these functions.
var kernels = map[string]cpu.Kernel{
	"cuckooHasSemiAVX512": kSemiAVX512, "cuckooHasPlainAVX512": kPlainAVX512,
	"cuckooHasSemiAVX2": kAVX2, "cuckooHasPlainAVX2": kAVX2,
}

// equivalenceTests is the -run pattern of this package's tests that compare
// its kernels with the generic code: the batch lookups at every level against the one-key Go lookup. ../asm's
// TestEveryKernelHasEquivalenceTest checks that they reach every kernel of
// kernels.
const equivalenceTests = `^(TestHasHashesLevels|TestHasHashesWithoutVBMI)$`

// TestKernelFeatures checks every kernel of the generated .s files against
// kernels: the features its instructions need, and no EVEX encoding in a
// function below the AVX-512 level.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom/cuckoo", kernels, "kernels_avx2_amd64.s", "kernels_avx512_amd64.s")
}
