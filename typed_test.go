package bloom

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// checkOneKey adds half of keys to a small, crowded filter (so that both
// answers occur) and checks that Has and Add agree with HasHash and AddHash
// of Hash for every key, present or absent, at the active kernel level.
func checkOneKey[K Key](t *testing.T, keys []K) {
	{
		f, err := New[K](uint64(len(keys)/8), 0.2)
		if err != nil {
			t.Fatal(err)
		}
		e := f.Engine()
		for _, k := range keys[:len(keys)/2] {
			f.Add(k)
		}
		ref, _ := blocked.NewBytes((e.NumBits() / 8), e.K())
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

// TestTypedOneKeyEveryKind runs checkOneKey for every kind of key, at every
// kernel level (each in a child process of its own).
func TestTypedOneKeyEveryKind(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 4000
	u := make([]uint64, n)
	for i := range u {
		u[i] = r.Uint64()
	}
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, _ cpu.Level) {
		t.Run("uint64", func(t *testing.T) { checkOneKey(t, u) })
		t.Run("int64", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) int64 { return int64(x) })) })
		t.Run("int", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) int { return int(x) })) })
		t.Run("uintptr", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) uintptr { return uintptr(x) })) })
		t.Run("uint", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) uint { return uint(x) })) })
		t.Run("int32", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) int32 { return int32(x) })) })
		t.Run("uint32", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) uint32 { return uint32(x) })) })
		t.Run("int16", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) int16 { return int16(x) })) })
		t.Run("uint16", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) uint16 { return uint16(x) })) })
		t.Run("int8", func(t *testing.T) { checkOneKey(t, mapKeys(u[:256], func(x uint64) int8 { return int8(x) })) })
		t.Run("uint8", func(t *testing.T) { checkOneKey(t, mapKeys(u[:256], func(x uint64) uint8 { return uint8(x) })) })
		t.Run("namedUint", func(t *testing.T) { checkOneKey(t, mapKeys(u, func(x uint64) namedUint { return namedUint(x) })) })
		t.Run("string", func(t *testing.T) {
			checkOneKey(t, mapKeys(u, func(x uint64) string { s := strconv.FormatUint(x, 36); return s[:x%uint64(len(s)+1)] }))
		})
		t.Run("bytes", func(t *testing.T) {
			checkOneKey(t, mapKeys(u, func(x uint64) []byte { return strconv.AppendUint(nil, x, 7) }))
		})
		t.Run("namedString", func(t *testing.T) {
			checkOneKey(t, mapKeys(u, func(x uint64) namedString { return namedString(strconv.FormatUint(x, 2)) }))
		})
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
	i := FromEngine[int16](&blocked.Filter{})
	long := strings.Repeat("a", 300) // hashed in Go
	if u.Has(1) || s.Has("a") || s.Has(long) || i.Has(-1) {
		t.Fatal("Has on a filter without blocks answered true")
	}
	for name, add := range map[string]func(){
		"uint64": func() { u.Add(1) }, "string": func() { s.Add("a") }, "long": func() { s.Add(long) }, "int16": func() { i.Add(-1) },
	} {
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

// keyCheck checks that the typed kernels hash one key as Hash does: Add(k)
// into an empty filter sets the bits of AddHash(Hash(k)), and Has(k) finds k
// in it (a kernel that hashed k otherwise would find it only by a collision
// of the eight or sixteen bits).
type keyCheck[K Key] struct {
	f   *Filter[K]
	ref *blocked.Filter
}

func newKeyCheck[K Key](t *testing.T, k int) keyCheck[K] {
	e, err := blocked.NewBytes(4096, k)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := blocked.NewBytes(4096, k)
	ref.SetKeyHash(blocked.HashXXH3) // as FromEngine records on e
	return keyCheck[K]{FromEngine[K](e), ref}
}

func (c keyCheck[K]) check(t *testing.T, key K) {
	t.Helper()
	c.f.Clear()
	c.ref.Clear()
	c.f.Add(key)
	c.ref.AddHash(Hash(key))
	if !c.f.Engine().Equal(c.ref) {
		t.Fatalf("%s: Add(%q) set other bits than AddHash(Hash)", cpu.Active, key)
	}
	if !c.f.Has(key) {
		t.Fatalf("%s: Has(%q) did not find the key just added", cpu.Active, key)
	}
}

// Strings and byte slices of every length 0..300 (every XXH3 class the
// kernels hash, and the longer keys they leave to Go), random contents, at
// every level, k = 8 and 16.
func TestTypedStringLengths(t *testing.T) {
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, _ cpu.Level) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, k := range []int{8, 16} {
			s, b := newKeyCheck[string](t, k), newKeyCheck[[]byte](t, k)
			for n := 0; n <= 300; n++ {
				for range 8 {
					key := make([]byte, n)
					for i := range key {
						key[i] = byte(r.Uint32())
					}
					s.check(t, string(key))
					b.check(t, key)
				}
			}
		}
	})
}
