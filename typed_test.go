package bloom

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/cpu"
)

// checkOneKey adds half of keys to a small, crowded filter (so that both
// answers occur) and checks that Has and Add agree with HasHash and AddHash
// of Hash for every key, present or absent, at every kernel level.
func checkOneKey[K Key](t *testing.T, keys []K) {
	t.Helper()
	for _, l := range cpu.Usable() {
		t.Run(l.String(), func(t *testing.T) { withLevel(l, func() { checkOneKeyLevel(t, keys) }) })
	}
}

func checkOneKeyLevel[K Key](t *testing.T, keys []K) {
	{
		f, err := New[K](uint64(len(keys)/8), 0.2)
		if err != nil {
			t.Fatal(err)
		}
		e := f.Engine()
		for _, k := range keys[:len(keys)/2] {
			f.Add(k)
		}
		ref, _ := blocked.NewBytes(e.SizeBytes(), e.K())
		ref.SetKeyHash(e.KeyHash())
		for _, k := range keys[:len(keys)/2] {
			ref.AddHash(Hash(k))
		}
		if !e.Equal(ref) {
			t.Fatal("Add set other bits than AddHash(Hash(k))")
		}
		yes := 0
		for i, k := range keys {
			want := ref.HasHash(Hash(k))
			if got := f.Has(k); got != want {
				t.Fatalf("key %d: Has = %v, HasHash(Hash) = %v", i, got, want)
			}
			if want {
				yes++
			}
		}
		if yes == len(keys) || yes < len(keys)/2 {
			t.Fatalf("%d of %d keys found: the test does not reach both answers", yes, len(keys))
		}
	}
}

func TestTypedOneKeyEveryKind(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 4000
	u := make([]uint64, n)
	for i := range u {
		u[i] = r.Uint64()
	}
	t.Run("uint64", func(t *testing.T) { checkOneKey(t, u) })
	t.Run("int64", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) int64 { return int64(x) })) })
	t.Run("int", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) int { return int(x) })) })
	t.Run("uintptr", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) uintptr { return uintptr(x) })) })
	t.Run("int32", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) int32 { return int32(x) })) })
	t.Run("uint16", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) uint16 { return uint16(x) })) })
	t.Run("int8", func(t *testing.T) { checkOneKey(t, mapKeys(u[:256], func(x uint64) int8 { return int8(x) })) })
	t.Run("namedUint", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) namedUint { return namedUint(x) })) })
	t.Run("string", func(t *testing.T) {
		checkOneKey(t, mapKeys(u, func(x uint64) string { s := strconv.FormatUint(x, 36); return s[:x%uint64(len(s)+1)] }))
	})
	t.Run("bytes", func(t *testing.T) {
		checkOneKey(t, mapKeys(u, func(x uint64) []byte { return strconv.AppendUint(nil, x, 7) }))
	})
}

func mapKeys[A, B any](in []A, f func(A) B) []B {
	out := make([]B, len(in))
	for i, a := range in {
		out[i] = f(a)
	}
	return out
}

// A typed filter over an engine without blocks (FromEngine of a zero
// blocked.Filter) answers false and panics on Add for every kind, as the
// engine does, rather than reading the missing blocks.
func TestTypedOverZeroEngine(t *testing.T) {
	u := FromEngine[uint64](&blocked.Filter{})
	s := FromEngine[string](&blocked.Filter{})
	if u.Has(1) || s.Has("a") {
		t.Fatal("Has on a filter without blocks answered true")
	}
	for name, add := range map[string]func(){"uint64": func() { u.Add(1) }, "string": func() { s.Add("a") }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Add on a filter without blocks did not panic", name)
				}
			}()
			add()
		}()
	}
}
