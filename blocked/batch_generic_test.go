package blocked

import (
	"fmt"
	"testing"
)

// genericCase is one filter under the pure-Go batch loops, with its one-key
// reference.
type genericCase struct {
	name     string
	addBatch func(hs []uint64)
	hasBatch func(hs []uint64, out []bool) int
	addOne   func(h uint64)
	hasOne   func(h uint64) bool
	equal    func() bool // the batch-built and the one-key-built filters hold the same bits
}

func genericCases(nb uint64) []genericCase {
	var cs []genericCase
	for _, k := range []int{8, 16} {
		f, ref := newFilter(nb, k), newFilter(nb, k)
		cs = append(cs, genericCase{
			name:     fmt.Sprintf("Filter k=%d blocks=%d", k, nb),
			addBatch: func(hs []uint64) { addHashesGeneric(f, hs) },
			hasBatch: func(hs []uint64, out []bool) int { return hasHashesGeneric(f, hs, out) },
			addOne:   ref.addHashGo,
			hasOne:   ref.hasHashGo,
			equal:    func() bool { return f.Equal(ref) },
		})
	}
	s, sref := newSplitBlock(nb), newSplitBlock(nb)
	cs = append(cs, genericCase{
		name:     fmt.Sprintf("SplitBlock blocks=%d", nb),
		addBatch: func(hs []uint64) { splitAddHashesGeneric(s, hs) },
		hasBatch: func(hs []uint64, out []bool) int { return splitHasHashesGeneric(s, hs, out) },
		addOne:   sref.addHashGo,
		hasOne:   sref.hasHashGo,
		equal:    func() bool { return s.Equal(sref) },
	})
	return cs
}

// TestGenericBatchEqualsOneKey checks the pure-Go batch loops against the
// one-key reference, with and without the touching of lines ahead (forced
// on for small filters by lowering prefetchFrom), for batches shorter than,
// equal to and longer than a touch group, on random hashes and on hashes
// that all land in the first or the last block.
func TestGenericBatchEqualsOneKey(t *testing.T) {
	saved := prefetchFrom
	defer func() { prefetchFrom = saved }()
	edge := func(n int, hi uint64) []uint64 {
		hs := randomHashes(n, hi)
		for i := range hs {
			hs[i] = hi<<32 | hs[i]&0xffffffff
		}
		return hs
	}
	for _, from := range []uint64{saved, 0} {
		prefetchFrom = from
		for _, nb := range []uint64{1, 3, 1000} {
			for _, c := range genericCases(nb) {
				name := fmt.Sprintf("%s prefetchFrom=%d", c.name, from)
				for _, n := range []int{1, touchGroup - 1, touchGroup, touchGroup + 1, 3*touchGroup + 5, 1000} {
					for _, hs := range [][]uint64{randomHashes(n, uint64(n)), edge(n, 0), edge(n, 0xffffffff)} {
						c.addBatch(hs)
						for _, h := range hs {
							c.addOne(h)
						}
						if !c.equal() {
							t.Fatalf("%s: batch of %d adds differs from one-key adds", name, n)
						}
						probe := append(hs[:n/2:n/2], randomHashes(n, uint64(n)+7)...)
						out := make([]bool, len(probe))
						got, want := c.hasBatch(probe, out), 0
						for i, h := range probe {
							w := c.hasOne(h)
							if out[i] != w {
								t.Fatalf("%s: batch lookup [%d] of %d = %v, one-key %v", name, i, len(probe), out[i], w)
							}
							if w {
								want++
							}
						}
						if got != want {
							t.Fatalf("%s: batch lookup of %d counted %d, one-key %d", name, len(probe), got, want)
						}
					}
				}
			}
		}
	}
}
