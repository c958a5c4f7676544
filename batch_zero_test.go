package bloom

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
)

// TestScalableAddAllEqualsAdd checks that AddAll leaves a Scalable exactly
// as a loop of Add does (same stages, bits, counters: the same encoding),
// with duplicates inside and across batches, over many stage changes, for
// several growth factors and batch lengths.
func TestScalableAddAllEqualsAdd(t *testing.T) {
	for _, tc := range []struct {
		initial uint64
		growth  float64
		keys    int
		pool    uint64
	}{{1, 2, 3000, 1 << 40}, {10, minGrowth, 2000, 500}, {100, 1.6, 20000, 8000}, {1000, 4, 50000, 1 << 62}} {
		t.Run(fmt.Sprintf("%d-%v", tc.initial, tc.growth), func(t *testing.T) {
			a, err := NewScalable[uint64](tc.initial, 0.05, WithGrowth(tc.growth))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := NewScalable[uint64](tc.initial, 0.05, WithGrowth(tc.growth))
			r := rand.New(rand.NewPCG(tc.initial, 7))
			keys := make([]uint64, tc.keys)
			for i := range keys {
				keys[i] = r.Uint64N(tc.pool)
			}
			for len(keys) > 0 { // batches of uneven lengths, some longer than a chunk
				n := min(len(keys), 1+r.IntN(3*chunk))
				a.AddAll(keys[:n])
				for _, k := range keys[:n] {
					b.Add(k)
				}
				keys = keys[n:]
			}
			if a.Stages() < 3 || !bytes.Equal(mustMarshal(t, a), mustMarshal(t, b)) {
				t.Fatalf("AddAll and Add differ (%d and %d stages)", a.Stages(), b.Stages())
			}
		})
	}
}

// zeroCase is one typed type's zero value under test.
type zeroCase struct {
	name, ctor string
	lookups    func(t *testing.T) // must not fault and answer false / 0
	mutations  map[string]func()  // each must panic naming ctor
	load       func(t *testing.T) // UnmarshalBinary and ReadFrom into zero values
}

func zeroCases[K Key](keys []K) []zeroCase {
	out := make([]bool, len(keys))
	check := func(t *testing.T, what string, got any) {
		t.Helper()
		switch v := got.(type) {
		case bool:
			if v {
				t.Errorf("%s = true on a zero value", what)
			}
		case int:
			if v != 0 {
				t.Errorf("%s = %d on a zero value", what, v)
			}
		case uint64:
			if v != 0 {
				t.Errorf("%s = %d on a zero value", what, v)
			}
		case float64:
			if v != 0 {
				t.Errorf("%s = %v on a zero value", what, v)
			}
		}
	}
	allFalse := func(t *testing.T) {
		for i, o := range out {
			if o {
				t.Errorf("HasAll out[%d] = true on a zero value", i)
			}
		}
	}
	load := func(t *testing.T, fresh func() codec, made codec) {
		b := mustMarshal(t, made)
		if err := fresh().UnmarshalBinary(b); err != nil {
			t.Errorf("UnmarshalBinary into a zero value: %v", err)
		}
		if _, err := fresh().ReadFrom(bytes.NewReader(b)); err != nil {
			t.Errorf("ReadFrom into a zero value: %v", err)
		}
		if _, err := fresh().MarshalBinary(); !errors.Is(err, ErrGeometry) {
			t.Errorf("MarshalBinary of a zero value: %v, want ErrGeometry", err)
		}
	}
	return []zeroCase{
		{"Counting", "NewCounting", func(t *testing.T) {
			var c Counting[K]
			for i := range out {
				out[i] = true
			}
			check(t, "HasAll", c.HasAll(keys, out))
			allFalse(t)
			check(t, "Has", c.Has(keys[0]))
			check(t, "NumBits", c.NumBits())
			check(t, "Saturated", c.Saturated())
			check(t, "EstimatedFPR", c.EstimatedFPR())
		}, map[string]func(){
			"Add":       func() { var c Counting[K]; c.Add(keys[0]) },
			"AddAll":    func() { var c Counting[K]; c.AddAll(keys) },
			"Remove":    func() { var c Counting[K]; c.Remove(keys[0]) },
			"RemoveAll": func() { var c Counting[K]; c.RemoveAll(keys) },
		}, func(t *testing.T) {
			m, _ := NewCounting[K](100, 0.01)
			m.AddAll(keys)
			load(t, func() codec { return new(Counting[K]) }, m)
		}},
		{"Cuckoo", "NewCuckoo", func(t *testing.T) {
			var c Cuckoo[K]
			for i := range out {
				out[i] = true
			}
			check(t, "HasAll", c.HasAll(keys, out))
			allFalse(t)
			check(t, "Has", c.Has(keys[0]))
			check(t, "EstimatedCount", c.EstimatedCount())
			check(t, "NumBits", c.NumBits())
			check(t, "LoadFactor", c.LoadFactor())
			check(t, "EstimatedFPR", c.EstimatedFPR())
		}, map[string]func(){
			"Add":       func() { var c Cuckoo[K]; c.Add(keys[0]) },
			"AddAll":    func() { var c Cuckoo[K]; c.AddAll(keys) },
			"Remove":    func() { var c Cuckoo[K]; c.Remove(keys[0]) },
			"RemoveAll": func() { var c Cuckoo[K]; c.RemoveAll(keys) },
		}, func(t *testing.T) {
			m, _ := NewCuckoo[K](100, 0.01)
			m.AddAll(keys)
			load(t, func() codec { return new(Cuckoo[K]) }, m)
		}},
		{"Scalable", "NewScalable", func(t *testing.T) {
			var s Scalable[K]
			for i := range out {
				out[i] = true
			}
			check(t, "HasAll", s.HasAll(keys, out))
			allFalse(t)
			check(t, "Has", s.Has(keys[0]))
			check(t, "Stages", s.Stages())
			check(t, "NumBits", s.NumBits())
			check(t, "FillRatio", s.FillRatio())
			check(t, "EstimatedFPR", s.EstimatedFPR())
			check(t, "EstimatedCount", s.EstimatedCount())
		}, map[string]func(){
			"Add":    func() { var s Scalable[K]; s.Add(keys[0]) },
			"AddAll": func() { var s Scalable[K]; s.AddAll(keys) },
		}, func(t *testing.T) {
			m, _ := NewScalable[K](100, 0.01)
			m.AddAll(keys)
			load(t, func() codec { return new(Scalable[K]) }, m)
		}},
	}
}

// TestZeroTyped runs, in a child process per type and key kind (a fault
// would kill the test binary), the lookups of a zero value (false and 0),
// each mutation (a panic naming the constructor) and decoding into a zero
// value.
func TestZeroTyped(t *testing.T) {
	kinds := map[string][]zeroCase{
		"string": zeroCases([]string{"a", "bb", ""}),
		"bytes":  zeroCases([][]byte{[]byte("a"), nil}),
		"uint64": zeroCases([]uint64{1, 2, 3}),
		"int32":  zeroCases([]int32{-1, 7}),
		"uint8":  zeroCases([]uint8{0, 255}),
	}
	for kind, cases := range kinds {
		for _, zc := range cases {
			t.Run(kind+"-"+zc.name, func(t *testing.T) {
				childtest.Run(t, func(t *testing.T) {
					zc.lookups(t)
					for op, fn := range zc.mutations {
						msg := func() (msg string) {
							defer func() { msg = fmt.Sprint(recover()) }()
							fn()
							return "no panic"
						}()
						if !strings.Contains(msg, op) || !strings.Contains(msg, "bloom."+zc.ctor) {
							t.Errorf("%s on a zero %s: panic %q, want one naming %s and bloom.%s", op, zc.name, msg, op, zc.name)
						}
					}
					zc.load(t)
				})
			})
		}
	}
}
