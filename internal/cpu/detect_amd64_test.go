//go:build amd64 && !purego

package cpu

import (
	"testing"

	"github.com/klauspost/cpuid/v2"
)

// TestOSState checks that the levels need the operating system's register
// state: cpuid/v2 already leaves AVX, AVX2 and the AVX-512 extensions out
// when XCR0 lacks their state, and osFeatures removes them again from
// XCR0 read here with XGETBV.
func TestOSState(t *testing.T) {
	var xcr0 uint64
	if cpuid.CPU.Supports(cpuid.OSXSAVE) {
		xcr0 = xgetbv0()
	}
	t.Logf("XCR0 = %#x, features %v, level %v", xcr0, Features, Detected)
	if Detected >= AVX2 && xcr0&(xcr0SSE|xcr0AVX) != xcr0SSE|xcr0AVX {
		t.Errorf("level %v without the YMM state in XCR0 %#x", Detected, xcr0)
	}
	if Detected == AVX512 && xcr0&0xe6 != 0xe6 {
		t.Errorf("level avx512 without the ZMM and opmask state in XCR0 %#x", xcr0)
	}
	// cpuid/v2 agrees: with the state missing it reports no AVX or AVX-512.
	if xcr0&6 != 6 && (cpuid.CPU.Supports(cpuid.AVX) || cpuid.CPU.Supports(cpuid.AVX2)) {
		t.Errorf("cpuid/v2 reports AVX without the YMM state")
	}
	if xcr0&0xe6 != 0xe6 && cpuid.CPU.Supports(cpuid.AVX512F) {
		t.Errorf("cpuid/v2 reports AVX-512 without the ZMM state")
	}
	all := archFeatures
	for _, c := range []struct {
		xcr0 uint64
		want Level
	}{
		{0, Generic},
		{xcr0SSE, Generic},
		{xcr0SSE | xcr0AVX, AVX2},
		{xcr0SSE | xcr0AVX | xcr0Opmask | xcr0ZMMHi, AVX2}, // no ZMM16-31 state
		{0xe7, AVX512},
	} {
		if got := levelOf(osFeatures(all, c.xcr0)); got != c.want {
			t.Errorf("XCR0 %#x with every feature: level %v, want %v", c.xcr0, got, c.want)
		}
	}
}
