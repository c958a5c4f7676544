// Package hugetest checks, in tests, that an array is laid out for huge
// pages as package alloc lays out the arrays of alloc.HugeFrom bytes or
// more: at the alignment alloc.Align gives, and, on Linux, in a mapping
// advised for transparent huge pages.
package hugetest

import (
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"
)

// Check fails t unless p, the start of the n bytes (n >= alloc.HugeFrom)
// of memory that what names, is aligned as alloc.Words aligns such an array (2 MiB where
// huge pages are advised) and, where the advice can be seen (Linux with
// transparent huge pages, not an emulator that drops madvise), lies in a
// mapping advised for huge pages. Whether the kernel then grants them
// depends on its free memory, so that is not checked.
func Check(t testing.TB, what string, p unsafe.Pointer, n uint64) {
	t.Helper()
	if n < alloc.HugeFrom {
		t.Fatalf("%s: %d bytes, below alloc.HugeFrom: nothing to check", what, n)
	}
	if a := uintptr(alloc.Align(n)); uintptr(p)%a != 0 {
		t.Errorf("%s: %d bytes at %#x, not at a multiple of %d as alloc.Words places them", what, n, p, a)
		return
	}
	if advised, why := adviceShows(uintptr(p)); why != "" {
		t.Logf("%s: huge-page advice not checked: %s", what, why)
	} else if !advised {
		t.Errorf("%s: %d bytes at %#x: mapping not advised for huge pages", what, n, p)
	}
}
