//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"
	"syscall"
)

// mapFile maps the regular file f of size bytes read-only into memory and
// returns its bytes and a function that unmaps them. ok is false when the
// file cannot be mapped (empty, not a regular file, too large for this
// platform): the caller reads it instead.
func mapFile(f *os.File, size int64) (b []byte, unmap func() error, ok bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, nil, false
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, false
	}
	return b, func() error { return syscall.Munmap(b) }, true
}
