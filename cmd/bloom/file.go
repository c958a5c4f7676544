package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"unsafe"
)

// loadFile returns the bytes of the file name: memory-mapped where the
// platform can (no copy: a filter of any size is used in place), read into
// memory otherwise. release unmaps or drops them.
func loadFile(name string) (b []byte, mapped bool, release func(), err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, false, nil, badFile(fileError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, nil, badFile(fileError(err))
	}
	if st.IsDir() {
		return nil, false, nil, badFile(fmt.Errorf("%s is a directory", name))
	}
	if st.Mode().IsRegular() {
		if b, unmap, ok := mapFile(f, st.Size()); ok {
			return b, true, func() { unmap() }, nil
		}
	}
	b, err = io.ReadAll(f)
	if err != nil {
		return nil, false, nil, badFile(readError(name, err))
	}
	return b, false, func() {}, nil
}

// shorterThan reports whether the file name now holds fewer than n bytes.
func shorterThan(name string, n int) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Size() < int64(n)
}

// guardMapped calls fn, which reads the bytes b of the file name, and
// returns its error. When b is mapped, a fault in reading it (SIGBUS: the
// file was truncated while mapped, or its disk failed) is the error that
// the file changed while it was read (exit 2), not a crash: the reads
// panic instead of faulting (debug.SetPanicOnFault), and a panic at an
// address inside b is recovered. Any other panic goes on.
func guardMapped(b []byte, mapped bool, name string, fn func() error) (err error) {
	if !mapped || len(b) == 0 {
		return fn()
	}
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		r := recover()
		if r == nil {
			return
		}
		// A runtime error (a memory fault) at an address inside b is the
		// file's. Some kernels and emulators report no fault address or a
		// wrong one (QEMU's user mode: none on x86 and arm64, a garbled
		// one on s390x), and the runtime then reports a nil dereference
		// or a wild address: that too is the file's when the file is now
		// shorter than the mapping.
		var addr uintptr
		if a, ok := r.(interface{ Addr() uintptr }); ok {
			addr = a.Addr()
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		inside := addr >= start && addr-start < uintptr(len(b))
		if _, rt := r.(runtime.Error); rt && (inside || shorterThan(name, len(b))) {
			err = badFile(fmt.Errorf("%s: the file was truncated or changed while it was read", name))
			return
		}
		panic(r)
	}()
	return fn()
}
