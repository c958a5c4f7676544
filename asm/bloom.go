package main

// bloomBase emits the root package's kernels_amd64.s: the typed one-key
// entry points hasTyped and addTyped, each of which jumps to the version of
// cpu.Active's level (kernels_avx2_amd64.s, kernels_avx512_amd64.s) or
// runs its scalar version, which every amd64 processor has.
func bloomBase() {
	typedKernels(nil)
}
