package alloc

import "syscall"

// hugePages is true where adviseHuge asks for huge pages.
const hugePages = true

// adviseHuge asks the kernel to back the whole huge pages at the start of b,
// which is 2 MiB aligned, with huge pages. It leaves the rest (less than
// 2 MiB) alone, so that the advice never reaches memory beyond b, which
// the runtime may have given to other objects. Memory the runtime reused
// is already mapped with small pages and zeroed: MADV_DONTNEED drops those
// pages, so that the next touch faults in huge ones, zeroed, as the array
// must be. Errors are ignored: the advice only changes speed (a kernel
// without transparent huge pages refuses it).
//
// The advice outlives the array: once the array is garbage, the runtime
// reuses or releases its memory with the flag still set, as all of the
// heap is on a kernel whose mode is "always". It is not withdrawn (in a
// cleanup) because the runtime may by then have given the memory to a new
// array that wants it, and each withdrawal would split the heap's mapping.
func adviseHuge(b []byte) {
	b = b[:len(b)/hugePage*hugePage]
	if len(b) == 0 {
		return
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
}
