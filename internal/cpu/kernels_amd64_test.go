//go:build amd64 && !purego

package cpu_test

import (
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/kernelcheck"
)

// TestKernelFeatures checks xgetbv_amd64.s against the package's table.
func TestKernelFeatures(t *testing.T) {
	kernelcheck.Check(t, "github.com/simdbloom/bloom/internal/cpu", cpu.Kernels, "xgetbv_amd64.s")
}
