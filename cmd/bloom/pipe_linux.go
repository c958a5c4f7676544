package main

import (
	"io"
	"os"
	"syscall"
)

// pipeBytes is the capacity asked of a pipe that bloom reads: a read then
// brings up to this much, not the 64 KiB of a pipe by default, and the
// lines of a fast writer come in fewer, larger batches.
const pipeBytes = 1 << 20

// growPipe asks the kernel for a larger buffer when r is a pipe (fcntl
// F_SETPIPE_SZ). It changes nothing else: it fails quietly where the
// limits (/proc/sys/fs/pipe-max-size, the user's pipe pages) refuse it.
func growPipe(r io.Reader) {
	f, ok := r.(*os.File)
	if !ok {
		return
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	if c, err := f.SyscallConn(); err == nil {
		c.Control(func(fd uintptr) {
			const fSetPipeSize = 1031 // F_SETPIPE_SZ, linux/fcntl.h
			syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, pipeBytes)
		})
	}
}
