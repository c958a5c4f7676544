package cuckoo

import "fmt"

// HasHashes sets out[i] to HasHash(hs[i]) for every i and returns how many
// are true. It panics if out is shorter than hs, before touching anything.
func (f *Filter) HasHashes(hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic(fmt.Sprintf("cuckoo: HasHashes: out has %d elements, shorter than %d hashes", len(out), len(hs)))
	}
	return f.hasHashes(hs, out[:len(hs)])
}

// AddHashes adds the hashes in order, as a loop of AddHash, until one does
// not fit: it returns how many were added and, if one did not fit, an error
// wrapping bloom.ErrFull. The hashes before the failed one stay added; the
// failed one changes nothing and the ones after it are not tried. It panics
// on the zero Filter.
func (f *Filter) AddHashes(hs []uint64) (int, error) {
	if f.zero() {
		panic("cuckoo: AddHashes" + zeroFilter)
	}
	for i, h := range hs {
		if err := f.AddHash(h); err != nil {
			return i, err
		}
	}
	return len(hs), nil
}

// RemoveHashes calls RemoveHash for every hash of hs, in order, and returns
// how many were removed (the others were not found when their turn came).
// Remove only hashes that were added, as for RemoveHash. It panics on the
// zero Filter.
func (f *Filter) RemoveHashes(hs []uint64) int {
	if f.zero() {
		panic("cuckoo: RemoveHashes" + zeroFilter)
	}
	removed := 0
	for _, h := range hs {
		if f.RemoveHash(h) {
			removed++
		}
	}
	return removed
}
