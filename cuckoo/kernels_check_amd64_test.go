//go:build !purego

package cuckoo

import (
	"testing"

	"github.com/simdbloom/bloom/internal/kernelcheck"
)

// TestKernelFeatures checks every kernel of the generated .s files against the
// table in dispatch_amd64.go: the features its instructions need, and no
// EVEX encoding in a function below the AVX-512 level.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom/cuckoo", kernels, "kernels_avx2_amd64.s", "kernels_avx512_amd64.s")
}
