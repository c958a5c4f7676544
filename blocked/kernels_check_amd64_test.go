//go:build !purego

package blocked

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
	"filterHas8AVX2": kAVX2, "filterHas16AVX2": kAVX2,
	"filterAdd8AVX2": kAVX2, "filterAdd16AVX2": kAVX2,
	"filterAdd8AVX2Ring": kAVX2, "filterAdd16AVX2Ring": kAVX2,
	"filterHas8AVX2Ring": kAVX2Ring, "filterHas16AVX2Ring": kAVX2Ring,
	"filterHas8AVX512": kAVX512Has, "filterHas16AVX512": kAVX512Has,
	"filterHas8BITALG": kBITALG, "filterHas16BITALG": kBITALG,
	"filterAdd8AVX512": kAVX512Add, "filterAdd16AVX512": kAVX512Add,
	"splitHasAVX2": kAVX2, "splitAddAVX2": kAVX2, "splitAddAVX2Ring": kAVX2,
	"splitHasAVX2Ring": kAVX2Ring, "splitHasRingAVX512": kSplitRingAVX512,
	"countingHasAVX2": kAVX2, "countingHasAVX2Ring": kAVX2Ring, "countingHasAVX512": kAVX512Has,
	"filterHasOne": kOneEntry, "filterAddOne": kOneEntry, "splitHasOne": kOneEntry, "splitAddOne": kOneEntry,
	"filterHasOneAVX2": kOneAVX2, "filterAddOneAVX2": kOneAVX2, "splitHasOneAVX2": kOneAVX2, "splitAddOneAVX2": kOneAVX2,
	"filterLookupOne": kOneEntry, "filterLookupOneAVX2": kOneAVX2,
	"filterLookupKeyed": kOneEntry, "filterLookupKeyedAVX2": kOneAVX2,
}

// equivalenceTests is the -run pattern of this package's tests that compare
// its kernels with the generic code: the TestAsm tests of
// kernels_amd64_test.go and kernels_linux_amd64_test.go, and the views'
// lookups on bytes at every level against the Filter's and the view's
// (TestLookupHashLevels, TestLookupHashFenced, TestLookupHashFor; the
// Filter's one-key kernels against the pure-Go bodies: TestAsmSingleEqualsGo). ../asm's TestEveryKernelHasEquivalenceTest
// checks that they reach every kernel of kernels.
const equivalenceTests = `^(TestAsm.*|TestLookupHashLevels|TestLookupHashFenced|TestLookupHashFor)$`

// TestKernelFeatures checks every kernel of the generated .s files against
// kernels: the features its instructions need, and no EVEX encoding in a
// function below the AVX-512 level.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom/blocked", kernels, "kernels_amd64.s", "kernels_avx2_amd64.s", "kernels_avx512_amd64.s")
}
