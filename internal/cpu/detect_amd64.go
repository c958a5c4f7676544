//go:build amd64 && !purego

package cpu

import "github.com/klauspost/cpuid/v2"

func detect() Level {
	c := cpuid.CPU
	if c.Supports(cpuid.AVX512F, cpuid.AVX512VL, cpuid.AVX512DQ, cpuid.AVX512BW) {
		return AVX512
	}
	if c.Supports(cpuid.AVX2) {
		return AVX2
	}
	return Generic
}
