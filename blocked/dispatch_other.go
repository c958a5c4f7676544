//go:build purego || !(amd64 || arm64)

package blocked

// Without assembly (the purego tag, or an architecture without kernels)
// every batch operation runs the pure-Go loop of batch_generic.go, and AddHash and
// HasHash their pure-Go bodies: oneKeyAsm is false, so the one-key calls
// below are compiled out. They exist only so that filter.go and
// splitblock.go compile everywhere.

const oneKeyAsm = false

func filterHasOne(*Filter, uint64) bool    { panic("blocked: no one-key assembly") }
func filterAddOne(*Filter, uint64)         { panic("blocked: no one-key assembly") }
func splitHasOne(*SplitBlock, uint64) bool { panic("blocked: no one-key assembly") }
func splitAddOne(*SplitBlock, uint64)      { panic("blocked: no one-key assembly") }

func filterLookupOne([]byte, uint64) (bool, error) { panic("blocked: no one-key assembly") }
func filterLookupKeyed([]byte, uint64, lookupWant) (bool, error) {
	panic("blocked: no one-key assembly")
}

func addHashesArch(f *Filter, hs []uint64) bool                              { return false }
func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool)           { return 0, false }
func splitAddHashesArch(s *SplitBlock, hs []uint64) bool                     { return false }
func splitHasHashesArch(s *SplitBlock, hs []uint64, out []bool) (int, bool)  { return 0, false }
func countingHasHashesArch(c *Counting, hs []uint64, out []bool) (int, bool) { return 0, false }
func countingAddHashesArch(c *Counting, hs []uint64) bool                    { return false }
