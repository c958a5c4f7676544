//go:build !linux

package alloc

// hugePages is false: only Linux is advised (see advise_linux.go), so
// arrays elsewhere need no more than cache-line alignment.
const hugePages = false

func adviseHuge([]byte) {}
