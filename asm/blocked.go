package main

// blockedBase emits package blocked's kernels_amd64.s: the one-key entry
// points, each of which jumps to the version of cpu.Active's level
// (kernels_avx2_amd64.s, kernels_avx512_amd64.s) or runs its scalar version,
// which every amd64 processor has.
func blockedBase() {
	filterOneEntry("filterHasOne", " bool", "reports whether every bit of h is set in", filterHasScalarBody)
	filterOneEntry("filterAddOne", "", "sets the bits of h in", filterAddScalarBody)
	splitHasOneEntry()
	splitAddOneEntry()
}
