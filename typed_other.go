//go:build purego || !amd64

package bloom

// Without the amd64 assembly the typed kernels are the Go functions of
// typed.go, called directly.

func hasTyped(f *[2]uint64, p *uint64) bool { return hasSlow(f, p) }
func addTyped(f *[2]uint64, p *uint64)      { addSlow(f, p) }
