package bloom

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// The zero Filter[K] and FilterView[K] of every key kind: lookups answer
// false and read-only methods 0, never a fault (each kernel level runs in a
// child process of its own), mutations panic naming bloom.New, and decoding
// into a zero Filter works.

type (
	namedString string
	namedUint   uint64
)

// zeroKind is one key kind's zero-value checks: lookups and mutations
// (zeroTypedChecks) and decoding (zeroTypedDecode).
type zeroKind struct {
	name           string
	checks, decode func(t *testing.T)
}

func zeroKindOf[K Key](name string, keys []K) zeroKind {
	return zeroKind{name, func(t *testing.T) { zeroTypedChecks(t, keys) }, func(t *testing.T) { zeroTypedDecode(t, keys) }}
}

func TestZeroTypedFilter(t *testing.T) {
	kinds := []zeroKind{
		zeroKindOf("string", []string{"", "a", "a longer key than sixteen bytes"}),
		zeroKindOf("bytes", [][]byte{nil, {}, []byte("abc")}),
		zeroKindOf("int", []int{0, -1, 1 << 30}),
		zeroKindOf("int8", []int8{0, -1, 127}),
		zeroKindOf("int16", []int16{0, -1, 1 << 14}),
		zeroKindOf("int32", []int32{0, -1, 1 << 30}),
		zeroKindOf("int64", []int64{0, -1, 1 << 62}),
		zeroKindOf("uint", []uint{0, 1, ^uint(0)}),
		zeroKindOf("uint8", []uint8{0, 1, 255}),
		zeroKindOf("uint16", []uint16{0, 1, 65535}),
		zeroKindOf("uint32", []uint32{0, 1, ^uint32(0)}),
		zeroKindOf("uint64", []uint64{0, 1, ^uint64(0), 0xdeadbeefcafe}),
		zeroKindOf("uintptr", []uintptr{0, 1, ^uintptr(0)}),
		zeroKindOf("namedString", []namedString{"", "x"}),
		zeroKindOf("namedUint", []namedUint{0, 1, ^namedUint(0)}),
	}
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, _ cpu.Level) {
		for _, k := range kinds {
			t.Run(k.name, k.checks)
		}
	})
	t.Run("decode", func(t *testing.T) {
		for _, k := range kinds {
			t.Run(k.name, k.decode)
		}
	})
}

// zeroTypedDecode checks that decoding into a zero Filter gives the encoded
// filter.
func zeroTypedDecode[K Key](t *testing.T, keys []K) {
	f := mustNew[K](t, 100, 0.01)
	f.AddAll(keys)
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var u, r Filter[K]
	if err := u.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if n, err := r.ReadFrom(bytes.NewReader(b)); err != nil || n != int64(len(b)) {
		t.Fatalf("ReadFrom: %d, %v", n, err)
	}
	for _, g := range []*Filter[K]{&u, &r} {
		if !g.equal(f) || g.HasAll(keys, make([]bool, len(keys))) != len(keys) {
			t.Fatal("decoding into a zero Filter lost keys")
		}
		for _, k := range keys {
			if !g.Has(k) {
				t.Fatalf("decoded filter lost %v", k)
			}
		}
	}
}

func zeroTypedChecks[K Key](t *testing.T, keys []K) {
	var z Filter[K]
	var v FilterView[K]
	out := make([]bool, len(keys)+1)
	for i := range out {
		out[i] = true
	}
	for _, k := range keys {
		if z.Has(k) || v.Has(k) {
			t.Errorf("Has(%v) is true on a zero value", k)
		}
	}
	if n := z.HasAll(keys, out); n != 0 || !out[len(keys)] {
		t.Errorf("HasAll: %d found, or wrote past len(keys)", n)
	}
	for i := range out {
		out[i] = true
	}
	if n := v.HasAll(keys, out); n != 0 {
		t.Errorf("view HasAll: %d found", n)
	}
	for i, o := range out[:len(keys)] {
		if o {
			t.Errorf("HasAll left out[%d] true", i)
		}
	}
	if z.NumBits() != 0 || z.FillRatio() != 0 || z.EstimatedCount() != 0 || z.EstimatedFPR() != 0 {
		t.Errorf("zero Filter: %d bits, fill %v, count %v, FPR %v", z.NumBits(), z.FillRatio(), z.EstimatedCount(), z.EstimatedFPR())
	}
	if z.Engine() != nil {
		t.Error("Engine of a zero value")
	}
	if c := z.clone(); !c.equal(&z) || c.NumBits() != 0 {
		t.Error("Clone of a zero value is not zero, or Equal is false")
	}
	for name, enc := range map[string]func() error{
		"MarshalBinary": func() error { _, err := z.MarshalBinary(); return err },
		"AppendBinary":  func() error { _, err := z.AppendBinary(nil); return err },
		"WriteTo":       func() error { _, err := z.WriteTo(&bytes.Buffer{}); return err },
	} {
		if err := enc(); !errors.Is(err, ErrGeometry) {
			t.Errorf("%s of a zero value: %v, want ErrGeometry", name, err)
		}
	}
	z.Clear()
	f := mustNew[K](t, 100, 0.01)
	f.AddAll(keys)
	if z.equal(f) || f.equal(&z) {
		t.Error("a zero Filter equals a made one")
	}
	if err := f.Union(&z); !errors.Is(err, ErrGeometry) {
		t.Errorf("Union with a zero argument: %v, want ErrGeometry", err)
	}
	if err := f.Intersect(&z); !errors.Is(err, ErrGeometry) {
		t.Errorf("Intersect with a zero argument: %v, want ErrGeometry", err)
	}
	for _, k := range keys {
		if !f.Has(k) {
			t.Fatal("a refused Union or Intersect changed the filter")
		}
	}
	const msg = " on a zero Filter; use bloom.New"
	for name, fn := range map[string]func(){
		"Add":       func() { z.Add(keys[0]) },
		"AddAll":    func() { z.AddAll(keys) },
		"Union":     func() { z.Union(f) },
		"Intersect": func() { z.Intersect(f) },
	} {
		func() {
			defer func() {
				if m, _ := recover().(string); !strings.Contains(m, name+msg) {
					t.Errorf("%s: panic %q, want %q", name, m, "bloom: "+name+msg)
				}
			}()
			fn()
		}()
	}
	func() {
		defer func() {
			if m, _ := recover().(string); !strings.Contains(m, "AddAll"+msg) {
				t.Errorf("AddAll(nil): panic %q", m)
			}
		}()
		z.AddAll(nil)
	}()
}
