package blocked

import "github.com/simdbloom/bloom/internal/cpu"

// level is the kernel level the batch operations use: cpu.Active, chosen
// once at start-up. Tests lower it to compare every kernel with the generic one.
var level = cpu.Active

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
