package bloom

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// The method sets every typed filter shares with its engine (the naming
// table in doc.go): Clear, Clone, Equal, EstimatedCount, the FromEngine
// constructors and CountingView.

// cloneCase is one typed filter under the Clone/Equal/Clear checks.
type cloneCase struct {
	name string
	// fresh makes a new filter with keys[:n] added; change adds one more
	// key to it; equal, clone and clear call the methods under test; count
	// is EstimatedCount.
	fresh  func(n int) any
	change func(f any)
	equal  func(a, b any) bool
	clone  func(f any) any
	clear  func(f any)
	count  func(f any) float64
	zero   any
	exact  bool // EstimatedCount is exact
}

func TestTypedCloneEqualClear(t *testing.T) {
	keys := make([]string, 3000)
	for i := range keys {
		keys[i] = fmt.Sprint("key-", i)
	}
	cases := []cloneCase{
		{
			name: "Filter",
			fresh: func(n int) any {
				f := mustNew[string](t, 5000, 0.01)
				f.AddAll(keys[:n])
				return f
			},
			change: func(f any) { f.(*Filter[string]).Add("another") },
			equal:  func(a, b any) bool { return a.(*Filter[string]).equal(b.(*Filter[string])) },
			clone:  func(f any) any { return f.(*Filter[string]).clone() },
			clear:  func(f any) { f.(*Filter[string]).Clear() },
			count:  func(f any) float64 { return f.(*Filter[string]).EstimatedCount() },
			zero:   &Filter[string]{},
		},
		{
			name: "Counting",
			fresh: func(n int) any {
				c, err := NewCounting[string](5000, 0.01)
				if err != nil {
					t.Fatal(err)
				}
				c.AddAll(keys[:n])
				return c
			},
			change: func(f any) { f.(*Counting[string]).Add("another") },
			equal:  func(a, b any) bool { return a.(*Counting[string]).equal(b.(*Counting[string])) },
			clone:  func(f any) any { return f.(*Counting[string]).clone() },
			clear:  func(f any) { f.(*Counting[string]).Clear() },
			count:  func(f any) float64 { return f.(*Counting[string]).EstimatedCount() },
			zero:   &Counting[string]{},
			exact:  true,
		},
		{
			name: "Cuckoo",
			fresh: func(n int) any {
				c, err := NewCuckoo[string](5000, 0.01)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.AddAll(keys[:n]); err != nil {
					t.Fatal(err)
				}
				return c
			},
			change: func(f any) {
				if err := f.(*Cuckoo[string]).Add("another"); err != nil {
					t.Fatal(err)
				}
			},
			equal: func(a, b any) bool { return a.(*Cuckoo[string]).equal(b.(*Cuckoo[string])) },
			clone: func(f any) any { return f.(*Cuckoo[string]).clone() },
			clear: func(f any) { f.(*Cuckoo[string]).Clear() },
			count: func(f any) float64 { return f.(*Cuckoo[string]).EstimatedCount() },
			zero:  &Cuckoo[string]{},
			exact: true,
		},
		{
			name: "Scalable",
			fresh: func(n int) any {
				s, err := NewScalable[string](500, 0.01) // 3000 keys make several stages
				if err != nil {
					t.Fatal(err)
				}
				s.AddAll(keys[:n])
				return s
			},
			change: func(f any) { f.(*Scalable[string]).Add("another") },
			equal:  func(a, b any) bool { return a.(*Scalable[string]).equal(b.(*Scalable[string])) },
			clone:  func(f any) any { return f.(*Scalable[string]).clone() },
			clear:  func(f any) { f.(*Scalable[string]).Clear() },
			count:  func(f any) float64 { return f.(*Scalable[string]).EstimatedCount() },
			zero:   &Scalable[string]{},
		},
		{
			name: "Window",
			fresh: func(n int) any {
				clock := func() time.Time { return t0 }
				w, err := NewWindow[string](20_000, 0.01, time.Hour, WithClock(clock)) // 5000 keys a generation
				if err != nil {
					t.Fatal(err)
				}
				w.AddAll(keys[:n])
				return w
			},
			change: func(f any) { f.(*Window[string]).Add("another") },
			equal:  func(a, b any) bool { return a.(*Window[string]).equal(b.(*Window[string])) },
			clone:  func(f any) any { return f.(*Window[string]).clone() },
			clear:  func(f any) { f.(*Window[string]).Clear() },
			count:  func(f any) float64 { return f.(*Window[string]).EstimatedCount() },
			zero:   &Window[string]{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := c.fresh(len(keys))
			if got := c.count(f); c.exact && got != float64(len(keys)) {
				t.Errorf("EstimatedCount %v of %d keys, want exact", got, len(keys))
			} else if got < 0.9*float64(len(keys)) || got > 1.1*float64(len(keys)) {
				t.Errorf("EstimatedCount %v of %d keys", got, len(keys))
			}
			g := c.clone(f)
			if !c.equal(f, g) || !c.equal(g, f) {
				t.Fatal("a clone is not Equal to its original")
			}
			if !c.equal(f, c.fresh(len(keys))) {
				t.Fatal("two filters of the same keys are not Equal")
			}
			c.change(g)
			if c.equal(f, g) {
				t.Fatal("Equal after the clone changed")
			}
			if !c.equal(f, c.fresh(len(keys))) {
				t.Fatal("changing a clone changed the original")
			}
			if c.equal(f, c.fresh(len(keys)-1)) {
				t.Fatal("filters of different keys are Equal")
			}
			c.clear(g)
			if !c.equal(g, c.fresh(0)) {
				t.Fatal("after Clear, not Equal to a new filter")
			}
			if got := c.count(g); got != 0 {
				t.Fatalf("EstimatedCount %v after Clear", got)
			}
			// The zero value: Clear does nothing, Clone is zero, two zeros are equal.
			c.clear(c.zero)
			z := c.clone(c.zero)
			if !c.equal(z, c.zero) || c.equal(z, f) || c.equal(f, z) {
				t.Fatal("zero values: Clone not Equal, or Equal to a filter")
			}
			if c.count(c.zero) != 0 {
				t.Fatal("EstimatedCount of the zero value")
			}
		})
	}
}

func TestScalableClearKeepsOptions(t *testing.T) {
	s, err := NewScalable[int](100, 0.001, WithGrowth(3), WithTightening(0.5))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		s.Add(i)
	}
	if s.Stages() < 3 {
		t.Fatalf("%d stages", s.Stages())
	}
	s.Clear()
	want, _ := NewScalable[int](100, 0.001, WithGrowth(3), WithTightening(0.5))
	if s.Stages() != 1 || !s.equal(want) || s.Err() != nil {
		t.Fatalf("after Clear: %d stages, Equal %v", s.Stages(), s.equal(want))
	}
	for i := range 5000 { // grows again exactly as a new one
		s.Add(i)
		want.Add(i)
	}
	if !s.equal(want) {
		t.Fatal("a cleared Scalable grew unlike a new one")
	}
	if !s.clone().equal(s) {
		t.Fatal("Clone of a grown Scalable")
	}
}

func TestCountingEstimatedCountAfterRemove(t *testing.T) {
	c, err := NewCounting[int](10_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]int, 10_000)
	for i := range keys {
		keys[i] = i
	}
	c.AddAll(keys)
	c.RemoveAll(keys[:4000])
	if c.Saturated() == 0 && c.EstimatedCount() != 6000 {
		t.Fatalf("EstimatedCount %v, want 6000", c.EstimatedCount())
	}
	if c.FillRatio() <= 0 || c.FillRatio() >= 1 {
		t.Fatalf("FillRatio %v", c.FillRatio())
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
