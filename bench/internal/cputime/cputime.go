// Package cputime reports, beside a benchmark's wall-clock time, the CPU
// time of the benchmark's own thread per key: on shared, busy cores the
// wall clock also counts the time the thread waited for a core, while the
// thread's CPU time counts only what it ran. It is imported only by the
// bench module's benchmarks (internal/benchkit and the peer comparisons).
package cputime

import (
	"runtime"
	"testing"
)

// PerKey runs loop, b's timed loop over b.N keys, on one locked OS thread
// and reports that thread's CPU time per key as the metric cpu-ns/key (on
// Linux; elsewhere it reports nothing extra). It resets b's timer first.
func PerKey(b *testing.B, loop func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start, ok := threadCPU()
	loop()
	end, _ := threadCPU()
	if ok {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/key")
	}
}
