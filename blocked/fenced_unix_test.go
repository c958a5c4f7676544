//go:build linux || darwin

package blocked

import (
	"syscall"
	"testing"
	"unsafe"
)

// fenced returns size bytes of fresh memory that start right after an
// unmapped page (atEnd false) or end right before one (atEnd true),
// released at the end of the test.
func fenced(t *testing.T, size int, atEnd bool) unsafe.Pointer {
	t.Helper()
	page := syscall.Getpagesize()
	span := (size + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, span+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(mem[page+span:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	off := page
	if atEnd {
		off = page + span - size
	}
	return unsafe.Pointer(&mem[off])
}
