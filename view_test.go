package bloom

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

// unalignedAt returns a copy of b starting off bytes past a 64-byte boundary.
func unalignedAt(b []byte, off int) []byte {
	return aligned(append(make([]byte, off), b...))[off:]
}

// TestFilterViewReset checks that a typed view made by Reset, at any
// payload offset, and Lookup answer as the filter does, for string, []byte
// and integer keys, and that Reset refuses another key hash leaving the
// zero view.
func TestFilterViewReset(t *testing.T) {
	skipBigEndian(t)
	keys := make([]string, 500)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	f, err := New[string](uint64(len(keys)), 0.01)
	if err != nil {
		t.Fatal(err)
	}
	f.AddAll(keys)
	good, _ := f.MarshalBinary()
	probe := make([]string, 3000)
	for i := range probe {
		probe[i] = fmt.Sprintf("key-%d", i)
	}
	want := make([]bool, len(probe))
	f.HasAll(probe, want)
	for off := range 9 {
		b := unalignedAt(good, off)
		var v FilterView[string]
		if err := v.Reset(b); err != nil {
			t.Fatalf("offset %d: %v", off, err)
		}
		got := make([]bool, len(probe))
		v.HasAll(probe, got)
		for i, k := range probe {
			l, err := Lookup(b, k)
			if err != nil || v.Has(k) != want[i] || got[i] != want[i] || l != want[i] {
				t.Fatalf("offset %d, key %q: Has %v, HasAll %v, Lookup %v (%v); the filter says %v", off, k, v.Has(k), got[i], l, err, want[i])
			}
		}
		var vb FilterView[[]byte]
		if err := vb.Reset(b); err != nil {
			t.Fatal(err)
		}
		for i, k := range probe {
			if vb.Has([]byte(k)) != want[i] {
				t.Fatalf("[]byte view differs at %q", k)
			}
		}
	}
	g, _ := New[uint64](1000, 0.01)
	for i := range uint64(1000) {
		g.Add(i * 7)
	}
	gb, _ := g.MarshalBinary()
	var vu FilterView[uint64]
	if err := vu.Reset(unalignedAt(gb, 5)); err != nil {
		t.Fatal(err)
	}
	for i := range uint64(1000) {
		if !vu.Has(i * 7) {
			t.Fatalf("uint64 view: false negative for %d", i*7)
		}
	}
	// Another key hash is refused and leaves the zero view.
	raw, _ := blocked.NewBytes(64*4, 8)
	rb, _ := raw.MarshalBinary()
	var v FilterView[string]
	_ = v.Reset(good)
	if err := v.Reset(rb); !errors.Is(err, ErrHashMismatch) {
		t.Fatalf("Reset of a raw-hash filter: %v, want ErrHashMismatch", err)
	}
	if v.Has(keys[0]) || v.HasAll(keys, make([]bool, len(keys))) != 0 {
		t.Fatal("a refused Reset leaves a usable view")
	}
	if _, err := Lookup(rb, "x"); !errors.Is(err, ErrHashMismatch) {
		t.Fatalf("Lookup of a raw-hash filter: %v", err)
	}
}

// TestFilterViewResetAllocs checks that Reset, Has, HasAll and Lookup on
// typed views allocate nothing.
func TestFilterViewResetAllocs(t *testing.T) {
	skipBigEndian(t)
	f, _ := New[[]byte](1000, 0.01)
	keys := make([][]byte, 256)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "k%d", i)
	}
	f.AddAll(keys)
	off := 3
	switch runtime.GOARCH {
	case "amd64", "arm64", "386", "ppc64le", "wasm":
	default:
		off = 0 // elsewhere an unaligned view copies its payload
	}
	b := unalignedAt(func() []byte { b, _ := f.MarshalBinary(); return b }(), off)
	out := make([]bool, len(keys))
	var v FilterView[[]byte]
	n := testing.AllocsPerRun(100, func() {
		if err := v.Reset(b); err != nil {
			t.Fatal(err)
		}
		if !v.Has(keys[3]) || v.HasAll(keys, out) != len(keys) {
			t.Fatal("false negative")
		}
		if ok, err := Lookup(b, keys[9]); !ok || err != nil {
			t.Fatal("Lookup", ok, err)
		}
	})
	if n != 0 {
		t.Fatalf("typed Reset and lookups allocate %v times", n)
	}
	g, _ := New[uint64](1000, 0.01)
	g.Add(77)
	gb, _ := g.MarshalBinary()
	var vu FilterView[uint64]
	if n := testing.AllocsPerRun(100, func() { _ = vu.Reset(gb); _ = vu.Has(77) }); n != 0 {
		t.Fatalf("uint64 Reset and Has allocate %v times", n)
	}
}

// skipBigEndian skips a test of views on a big-endian machine, where
// views return ErrByteOrder.
func skipBigEndian(t *testing.T) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("views need a little-endian machine")
	}
}

func TestCountingView(t *testing.T) {
	c, err := NewCounting[string](2000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 4000)
	for i := range keys {
		keys[i] = fmt.Sprint("k", i)
	}
	c.AddAll(keys[:2000])
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	v, err := newCountingView[string](b)
	if errors.Is(err, ErrByteOrder) {
		t.Skip("views need a little-endian machine")
	}
	if err != nil {
		t.Fatal(err)
	}
	out := make([]bool, len(keys))
	want := make([]bool, len(keys))
	if v.HasAll(keys, out) != c.HasAll(keys, want) {
		t.Fatal("HasAll counts differ")
	}
	for i, k := range keys {
		if out[i] != want[i] || v.Has(k) != want[i] {
			t.Fatalf("key %d: view %v/%v, filter %v", i, out[i], v.Has(k), want[i])
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = v.Reset(b); _ = v.Has(keys[1]) }); n != 0 {
		t.Fatalf("Reset + Has allocates %v times", n)
	}
	// Bad bytes: an error, and the zero view after.
	if err := v.Reset(b[:len(b)-1]); err == nil || v.Has(keys[0]) || v.HasAll(keys, out) != 0 {
		t.Fatalf("a truncated encoding: %v", err)
	}
	ci, _ := NewCounting[int](10, 0.01)
	bi, _ := ci.MarshalBinary()
	if _, err := newCountingView[string](bi); !errors.Is(err, ErrHashMismatch) {
		t.Fatalf("an integer Counting viewed as strings: %v", err)
	}
	f := mustNew[string](t, 10, 0.01)
	bf, _ := f.MarshalBinary()
	if _, err := newCountingView[string](bf); err == nil {
		t.Fatal("a Filter's encoding viewed as a Counting")
	}
	var z CountingView[string]
	if z.Has("k") || z.HasAll(keys, out) != 0 {
		t.Fatal("the zero CountingView")
	}
}

// newView returns a new FilterView[K] Reset to b, or nil and Reset's error.
func newView[K Key](b []byte) (*FilterView[K], error) {
	v := new(FilterView[K])
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}

// newCountingView returns a new CountingView[K] Reset to b, or nil and
// Reset's error.
func newCountingView[K Key](b []byte) (*CountingView[K], error) {
	v := new(CountingView[K])
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}
