//go:build !purego

package blocked

import (
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/kernelcheck"
)

// kernels maps every assembly function of this package to its features, the
// variable of dispatch_arm64.go that decides whether it runs. Only
// TestKernelFeatures reads it.
var kernels = map[string]cpu.Kernel{
	"filterHas8NEON": kNEON, "filterHas16NEON": kNEON, "filterAdd8NEON": kNEON, "filterAdd16NEON": kNEON,
	"splitHasNEON": kNEON, "splitAddNEON": kNEON, "countingHasNEON": kNEON, "countingAddNEON": kNEON,
}

// TestKernelFeatures checks every kernel of kernels_arm64.s against kernels:
// the features on the hand-written Requires line above each.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom/blocked", kernels, "kernels_arm64.s")
}
