//go:build amd64 && !purego

package cpu

// Kernels maps the package's one assembly function to its features, for
// kernels_amd64_test.go.
var Kernels = map[string]Kernel{"xgetbv0": {Level: Generic, Needs: FeatureOSXSAVE}}
