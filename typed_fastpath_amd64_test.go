//go:build !purego

package bloom

import (
	"fmt"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// fastPathCase checks that Has and Add of Filter[K] never leave the typed
// kernels for the Go functions of typed.go for keys, and that they do for
// the zero Filter (so that the count can see a fall-back).
func fastPathCase[K Key](t *testing.T, name string, keys []K) {
	t.Helper()
	f := mustNew[K](t, 1000, 0.01)
	slow := 0
	typedSlowHook = func() { slow++ }
	defer func() { typedSlowHook = nil }()
	for _, k := range keys {
		f.Add(k)
		if !f.Has(k) {
			t.Fatalf("%s: Has(%v) after Add is false", name, k)
		}
	}
	if slow != 0 {
		t.Errorf("%s: %d of %d Add and Has calls left the typed kernels for the Go code", name, slow, 2*len(keys))
	}
	var zero Filter[K]
	if before := slow; zero.Has(keys[0]) || slow != before+1 {
		t.Errorf("%s: the zero Filter's Has reached the Go code %d times, want 1", name, slow-before)
	}
}

type myInt16 int16

// TestTypedFastPath checks, at every level the processor has, that the
// typed kernels hash and probe every key type themselves: that they read a
// kind they know from the Filter[K] (a kernel reading the wrong field would
// fall back to the Go code and pass every other test) and keys of up to
// 240 bytes. Longer strings go to the Go code, as the kernels' doc says.
func TestTypedFastPath(t *testing.T) {
	for _, l := range cpu.Usable() {
		withLevel(l, func() {
			at := func(s string) string { return fmt.Sprintf("%v/%s", l, s) }
			fastPathCase(t, at("int"), []int{-1, 0, 1, 1 << 40})
			fastPathCase(t, at("int8"), []int8{-128, 0, 127})
			fastPathCase(t, at("int16"), []int16{-300, 0, 300})
			fastPathCase(t, at("myInt16"), []myInt16{-300, 0, 300})
			fastPathCase(t, at("int32"), []int32{-1 << 30, 0, 1 << 30})
			fastPathCase(t, at("int64"), []int64{-1 << 60, 0, 1 << 60})
			fastPathCase(t, at("uint"), []uint{0, 1, 1 << 50})
			fastPathCase(t, at("uint8"), []uint8{0, 255})
			fastPathCase(t, at("uint16"), []uint16{0, 65535})
			fastPathCase(t, at("uint32"), []uint32{0, 1 << 31})
			fastPathCase(t, at("uint64"), []uint64{0, 1 << 63})
			fastPathCase(t, at("uintptr"), []uintptr{0, 1 << 20})
			var strs []string
			for _, n := range []int{0, 1, 3, 4, 8, 9, 16, 17, 64, 128, 129, 240} {
				strs = append(strs, strings.Repeat("x", n))
			}
			fastPathCase(t, at("string"), strs)
			fastPathCase(t, at("myString"), []myString{"", "a", "abcdefgh", myString(strings.Repeat("y", 200))})
			var bs [][]byte
			for _, s := range strs {
				bs = append(bs, []byte(s))
			}
			fastPathCase(t, at("bytes"), bs)

			f := mustNew[string](t, 1000, 0.01)
			slow := 0
			typedSlowHook = func() { slow++ }
			f.Add(strings.Repeat("z", 241))
			f.Has(strings.Repeat("z", 241))
			typedSlowHook = nil
			if slow != 2 {
				t.Errorf("%v: a 241-byte key reached the Go code %d times in Add and Has, want 2", l, slow)
			}
		})
	}
}
