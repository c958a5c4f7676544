//go:build !linux

package bloom

import "testing"

// cpuTimed runs loop, b's timed loop; only Linux adds cpu-ns/op.
func cpuTimed(b *testing.B, loop func()) {
	b.ResetTimer()
	loop()
}
