// Package alloc allocates the bit arrays of this module's filters: zeroed,
// 64-byte aligned, and, when large, laid out so that the processor can map
// them with huge pages.
//
// A lookup in a filter larger than the caches touches one random cache line,
// and with 4 KiB pages most of those lines also miss the TLB: a filter of
// HugeFrom bytes or more starts at a 2 MiB boundary and, on Linux, is
// advised for transparent huge pages (madvise MADV_HUGEPAGE), which the
// kernel grants in its default "madvise" mode. The cost is up to 2 MiB of
// address space before the array, which nothing touches. See PERF.md
// ("Huge pages") for what it is worth.
package alloc

import "unsafe"

const (
	// HugeFrom is the size in bytes from which an array is aligned for
	// huge pages.
	HugeFrom = 8 << 20
	// hugePage is the size of a huge page on the platforms that have them
	// (2 MiB on amd64 and arm64 Linux with 4 KiB base pages).
	hugePage = 2 << 20
	// lineBytes is the alignment of every array: one cache line.
	lineBytes = 64
)

// Align returns the alignment of an array of n bytes from Words or Bytes:
// 2 MiB (a huge page) from HugeFrom bytes where huge pages are advised,
// else 64 bytes.
func Align(n uint64) uint64 {
	if n >= HugeFrom && hugePages {
		return hugePage
	}
	return lineBytes
}

// Footprint returns the bytes that Words(n/8) allocates for an array of n
// bytes: n and the slack that aligns it. Callers check it against the
// memory limits before they allocate.
func Footprint(n uint64) uint64 { return n + Align(n) - 8 }

// Words returns n zeroed words starting at a 64-byte boundary, or at a
// 2 MiB boundary advised for huge pages when 8n >= HugeFrom (on Linux).
func Words(n uint64) []uint64 {
	if n == 0 {
		return nil
	}
	a := Align(n * 8)
	raw := make([]uint64, (n*8+a-8)/8)
	off := (a - uint64(uintptr(unsafe.Pointer(&raw[0])))%a) % a / 8
	w := raw[off : off+n : off+n]
	if a == hugePage {
		adviseHuge(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), n*8))
	}
	return w
}

// Bytes returns n zeroed bytes aligned as Words aligns them.
func Bytes(n uint64) []byte {
	w := Words((n + 7) / 8)
	if w == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), n)
}
