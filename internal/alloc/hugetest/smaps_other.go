//go:build !linux

package hugetest

// adviceShows cannot read a mapping's advice here: only Linux is advised
// (see internal/alloc).
func adviceShows(uintptr) (advised bool, why string) {
	return false, "only Linux is advised for huge pages"
}
