package blocked

// The architecture hooks choose their kernel with a switch on cpu.Active,
// the level chosen once at start-up; tests set cpu.Active to compare every
// kernel with the generic one.

// addHashes and hasHashes run the batch kernel of the current level. Callers
// have checked the lengths: len(hs) > 0 and len(out) == len(hs). The
// architecture hooks (kernels_<arch>.go) return false when they have no
// kernel for the level or the filter's k; the generic kernel then runs.

func addHashes(f *Filter, hs []uint64) {
	if !addHashesArch(f, hs) {
		addHashesGeneric(f, hs)
	}
}

func hasHashes(f *Filter, hs []uint64, out []bool) int {
	if n, ok := hasHashesArch(f, hs, out); ok {
		return n
	}
	return hasHashesGeneric(f, hs, out)
}
