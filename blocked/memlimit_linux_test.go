package blocked

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// setAddressSpace sets this process's RLIMIT_AS soft limit to extra bytes
// above what it maps now, and reports whether it could; call it in a child
// process only (childtest.Run), since it is never undone.
func setAddressSpace(t *testing.T, extra uint64) bool {
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
	// QEMU's user-mode emulation accepts RLIMIT_AS without applying it
	// (it would limit the emulator itself) and reports the host's limit.
	var got syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &got); err != nil || got.Cur != lim.Cur {
		t.Logf("RLIMIT_AS set to %d reads back as %d (%v): not in effect here (an emulator?)", lim.Cur, got.Cur, err)
		return false
	}
	return true
}
