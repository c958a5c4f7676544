package bloom

import (
	"math/bits"
	"unsafe"

	"github.com/simdbloom/bloom/blocked"
)

// hasAnyOf sets out[i] to whether hs[i] is in any filter of fs (at least
// one), and returns how many are true: the batch lookup of Scalable's
// stages, and of Window's generations where hasGensAll has no assembly
// (below AVX2). Each filter looks up every hash with its batch kernel, and
// the answers are ORed eight at a time: that measured faster than looking
// up in each filter only the hashes the ones before did not find (PERF.md,
// "Window"). tmp is scratch of len(hs) bools; out is at least as long as
// hs.
func hasAnyOf(fs []*blocked.Filter, hs []uint64, out, tmp []bool) int {
	n := fs[0].HasHashes(hs, out)
	for _, f := range fs[1:] {
		f.HasHashes(hs, tmp)
		n = orBools(out, tmp)
	}
	return n
}

// orBools sets dst[i] = dst[i] || src[i] for every i of src and returns
// how many of dst[:len(src)] are true, eight bools a word (a bool is the
// byte 0 or 1).
func orBools(dst, src []bool) int {
	dst = dst[:len(src)]
	n, i := 0, 0
	for ; i+8 <= len(src); i += 8 {
		d := (*uint64)(unsafe.Pointer(&dst[i]))
		*d |= *(*uint64)(unsafe.Pointer(&src[i]))
		n += bits.OnesCount64(*d)
	}
	for ; i < len(src); i++ {
		dst[i] = dst[i] || src[i]
		n += int(b2i(dst[i]))
	}
	return n
}
