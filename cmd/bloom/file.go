package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"unsafe"

	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
	"github.com/simdbloom/bloom/internal/memlimit"
)

// loadFilter returns the bytes of the filter file name: memory-mapped
// where the platform can (no copy: a filter of any size is used in place),
// read into memory otherwise (readFilter: a device, a pipe, a FIFO, or a
// file this process cannot map), never more than one filter's bytes.
// release unmaps or drops them. The bytes are not checked beyond what
// reading them needs: the caller parses and checks them.
func loadFilter(name string) (b []byte, mapped bool, release func(), err error) {
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
	b, err = readFilter(f, name, st)
	if err != nil {
		return nil, false, nil, err
	}
	return b, false, func() {}, nil
}

// readFilter reads the filter encoding that f, the file name, holds: its
// header first, then exactly the size the header announces, once that size
// is checked against the memory this process may use (internal/memlimit),
// then one byte more, which must not be there. It never reads more than one
// filter: bytes that do not start with a valid header are returned as they
// are (at most a header's worth), for the caller's parse to say what is
// wrong, and an encoding cut short is returned as far as it goes, for the
// caller's checks to call it truncated. Errors name the file.
func readFilter(f *os.File, name string, st os.FileInfo) ([]byte, error) {
	var hb [format.HeaderSize]byte
	n, err := io.ReadFull(f, hb[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, badFile(readError(name, err))
	}
	h, err := format.Parse(hb[:n], 0)
	if err != nil {
		return hb[:n], nil
	}
	bad := func(err error) error { return badFile(fmt.Errorf("%s: %w", name, err)) }
	size := h.Size() // it fits an int: format.Parse checks that it fits this platform's memory
	if st.Mode().IsRegular() {
		// The file's length says what reading it would find.
		switch fs := uint64(st.Size()); {
		case fs < size:
			return nil, bad(fmt.Errorf("%w: %d bytes, the header announces %d", errs.ErrTruncated, fs, size))
		case fs > size:
			return nil, bad(fmt.Errorf("%w: %d bytes after the %d-byte encoding", errs.ErrCorrupt, fs-size, size))
		}
	}
	if err := memlimit.Check(size, func() string {
		return "its bytes, read into memory as the file cannot be mapped,"
	}); err != nil {
		return nil, bad(err)
	}
	b := make([]byte, size)
	copy(b, hb[:])
	n, err = io.ReadFull(f, b[format.HeaderSize:])
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return b[:format.HeaderSize+n], nil
	}
	if err != nil {
		return nil, badFile(readError(name, err))
	}
	var more [1]byte
	if n, _ := io.ReadFull(f, more[:]); n > 0 {
		return nil, bad(fmt.Errorf("%w: more bytes after the %d-byte encoding", errs.ErrCorrupt, size))
	}
	return b, nil
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
