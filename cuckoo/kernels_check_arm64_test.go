//go:build !purego

package cuckoo

import (
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/kernelcheck"
)

// kernels maps every assembly function of this package to its features, the
// variable of dispatch_arm64.go that decides whether it runs. Only
// TestKernelFeatures reads it.
var kernels = map[string]cpu.Kernel{
	"cuckooHasSemiNEON": kNEON, "cuckooHasSemiWideNEON": kNEON, "cuckooHasPlainNEON": kNEON, "cuckooHasPlainWideNEON": kNEON,
}

// TestKernelFeatures checks every kernel of kernels_arm64.s against kernels:
// the features on the hand-written Requires line above each.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom/cuckoo", kernels, "kernels_arm64.s")
}
