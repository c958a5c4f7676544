//go:build !purego

package bloom

import (
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/cpu"
)

// TestHashStrMixGuardPages: no lane of the mixed-length kernel reads outside
// its key, whatever the lengths of the other lanes of its group (each of
// which decides which rounds and formulas the group computes). Keys of every
// length 0..300 end exactly at the end of a page followed by an
// inaccessible one, or start exactly at the start of a page after one, in
// every lane, beside lanes of every length class; a read past either edge
// faults and fails the test.
func TestHashStrMixGuardPages(t *testing.T) {
	if cpu.Features&(cpu.FeatureAVX|cpu.FeatureAVX2) != cpu.FeatureAVX|cpu.FeatureAVX2 {
		t.Skip("no AVX2")
	}
	mid := guardedPage(t)
	page := len(mid)
	atEnd := func(n int) string { return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(&mid[0]), page-n)), n) }
	atStart := func(n int) string { return unsafe.String(&mid[0], n) }
	others := []int{0, 3, 4, 8, 9, 16, 17, 32, 33, 64, 65, 96, 97, 128, 129, 300}
	for n := 0; n <= 300; n++ {
		for pos := range 4 {
			for _, o := range others {
				keys := make([]string, 4)
				for j := range keys {
					if j%2 == 0 {
						keys[j] = atStart(o)
					} else {
						keys[j] = atEnd(o)
					}
				}
				for _, k := range []string{atEnd(n), atStart(n)} {
					keys[pos] = k
					checkMix(t, keys)
				}
			}
		}
	}
}
