package bloom

import (
	"math/rand/v2"
	"testing"
)

// TestBatchFormsEqualOneKey: every typed batch form (AddAll, HasAll,
// RemoveAll of Filter, FilterView, Counting, CountingView, Cuckoo and
// Scalable) has exactly the effect of its one-key form, for strings and
// byte slices of mixed lengths 0..300 in random order, so that every length
// class of the batch hashing (keyChunks -> hashKeys) meets every lane and
// chunk position.
func TestBatchFormsEqualOneKey(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	strs := make([]string, 3*chunk+17)
	for i := range strs {
		b := make([]byte, r.IntN(301))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		strs[i] = string(b)
	}
	bytes := make([][]byte, len(strs))
	for i, s := range strs {
		bytes[i] = []byte(s)
	}
	t.Run("string", func(t *testing.T) { batchFormsEqual(t, strs, len(strs)/2) })
	t.Run("bytes", func(t *testing.T) { batchFormsEqual(t, bytes, len(bytes)/2) })
}

func batchFormsEqual[K Key](t *testing.T, keys []K, n int) {
	added, probe := keys[:n], keys
	out := make([]bool, len(probe))
	checkHasAll := func(name string, hasAll func([]K, []bool) int, has func(K) bool) {
		t.Helper()
		found := hasAll(probe, out)
		want := 0
		for i, k := range probe {
			h := has(k)
			if out[i] != h {
				t.Fatalf("%s: HasAll[%d] = %v, Has = %v (key of %d bytes)", name, i, out[i], h, keyLen(k))
			}
			if i < n && !h {
				t.Fatalf("%s: false negative for key %d", name, i)
			}
			want += int(b2i(h))
		}
		if found != want {
			t.Fatalf("%s: HasAll returned %d, %d are true", name, found, want)
		}
	}

	f, g := mustNew[K](t, uint64(n), 0.01), mustNew[K](t, uint64(n), 0.01)
	f.AddAll(added)
	for _, k := range added {
		g.Add(k)
	}
	if !f.equal(g) {
		t.Fatal("Filter: AddAll differs from Add")
	}
	checkHasAll("Filter", f.HasAll, f.Has)
	if b, err := f.MarshalBinary(); err == nil {
		if v, err := newView[K](b); err == nil {
			checkHasAll("FilterView", v.HasAll, v.Has)
		}
	}

	c, _ := NewCounting[K](uint64(n), 0.01)
	d, _ := NewCounting[K](uint64(n), 0.01)
	c.AddAll(added)
	for _, k := range added {
		d.Add(k)
	}
	if !c.equal(d) {
		t.Fatal("Counting: AddAll differs from Add")
	}
	checkHasAll("Counting", c.HasAll, c.Has)
	if b, err := c.MarshalBinary(); err == nil {
		if v, err := newCountingView[K](b); err == nil {
			checkHasAll("CountingView", v.HasAll, v.Has)
		}
	}
	removed := c.RemoveAll(added[:n/2])
	for _, k := range added[:n/2] {
		d.Remove(k)
	}
	if removed != n/2 || !c.equal(d) {
		t.Fatalf("Counting: RemoveAll removed %d of %d, or differs from Remove", removed, n/2)
	}

	k1, _ := NewCuckoo[K](uint64(n), 0.01)
	k2, _ := NewCuckoo[K](uint64(n), 0.01)
	if got, err := k1.AddAll(added); got != n || err != nil {
		t.Fatalf("Cuckoo.AddAll: %d, %v", got, err)
	}
	for _, k := range added {
		if err := k2.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	if !k1.equal(k2) {
		t.Fatal("Cuckoo: AddAll differs from Add")
	}
	checkHasAll("Cuckoo", k1.HasAll, k1.Has)
	removed = k1.RemoveAll(added[:n/2])
	for _, k := range added[:n/2] {
		k2.Remove(k)
	}
	if removed != n/2 || !k1.equal(k2) {
		t.Fatalf("Cuckoo: RemoveAll removed %d of %d, or differs from Remove", removed, n/2)
	}

	s1, _ := NewScalable[K](uint64(n/8), 0.01) // grows during the batch
	s2, _ := NewScalable[K](uint64(n/8), 0.01)
	s1.AddAll(added)
	for _, k := range added {
		s2.Add(k)
	}
	if !s1.equal(s2) || s1.Stages() < 2 {
		t.Fatalf("Scalable: AddAll differs from Add (%d stages)", s1.Stages())
	}
	checkHasAll("Scalable", s1.HasAll, s1.Has)
}

// keyLen returns the length of a string or []byte key.
func keyLen[K Key](k K) int {
	switch k := any(k).(type) {
	case string:
		return len(k)
	case []byte:
		return len(k)
	}
	return 0
}
