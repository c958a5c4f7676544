package cpu

import (
	"math/bits"
	"strings"
)

// Feature is a set of instruction set extensions, one bit each. The names
// are those of avo's "// Requires:" lines, so that the tests can compare a
// kernel's table entry with what its instructions need.
type Feature uint32

// The features the kernels use. SSE2 and MMXExt (MMX+, which PREFETCHT0
// needs) are part of every amd64 processor. OSXSAVE means the operating
// system has enabled XGETBV, which detection uses to read XCR0.
const (
	FeatureSSE2 Feature = 1 << iota
	FeatureMMXExt
	FeaturePOPCNT
	FeatureBMI1
	FeatureBMI2
	FeatureAVX
	FeatureAVX2
	FeatureAVX512F
	FeatureAVX512VL
	FeatureAVX512DQ
	FeatureAVX512BW
	FeatureAVX512BITALG
	FeatureAVX512IFMA
	FeatureAVX512VBMI
	FeatureASIMD
	FeatureOSXSAVE
	featureEnd
)

// featureNames are the names of the features in bit order, spelled as avo's
// Requires lines spell them.
var featureNames = [...]string{
	"SSE2", "MMX+", "POPCNT", "BMI", "BMI2", "AVX", "AVX2", "AVX512F", "AVX512VL",
	"AVX512DQ", "AVX512BW", "AVX512BITALG", "AVX512IFMA", "AVX512VBMI", "ASIMD", "OSXSAVE",
}

// Baseline is what every processor of the architecture has: the kernels may
// use it without a check.
var Baseline = baseline()

// Features is the set of features this processor and its operating system
// support (the AVX and AVX-512 register state included); empty under
// purego. Only this module's tests change it, to reach the kernels that run
// without a feature; it is not safe to change while filters are in use.
var Features = detectFeatures()

// levelNeeds[l] is what detection requires of the processor for level l,
// besides Baseline, and so what every kernel of that level may use without a
// further check.
var levelNeeds = [...]Feature{
	Generic: 0,
	NEON:    FeatureASIMD,
	AVX2:    FeatureAVX | FeatureAVX2,
	AVX512:  FeatureAVX | FeatureAVX2 | FeatureAVX512F | FeatureAVX512VL | FeatureAVX512DQ | FeatureAVX512BW,
}

// LevelFeatures returns the features that level l guarantees: those
// detection requires for it, and Baseline.
func LevelFeatures(l Level) Feature { return levelNeeds[l] | Baseline }

// levelOf returns the best level a processor with features fs supports.
func levelOf(fs Feature) Level {
	for _, l := range []Level{AVX512, AVX2, NEON} {
		if fs&levelNeeds[l] == levelNeeds[l] && levelNeeds[l]&^archFeatures == 0 {
			return l
		}
	}
	return Generic
}

// Kernel describes one assembly function: the level it belongs to and the
// features its instructions need (Baseline included or not). A kernel that
// runs where an entry point found Active at its level, without Can (the
// one-key kernels, which an entry point in assembly jumps to), sets
// ByLevel: its Needs must then be within LevelFeatures of its level.
type Kernel struct {
	Level   Level
	Needs   Feature
	ByLevel bool
}

// Can reports whether a kernel of level l that needs features need may run:
// Active is l or above (on the same architecture) and the processor has
// every feature in need.
func Can(l Level, need Feature) bool {
	if Active < l || (l == NEON) != (Active == NEON) && l != Generic {
		return false
	}
	return (Features|Baseline)&need == need
}

// Runs reports whether kernel k may run now (Can of its level and needs).
func (k Kernel) Runs() bool { return Can(k.Level, k.Needs) }

// String lists the features of fs in avo's spelling, comma separated.
func (fs Feature) String() string {
	var names []string
	for f := fs; f != 0; f &= f - 1 {
		i := bits.TrailingZeros32(uint32(f))
		if i < len(featureNames) {
			names = append(names, featureNames[i])
		} else {
			names = append(names, "?")
		}
	}
	return strings.Join(names, ", ")
}

// ParseFeatures parses a comma-separated list of feature names in avo's
// spelling (the text of a "// Requires:" line) and returns the set, and the
// names it does not know.
func ParseFeatures(s string) (fs Feature, unknown []string) {
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		i := 0
		for i < len(featureNames) && featureNames[i] != name {
			i++
		}
		if i == len(featureNames) {
			unknown = append(unknown, name)
			continue
		}
		fs |= 1 << i
	}
	return fs, unknown
}
