package bloom

import (
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// TestTypedGuardPages: the typed kernels read no byte outside the key.
// String and byte-slice keys of every length 0..300 end exactly at the end
// of a page followed by an inaccessible one, or start exactly at the start
// of a page preceded by one; a read past either edge faults.
func TestTypedGuardPages(t *testing.T) {
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, _ cpu.Level) {
		mid := guardedPage(t)
		page := len(mid)
		at := func(off int) *byte { return (*byte)(unsafe.Add(unsafe.Pointer(&mid[0]), off)) }
		s, b := newKeyCheck[string](t, 8), newKeyCheck[[]byte](t, 8)
		for n := 0; n <= 300; n++ {
			for _, off := range []int{0, page - n} {
				s.check(t, unsafe.String(at(off), n))
				b.check(t, unsafe.Slice(at(off), n))
			}
		}
	})
}
