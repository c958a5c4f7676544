//go:build arm64 && !purego

package cpu

import "github.com/klauspost/cpuid/v2"

func detect() Level {
	if cpuid.CPU.Supports(cpuid.ASIMD) {
		return NEON
	}
	return Generic
}
