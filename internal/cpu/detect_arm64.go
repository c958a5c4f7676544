//go:build arm64 && !purego

package cpu

import "github.com/klauspost/cpuid/v2"

func detect() Level {
	if cpuid.CPU.Supports(cpuid.ASIMD) {
		return NEON
	}
	return Generic
}

func detectBMI2() bool   { return false }
func detectBITALG() bool { return false }
func detectIFMA() bool   { return false }
func detectVBMI() bool   { return false }
func detectL2() uint64   { return cacheBytes(cpuid.CPU.Cache.L2) }
func detectL3() uint64   { return cacheBytes(cpuid.CPU.Cache.L3) }
