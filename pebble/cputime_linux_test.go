package sbpebble

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// cpuTimed runs loop, b's timed loop, on one locked OS thread and reports
// that thread's CPU time per op as cpu-ns/op beside the wall clock: on
// shared busy cores the wall clock also counts the time spent waiting for
// a core. It resets b's timer first.
func cpuTimed(b *testing.B, loop func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	t0, ok := threadNanos()
	loop()
	t1, _ := threadNanos()
	if ok {
		b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
	}
}

// threadNanos returns the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
func threadNanos() (int64, bool) {
	var ts syscall.Timespec
	_, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano(), e == 0
}
