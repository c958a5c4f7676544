//go:build !purego

package cuckoo

import (
	"testing"

	"github.com/simdbloom/bloom/internal/kernelcheck"
)

// TestKernelFeatures checks every kernel of kernels_arm64.s against the
// table in dispatch_arm64.go: the features on the hand-written Requires line
// above each.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom/cuckoo", kernels, "kernels_arm64.s")
}
