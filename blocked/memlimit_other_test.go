//go:build !linux

package blocked

import "testing"

// setAddressSpace is not available here: no address-space limit is tried.
func setAddressSpace(t *testing.T, extra uint64) bool { return false }
