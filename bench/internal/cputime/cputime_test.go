package cputime

import (
	"runtime"
	"testing"
)

// TestThreadCPU checks that the thread's CPU time grows with work done on
// it.
func TestThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := threadCPU()
	if !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	x := uint64(1)
	for i := 0; i < 20_000_000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	mid, _ := threadCPU()
	if mid <= start {
		t.Fatalf("20M multiplies used no CPU time (%d -> %d ns, x=%d)", start, mid, x)
	}
}
