package bloom

import (
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
