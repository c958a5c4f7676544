//go:build amd64 && !purego

package cpu

import "github.com/klauspost/cpuid/v2"

// archFeatures are the features this architecture can have.
const archFeatures = (featureEnd - 1) &^ FeatureASIMD

func baseline() Feature { return FeatureSSE2 | FeatureMMXExt }

// cpuidFeatures maps cpuid/v2's names to ours. cpuid/v2 reports AVX and
// AVX2 only when the operating system saves the YMM state (XCR0 bits 1 and
// 2), and the AVX-512 extensions only when it also saves the opmask and ZMM
// state (XCR0 bits 5 to 7); osFeatures checks XCR0 again itself.
var cpuidFeatures = []struct {
	id cpuid.FeatureID
	f  Feature
}{
	{cpuid.SSE2, FeatureSSE2},
	{cpuid.MMXEXT, FeatureMMXExt},
	{cpuid.POPCNT, FeaturePOPCNT},
	{cpuid.BMI1, FeatureBMI1},
	{cpuid.BMI2, FeatureBMI2},
	{cpuid.AVX, FeatureAVX},
	{cpuid.AVX2, FeatureAVX2},
	{cpuid.AVX512F, FeatureAVX512F},
	{cpuid.AVX512VL, FeatureAVX512VL},
	{cpuid.AVX512DQ, FeatureAVX512DQ},
	{cpuid.AVX512BW, FeatureAVX512BW},
	{cpuid.AVX512BITALG, FeatureAVX512BITALG},
	{cpuid.AVX512IFMA, FeatureAVX512IFMA},
	{cpuid.AVX512VBMI, FeatureAVX512VBMI},
	{cpuid.OSXSAVE, FeatureOSXSAVE},
}

func detectFeatures() Feature {
	var fs Feature
	for _, m := range cpuidFeatures {
		if cpuid.CPU.Supports(m.id) {
			fs |= m.f
		}
	}
	// Every amd64 processor has SSE2 and the SSE integer instructions
	// (MMX+), whatever cpuid/v2 names them.
	fs |= baseline()
	var xcr0 uint64
	if fs&FeatureOSXSAVE != 0 {
		xcr0 = xgetbv0()
	}
	return osFeatures(fs, xcr0)
}

// XCR0 bits: the register state the operating system saves on a context
// switch.
const (
	xcr0SSE    = 1 << 1
	xcr0AVX    = 1 << 2
	xcr0Opmask = 1 << 5
	xcr0ZMMHi  = 1 << 6 // the upper halves of ZMM0-15
	xcr0HiZMM  = 1 << 7 // ZMM16-31
)

// osFeatures removes from fs the vector extensions whose registers the
// operating system does not save (xcr0, 0 when XGETBV is not enabled):
// AVX and AVX2 need the SSE and AVX state, AVX-512 also the opmask and ZMM
// state. A kernel that ran without them would lose its registers' upper
// halves at every context switch.
func osFeatures(fs Feature, xcr0 uint64) Feature {
	const ymm = xcr0SSE | xcr0AVX
	const zmm = ymm | xcr0Opmask | xcr0ZMMHi | xcr0HiZMM
	const avx512 = FeatureAVX512F | FeatureAVX512VL | FeatureAVX512DQ | FeatureAVX512BW |
		FeatureAVX512BITALG | FeatureAVX512IFMA | FeatureAVX512VBMI
	if xcr0&ymm != ymm {
		fs &^= FeatureAVX | FeatureAVX2 | avx512
	}
	if xcr0&zmm != zmm {
		fs &^= avx512
	}
	return fs
}

// xgetbv0 returns XCR0 (xgetbv_amd64.s). Call it only when cpuid reports
// OSXSAVE.
func xgetbv0() uint64

func detect() Level    { return levelOf(Features) }
func detectL2() uint64 { return cacheBytes(cpuid.CPU.Cache.L2) }
func detectL3() uint64 { return cacheBytes(cpuid.CPU.Cache.L3) }
