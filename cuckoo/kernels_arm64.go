//go:build !purego

package cuckoo

// The Go declarations of the hand-written NEON batch lookups in
// kernels_arm64.s (avo cannot target arm64). dispatch_arm64.go chooses among
// them and checks every length first.

// cuckooHasSemiNEON sets out[i] to whether either bucket of hs[i] holds its
// fingerprint, in a semi-sorted table of fingerprints of at most 16 bits
// whose slots fit 2-byte windows (neonParams), and returns how many do. It
// requires len(out) == len(hs), a table with 8 readable bytes past its last
// bucket, params as neonParams makes it and tab = &nibbleBytes.
//
//go:noescape
func cuckooHasSemiNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int

// cuckooHasSemiWideNEON is cuckooHasSemiNEON for the widths whose slots need
// 4-byte windows.
//
//go:noescape
func cuckooHasSemiWideNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int

// cuckooHasPlainNEON is cuckooHasSemiNEON for a plain table (tab is not
// read).
//
//go:noescape
func cuckooHasPlainNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int

// cuckooHasPlainWideNEON is cuckooHasPlainNEON for the widths whose slots
// need 4-byte windows.
//
//go:noescape
func cuckooHasPlainWideNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int
