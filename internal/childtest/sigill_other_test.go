//go:build unix && !linux

package childtest

import (
	"os"
	"syscall"
)

// sigill kills this process with SIGILL, which the Go runtime does not
// recover from.
func sigill() {
	syscall.Kill(os.Getpid(), syscall.SIGILL)
	select {} // the signal arrives asynchronously
}
