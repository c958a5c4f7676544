package childtest

import (
	"runtime"
	"syscall"
)

// sigill kills this process with SIGILL, which the Go runtime does not
// recover from. The signal goes to this thread (tgkill), not to the
// process: under QEMU's user mode a process-directed SIGILL may reach
// another guest thread, where it has hung the child or crashed the
// emulator; a thread-directed one arrives as the syscall returns.
func sigill() {
	runtime.LockOSThread()
	syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), syscall.SIGILL)
	select {} // in case the signal is late
}
