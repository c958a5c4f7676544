package cputime

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time the calling thread has used, in
// nanoseconds (CLOCK_THREAD_CPUTIME_ID), and true.
func threadCPU() (int64, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano(), errno == 0
}
