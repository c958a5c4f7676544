//go:build arm64 && !purego

package cpu

import "github.com/klauspost/cpuid/v2"

// archFeatures are the features this architecture can have.
const archFeatures = FeatureASIMD

// baseline is empty: the NEON level needs ASIMD, which detectFeatures
// takes from cpuid/v2 (the operating system's HWCAP).
func baseline() Feature { return 0 }

func detectFeatures() Feature {
	var fs Feature
	if cpuid.CPU.Supports(cpuid.ASIMD) {
		fs |= FeatureASIMD
	}
	return fs
}

func detect() Level    { return levelOf(Features) }
func detectL2() uint64 { return cacheBytes(cpuid.CPU.Cache.L2) }
func detectL3() uint64 { return cacheBytes(cpuid.CPU.Cache.L3) }
