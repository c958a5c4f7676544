//go:build purego || !amd64

package blocked

// Without the amd64 assembly, AddHash and HasHash always run their pure-Go
// bodies: oneKeyAsm is false, so the calls below are compiled out. They
// exist only so that filter.go and splitblock.go compile everywhere.

const oneKeyAsm = false

func filterHasOne(*[4]uint64, uint64) bool { panic("blocked: no one-key assembly") }
func filterAddOne(*[4]uint64, uint64)      { panic("blocked: no one-key assembly") }
func splitHasOne(*[3]uint64, uint64) bool  { panic("blocked: no one-key assembly") }
func splitAddOne(*[3]uint64, uint64)       { panic("blocked: no one-key assembly") }
