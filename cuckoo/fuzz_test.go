package cuckoo

import (
	"errors"
	"testing"
)

// FuzzAddRemove decodes the input into a filter geometry and a list of
// operations: add a key from a pool of 128 (so keys repeat, fingerprints
// collide and small tables fill up and fail), or remove one added key. After
// every operation each key added more times than removed must be present, a
// failed Add must leave the filter unchanged, and Len must match.
func FuzzAddRemove(f *testing.F) {
	f.Add(byte(0), []byte{0, 1, 2, 3, 0x81, 0x82, 4, 5})
	f.Add(byte(1), []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 0x81, 0x81, 2, 3})
	f.Add(byte(2), []byte{0xff, 0x7f, 0x80, 0, 0x10, 0x90, 0x20, 0xa0, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Add(byte(0x25), []byte{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0x83})
	f.Fuzz(func(t *testing.T, geometry byte, ops []byte) {
		if len(ops) > 2048 {
			return
		}
		g := geometries[int(geometry&15)%len(geometries)]
		buckets := uint64(geometry>>4) + 1 // 1 to 16 buckets
		c := mustBuckets(t, buckets, g.fb, g.l)
		live := map[uint64]int{}
		var order []uint64
		key := func(b byte) uint64 {
			x := uint64(b&0x7f)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
			x ^= x >> 29
			return x * 0xbf58476d1ce4e5b9
		}
		for i, op := range ops {
			if op&0x80 == 0 {
				h := key(op)
				before := c.Clone()
				if err := c.AddHash(h); err != nil {
					if !errors.Is(err, errFull) || !c.Equal(before) {
						t.Fatalf("op %d: failed Add returned %v or changed the filter", i, err)
					}
				} else {
					live[h]++
					order = append(order, h)
				}
			} else if len(order) > 0 {
				j := int(op&0x7f) % len(order)
				h := order[j]
				order = append(order[:j], order[j+1:]...)
				if !c.RemoveHash(h) {
					t.Fatalf("op %d: RemoveHash of added key %#x returned false", i, h)
				}
				live[h]--
			}
			if uint64(c.EstimatedCount()) != uint64(len(order)) {
				t.Fatalf("op %d: Len %d, model %d", i, uint64(c.EstimatedCount()), len(order))
			}
			for h, n := range live {
				if n > 0 && !c.HasHash(h) {
					t.Fatalf("op %d: false negative for %#x (added %d more times than removed)", i, h, n)
				}
			}
		}
	})
}
