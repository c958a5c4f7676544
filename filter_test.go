package bloom

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"
)

func mustNew[K Key](t testing.TB, n uint64, p float64) *Filter[K] {
	t.Helper()
	f, err := New[K](n, p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// checkTyped adds keys with Add and AddAll into two filters, checks they are
// equal, that every key is found by Has and HasAll, and that the FPR over
// absent keys is plausible.
func checkTyped[K Key](t *testing.T, keys, absent []K) {
	t.Helper()
	a, b := mustNew[K](t, uint64(len(keys)), 0.01), mustNew[K](t, uint64(len(keys)), 0.01)
	for _, k := range keys {
		a.Add(k)
	}
	b.AddAll(keys)
	if !a.equal(b) {
		t.Fatal("Add and AddAll set different bits")
	}
	out := make([]bool, len(keys))
	if n := a.HasAll(keys, out); n != len(keys) {
		t.Fatalf("HasAll found %d of %d added keys", n, len(keys))
	}
	for i, k := range keys {
		if !a.Has(k) || !out[i] {
			t.Fatalf("false negative for key %v", k)
		}
	}
	out = make([]bool, len(absent))
	fp := a.HasAll(absent, out)
	for i, k := range absent {
		if out[i] != a.Has(k) {
			t.Fatalf("HasAll and Has disagree on %v", k)
		}
	}
	// 1% target: over len(absent) probes, 4 sigma above 1% is the bound.
	p := float64(fp) / float64(len(absent))
	if bound := 0.01 + 4*math.Sqrt(0.01*0.99/float64(len(absent))); p > bound {
		t.Fatalf("FPR %.4f over %d absent keys exceeds %.4f", p, len(absent), bound)
	}
}

func TestTypedKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, m = 100_000, 200_000
	u := make([]uint64, n+m)
	for i := range u {
		u[i] = r.Uint64()
	}
	t.Run("uint64", func(t *testing.T) { checkTyped(t, u[:n], u[n:]) })
	t.Run("sequential int", func(t *testing.T) {
		seq := make([]int, n+m)
		for i := range seq {
			seq[i] = i - n/2 // negatives too
		}
		checkTyped(t, seq[:n], seq[n:])
	})
	t.Run("int32", func(t *testing.T) {
		v := make([]int32, n+m)
		for i := range v {
			v[i] = int32(i * 7919)
		}
		checkTyped(t, v[:n], v[n:])
	})
	t.Run("string", func(t *testing.T) {
		s := make([]string, n+m)
		for i := range s {
			s[i] = fmt.Sprintf("key-%016x", u[i])
		}
		checkTyped(t, s[:n], s[n:])
	})
	t.Run("bytes", func(t *testing.T) {
		s := make([][]byte, n+m)
		for i := range s {
			s[i] = fmt.Appendf(nil, "https://example.com/%d", i)
		}
		checkTyped(t, s[:n], s[n:])
	})
	t.Run("named", func(t *testing.T) {
		s := make([]myString, n+m)
		for i := range s {
			s[i] = myString(fmt.Sprint(i))
		}
		checkTyped(t, s[:n], s[n:])
	})
}

func TestTypedMatchesHashLevel(t *testing.T) {
	f := mustNew[string](t, 1000, 0.01)
	g, _ := blocked.New(1000, 0.01)
	g.SetKeyHash(blocked.HashXXH3) // else Equal sees two hash functions
	for i := range 1000 {
		k := fmt.Sprint("k", i)
		f.Add(k)
		g.AddHash(Hash(k))
	}
	if !f.Engine().Equal(g) {
		t.Fatal("typed Add differs from AddHash(Hash(k))")
	}
	if !FromEngine[string](g).Has("k7") {
		t.Fatal("FromEngine view lost a key")
	}
}

func TestTypedErrors(t *testing.T) {
	if _, err := New[string](0, 0.01); !errors.Is(err, errs.ErrKeys) {
		t.Errorf("n=0: %v", err)
	}
	for _, p := range []float64{0, -1, 1, 2, math.NaN()} {
		if f, err := New[int](10, p); !errors.Is(err, errs.ErrFPR) || f != nil {
			t.Errorf("fpr=%v: %v", p, err)
		}
	}
	a, b := mustNew[int](t, 1000, 0.01), mustNew[int](t, 100000, 0.01)
	if err := a.Union(b); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("Union of different sizes: %v", err)
	}
	if err := a.Union(nil); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("Union with nil: %v", err)
	}
	if err := a.Intersect(b); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("Intersect of different sizes: %v", err)
	}
}

func TestTypedUnionCloneClear(t *testing.T) {
	a, b := mustNew[string](t, 1000, 0.01), mustNew[string](t, 1000, 0.01)
	a.Add("x")
	b.Add("y")
	c := a.clone()
	if err := c.Union(b); err != nil {
		t.Fatal(err)
	}
	if !c.Has("x") || !c.Has("y") || a.Has("y") && b.Has("x") {
		t.Fatal("Union/Clone semantics")
	}
	if err := c.Intersect(a); err != nil || !c.Has("x") {
		t.Fatal("Intersect lost a common key")
	}
	c.Clear()
	if c.Has("x") || c.FillRatio() != 0 || a.NumBits() != c.NumBits() || c.f.K() != a.f.K() {
		t.Fatal("Clear")
	}
	if a.EstimatedCount() < 0.5 || a.EstimatedFPR() <= 0 {
		t.Fatal("estimates of a one-key filter")
	}
}

func TestHasAllShortOutPanics(t *testing.T) {
	f := mustNew[int](t, 10, 0.01)
	defer func() {
		if recover() == nil {
			t.Fatal("HasAll with a short out did not panic")
		}
	}()
	f.HasAll([]int{1, 2}, make([]bool, 1))
}

func TestTypedZeroAllocs(t *testing.T) {
	f := mustNew[string](t, 1000, 0.01)
	g := mustNew[uint64](t, 1000, 0.01)
	keys := []string{"a", "bb", "ccc"}
	ints := make([]uint64, 1000)
	out := make([]bool, 1000)
	c, err := NewCounting[uint64](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewCuckoo[uint64](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewCounting[string](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := NewCuckoo[string](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScalable[string](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	si, err := NewScalable[uint64](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	v, verr := newView[uint64](enc)
	if verr != nil && !errors.Is(verr, ErrByteOrder) {
		t.Fatal(verr)
	}
	cases := map[string]func(){
		"Add": func() { f.Add("k") }, "Has": func() { f.Has("k") },
		"AddAll": func() { f.AddAll(keys) }, "HasAll": func() { f.HasAll(keys, out) },
		"AddAll ints": func() { g.AddAll(ints) }, "HasAll ints": func() { g.HasAll(ints, out) },
		"Counting HasAll": func() { c.HasAll(ints, out) }, "Cuckoo HasAll": func() { k.HasAll(ints, out) },
		"Counting AddAll+RemoveAll strings": func() { cs.AddAll(keys); cs.RemoveAll(keys) },
		"Counting HasAll strings":           func() { cs.HasAll(keys, out) },
		"Cuckoo AddAll strings": func() {
			ks.AddAll(keys)
			for _, key := range keys {
				ks.Remove(key)
			}
		},
		"Cuckoo HasAll strings":   func() { ks.HasAll(keys, out) },
		"Scalable AddAll strings": func() { s.AddAll(keys) },
		"Scalable HasAll strings": func() { s.HasAll(keys, out) },
		"Scalable HasAll ints":    func() { si.HasAll(ints, out) },
	}
	if verr == nil { // views need a little-endian machine
		cases["View HasAll"] = func() { v.HasAll(ints, out) }
	}
	for name, fn := range cases {
		if a := testing.AllocsPerRun(50, fn); a != 0 {
			t.Errorf("%s allocates %v times", name, a)
		}
	}
}
