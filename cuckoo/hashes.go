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
