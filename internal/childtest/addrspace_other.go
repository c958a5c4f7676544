//go:build !linux

package childtest

import "testing"

// LimitAddressSpace sets no limit here (only Linux is tried) and returns
// false; see addrspace_linux.go.
func LimitAddressSpace(t *testing.T, extra uint64) bool {
	t.Log("no address-space limit is tried on this platform")
	return false
}
