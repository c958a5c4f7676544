package main

// bloomAVX2 emits the root package's kernels_avx2_amd64.s: the AVX2
// hashing of integers and strings, and the typed one-key kernels' AVX2
// versions.
func bloomAVX2() {
	hashAVX2()
	hashStrsAVX2()
	typedKernels(&avx2)
}
