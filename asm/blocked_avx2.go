package main

// blockedAVX2 emits package blocked's kernels_avx2_amd64.s: the kernels of
// the AVX2 level, which need AVX2 (and POPCNT for the ring lookups) but no
// AVX-512.
func blockedAVX2() {
	tables = newFilterTables(false)
	for _, k := range []int{8, 16} {
		filterHas(k, tables)
		filterHasRing(k, tables)
		filterAdd(avx2, k, tables)
		filterAddRing(k, tables)
	}
	salts, ones := newSplitTables()
	splitHas(salts, ones)
	splitHasRing(salts, ones)
	splitAdd(salts, ones)
	splitAddRing(salts, ones)
	fifteens := fifteensTable()
	countingHasAVX2(fifteens)
	countingHasRing(fifteens)
	filterOneVec(avx2, "filterHasOne", " bool", "reports whether every bit of h is set in", filterHasVecBody)
	filterOneVec(avx2, "filterAddOne", "", "sets the bits of h in", filterAddVecBody)
	splitHasOneAVX2()
	splitAddOneAVX2()
}
