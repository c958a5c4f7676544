package main

// cuckooAVX512 emits package cuckoo's kernels_avx512_amd64.s: the AVX-512
// batch lookups of both layouts.
func cuckooAVX512() {
	cuckooHas(true)
	cuckooHas(false)
}
