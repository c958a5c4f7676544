package main

import (
	"fmt"
	"math"
	"runtime/debug"
)

// memLimit is a bound on the memory bloom may use, and what sets it.
type memLimit struct {
	bytes uint64
	what  string
}

// tightestMemory returns the smallest of the memory bounds this platform
// tells (physical memory and swap, a cgroup's limit, ulimit -v and -d, and
// GOMEMLIMIT); ok is false when none is known.
func tightestMemory() (m memLimit, ok bool) {
	limits := platformMemory()
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		limits = append(limits, memLimit{uint64(l), "GOMEMLIMIT"})
	}
	for _, l := range limits {
		if l.bytes > 0 && (!ok || l.bytes < m.bytes) {
			m, ok = l, true
		}
	}
	return m, ok
}

// checkMemory returns an error saying that a filter of bytes bytes (what
// describes it) does not fit in memory, or nil when it fits or no bound is
// known. The filter must fit whole: every key sets bits anywhere in it, so
// an allocation beyond memory ends in a runtime out-of-memory crash, or the
// kernel's OOM kill, rather than an error.
func checkMemory(bytes uint64, what string) error {
	m, ok := tightestMemory()
	if !ok || bytes <= m.bytes {
		return nil
	}
	return exitError{1, fmt.Errorf("%s needs %s, more than the %s this process may use (%s)",
		what, humanBytes(bytes), humanBytes(m.bytes), m.what)}
}
