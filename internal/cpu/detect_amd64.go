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

func detectBMI2() bool   { return cpuid.CPU.Supports(cpuid.BMI2, cpuid.POPCNT) }
func detectBITALG() bool { return cpuid.CPU.Supports(cpuid.AVX512BITALG) }
func detectIFMA() bool   { return cpuid.CPU.Supports(cpuid.AVX512IFMA) }
func detectVBMI() bool   { return cpuid.CPU.Supports(cpuid.AVX512VBMI) }
func detectL2() uint64   { return cacheBytes(cpuid.CPU.Cache.L2) }
func detectL3() uint64   { return cacheBytes(cpuid.CPU.Cache.L3) }
