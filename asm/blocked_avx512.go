package main

// blockedAVX512 emits package blocked's kernels_avx512_amd64.s: the kernels
// of the AVX-512 level.
func blockedAVX512() {
	tables = newFilterTables(true)
	for _, k := range []int{8, 16} {
		groupedHas(k, tables)
		groupedHasBitalg(k, tables)
		filterAdd(avx512, k, tables)
	}
	salts, ones := newSplitTables()
	splitHasGrouped(salts, ones)
	countingHasAVX512(fifteensTable())
	filterOneVec(avx512, "filterHasOne", " bool", "reports whether every bit of h is set in", filterHasVecBody)
	filterOneVec(avx512, "filterAddOne", "", "sets the bits of h in", filterAddVecBody)
}
