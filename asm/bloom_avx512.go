package main

// bloomAVX512 emits the root package's kernels_avx512_amd64.s: the AVX-512
// hashing of integers and strings, and the typed one-key kernels' AVX-512
// versions.
func bloomAVX512() {
	hashAVX512()
	hashStrsAVX512()
	typedKernels(&avx512)
}
