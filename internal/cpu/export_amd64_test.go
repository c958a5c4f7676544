//go:build amd64 && !purego

package cpu

// Kernels is the table of this package's assembly, for kernels_amd64_test.go.
var Kernels = kernels
