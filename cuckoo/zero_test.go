package cuckoo

import (
	"math"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
)

// TestZeroFilter checks the zero Filter: lookups answer false and read-only
// methods 0 (in a child process, so a fault fails the test), and the
// mutations panic naming the constructors.
func TestZeroFilter(t *testing.T) {
	hs := []uint64{0, 1, 1 << 32, ^uint64(0), 0x0123456789abcdef}
	childtest.Run(t, func(t *testing.T) {
		var z Filter
		for _, h := range hs {
			if z.HasHash(h) {
				t.Errorf("HasHash(%#x) is true", h)
			}
		}
		out := []bool{true, true, true, true, true, true}
		if n := z.HasHashes(hs, out); n != 0 || !out[len(hs)] {
			t.Errorf("HasHashes: %d found, or wrote past len(hs)", n)
		}
		for i, o := range out[:len(hs)] {
			if o {
				t.Errorf("HasHashes left out[%d] true", i)
			}
		}
		for name, v := range map[string]float64{
			"NumBuckets": float64(z.NumBuckets()), "NumBits": float64(z.NumBits()), "EstimatedCount": z.EstimatedCount(),
			"LoadFactor": z.LoadFactor(), "EstimatedFPR": z.EstimatedFPR(),
			"FingerprintBits": float64(z.FingerprintBits()), "Layout": float64(z.Layout()),
		} {
			if v != 0 || math.IsNaN(v) {
				t.Errorf("%s of the zero Filter: %v", name, v)
			}
		}
		z.Clear()
		c := z.Clone()
		if !c.Equal(&z) || c.HasHash(1) || c.NumBuckets() != 0 {
			t.Error("Clone of the zero Filter is not zero")
		}
		f, err := NewBuckets(4, 8, SemiSorted)
		if err != nil {
			t.Fatal(err)
		}
		if z.Equal(f) || f.Equal(&z) {
			t.Error("the zero Filter equals a made one")
		}
		for name, fn := range map[string]func(){
			"AddHash":      func() { z.AddHash(1) },
			"RemoveHash":   func() { z.RemoveHash(1) },
			"AddHashes":    func() { z.AddHashes(nil) },
			"RemoveHashes": func() { z.RemoveHashes(nil) },
		} {
			func() {
				defer func() {
					want := "cuckoo: " + name + " on a zero Filter; use cuckoo.New or NewBuckets"
					if m, _ := recover().(string); m != want {
						t.Errorf("%s: panic %q, want %q", name, m, want)
					}
				}()
				fn()
			}()
		}
	})
}
