package main

// cuckooAVX2 emits package cuckoo's kernels_avx2_amd64.s: the AVX2 batch
// lookups of both layouts.
func cuckooAVX2() {
	cuckooHas2(true)
	cuckooHas2(false)
}
