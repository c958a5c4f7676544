package childtest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// LimitAddressSpace sets the address-space limit (RLIMIT_AS, as ulimit -v
// sets it) of the child process Run started for t to extra bytes above what
// the child maps now, and reports whether the limit is in effect. It is
// never undone, so it sets nothing (and returns false) outside such a child,
// under the race detector (whose shadow memory does not fit under a limit),
// where the hard limit is lower, and under an emulator that accepts the
// limit without applying it (QEMU's user mode, which reads back the host's
// limit). t.Log says why.
func LimitAddressSpace(t *testing.T, extra uint64) bool {
	t.Helper()
	if os.Getenv(envName) != t.Name() {
		t.Log("not in a child process of childtest.Run: no address-space limit set")
		return false
	}
	if raceEnabled {
		t.Log("the race detector's shadow memory does not fit under an address-space limit: not tried")
		return false
	}
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Log(err)
		return false
	}
	pages, err := strconv.ParseUint(strings.Fields(string(b))[0], 10, 64)
	if err != nil {
		t.Log(err)
		return false
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Log(err)
		return false
	}
	lim.Cur = pages*uint64(os.Getpagesize()) + extra
	if lim.Cur > lim.Max {
		t.Log("the hard address-space limit is lower")
		return false
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Log(err)
		return false
	}
	var got syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &got); err != nil || got.Cur != lim.Cur {
		t.Logf("RLIMIT_AS set to %d reads back as %d (%v): not in effect here (an emulator?)", lim.Cur, got.Cur, err)
		return false
	}
	return true
}
