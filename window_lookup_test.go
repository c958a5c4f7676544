package bloom

import (
	"github.com/simdbloom/bloom/blocked"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/simdbloom/bloom/internal/cpu"
)

// TestWindowSinceMatchesSub: since, which subtracts wall times itself for
// an origin without a monotonic reading, gives clock().Sub(origin)
// (saturated below the largest int64) for times near and far from it.
func TestWindowSinceMatchesSub(t *testing.T) {
	clock := &fakeClock{t: t0}
	w, err := NewWindow[uint64](100, 0.01, time.Hour, WithClock(clock.now))
	if err != nil {
		t.Fatal(err)
	}
	if !w.wall {
		t.Fatal("an origin from time.Date reads as monotonic")
	}
	r := rand.New(rand.NewPCG(2, 3))
	offsets := []time.Duration{0, 1, -1, time.Hour, -time.Hour, math.MaxInt64, math.MinInt64}
	for range 1000 {
		offsets = append(offsets, time.Duration(r.Int64()), time.Duration(r.Int64N(1e15)-5e14))
	}
	for _, secs := range []int64{9223372035, 9223372036, 9223372037, 1 << 40, 1 << 62} {
		for _, sign := range []int64{1, -1} {
			c := t0.Add(time.Duration(sign)) // nanosecond off the second
			clock.t = time.Unix(t0.Unix()+sign*secs, int64(c.Nanosecond()))
			check(t, w, clock.t)
		}
	}
	for _, d := range offsets {
		clock.t = t0.Add(d)
		check(t, w, clock.t)
		clock.t = t0.Add(d / 3).Add(time.Duration(r.Int64N(1e9)))
		check(t, w, clock.t)
	}
	// An origin with a monotonic reading keeps Sub's monotonic subtraction.
	now := time.Now()
	clock.t = now
	m, err := NewWindow[uint64](100, 0.01, time.Hour, WithClock(clock.now))
	if err != nil {
		t.Fatal(err)
	}
	if m.wall {
		t.Fatal("an origin from time.Now reads as without a monotonic reading")
	}
	clock.t = now.Add(time.Minute)
	check(t, m, clock.t)
}

func check(t *testing.T, w *Window[uint64], at time.Time) {
	t.Helper()
	want := min(int64(at.Sub(w.origin)), math.MaxInt64-1)
	if got := w.since(); got != want {
		t.Fatalf("since at %v (origin %v): %d, want %d", at, w.origin, got, want)
	}
}

// TestWindowHasAllMatchesHas: HasAll answers Has for every key, and counts
// the trues, over keys added to each generation, expired and never added,
// in batches of lengths that are not multiples of 8 or of the chunk, at
// every level this CPU runs.
func TestWindowHasAllMatchesHas(t *testing.T) {
	clock := &fakeClock{t: t0}
	w, err := NewWindow[uint64](2000, 0.05, time.Hour, WithClock(clock.now))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 5))
	var keys []uint64
	for range 7 { // 7 generations: the first two have expired at the end
		batch := make([]uint64, 600)
		for i := range batch {
			batch[i] = r.Uint64()
		}
		w.AddAll(batch)
		keys = append(keys, batch...)
		clock.t = clock.t.Add(w.span)
	}
	for range 3000 {
		keys = append(keys, r.Uint64())
	}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	for _, l := range cpu.Usable() {
		withLevel(l, func() {
			trues := 0
			for lo := 0; lo < len(keys); {
				n := min(1+r.IntN(700), len(keys)-lo)
				out := make([]bool, n+3)
				got := w.HasAll(keys[lo:lo+n], out)
				want := 0
				for i, k := range keys[lo : lo+n] {
					if out[i] != w.Has(k) {
						t.Fatalf("level %v: HasAll says %v for key %d of a batch of %d, Has %v", l, out[i], i, n, !out[i])
					}
					want += int(b2i(out[i]))
				}
				if got != want {
					t.Fatalf("level %v: HasAll returned %d, %d are true", l, got, want)
				}
				trues += want
				lo += n
			}
			if trues < len(keys)/4 || trues > len(keys)*3/4 {
				t.Fatalf("level %v: %d of %d keys found: the test does not exercise both answers", l, trues, len(keys))
			}
		})
	}
}

// TestWindowHasMatchesEngine: hasGens (Window.Has's kernel, one call for
// every generation) answers, for every hash and every set of live
// generations, what blocked's one-key lookup of each live generation ORed
// answers, at every level this CPU runs, for k = 8 and k = 16; so does
// hasGensAll (HasAll's) given those generations, for batches shorter and
// longer than its prefetch distance; and so do Window.Has and HasAll, whose
// clock has expired the oldest generation.
func TestWindowHasMatchesEngine(t *testing.T) {
	seen := map[int]bool{}
	for _, fpr := range []float64{0.01, 1e-7} {
		clock := &fakeClock{t: t0}
		w, err := NewWindow[uint64](20000, fpr, time.Hour, WithClock(clock.now))
		if err != nil {
			t.Fatal(err)
		}
		k := w.gens[0].K()
		seen[k] = true
		r := rand.New(rand.NewPCG(1, uint64(k)))
		// Each generation gets its own keys; the hashes looked up are
		// of 200 keys of each generation and of 2000 keys never added.
		var hs, ks []uint64
		for range w.gens {
			keys := make([]uint64, 4000)
			for i := range keys {
				keys[i] = r.Uint64()
			}
			w.AddAll(keys)
			for _, k := range keys[:200] {
				hs = append(hs, HashUint64(k))
				ks = append(ks, k)
			}
			clock.t = clock.t.Add(w.span)
		}
		for range 2000 {
			hs = append(hs, r.Uint64())
			ks = append(ks, r.Uint64())
		}
		gens := (*uintptr)(unsafe.Pointer(unsafe.SliceData(w.gens)))
		for _, l := range cpu.Usable() {
			withLevel(l, func() {
				hits := 0
				wants := make([]bool, len(hs))
				for live := uint64(0); live < 1<<len(w.gens); live++ {
					for i, h := range hs {
						want := false
						for s, f := range w.gens {
							if live>>s&1 != 0 && f.HasHash(h) {
								want = true
							}
						}
						if got := hasGens(gens, len(w.gens), live, h); got != want {
							t.Fatalf("k=%d level %v live %b hash %#x: hasGens %v, HasHash %v", k, l, live, h, got, want)
						}
						wants[i] = want
						hits += int(b2i(want))
					}
					var list []*blocked.Filter
					for s, f := range w.gens {
						if live>>s&1 != 0 {
							list = append(list, f)
						}
					}
					if len(list) == 0 {
						continue
					}
					lp := (*uintptr)(unsafe.Pointer(unsafe.SliceData(list)))
					for _, m := range []int{1, 5, 6, 7, 13, len(hs)} {
						lo := int(live) * 31 % (len(hs) - m + 1) // batches from everywhere in hs
						out := make([]bool, m+1)
						out[m] = true // must stay: out may be longer than hs
						n := hasGensAll(lp, len(list), hs[lo:lo+m], out)
						want := 0
						for i := range m {
							if out[i] != wants[lo+i] {
								t.Fatalf("k=%d level %v live %b hash %d of %d: hasGensAll %v, HasHash %v", k, l, live, i, m, out[i], wants[lo+i])
							}
							want += int(b2i(wants[lo+i]))
						}
						if n != want || !out[m] {
							t.Fatalf("k=%d level %v live %b: hasGensAll returned %d of %d, %d are true (out[len] %v)", k, l, live, n, m, want, out[m])
						}
					}
				}
				if all := len(hs) << len(w.gens); hits < all/10 || hits > all*9/10 {
					t.Fatalf("k=%d: %d of %d lookups hit: the test does not exercise both answers", k, hits, all)
				}
				d := w.since()
				if d < slices.Min(w.expiry) {
					t.Fatal("every generation is live: Has's test does not exercise the live mask")
				}
				out := make([]bool, len(ks))
				w.HasAll(ks, out)
				for i, key := range ks {
					want := false
					for s, f := range w.gens {
						if d < w.expiry[s] && f.HasHash(HashUint64(key)) {
							want = true
						}
					}
					if got := w.Has(key); got != want {
						t.Fatalf("k=%d level %v key %d: Has %v, HasHash of the live generations %v", k, l, key, got, want)
					}
					if out[i] != want {
						t.Fatalf("k=%d level %v key %d: HasAll %v, HasHash of the live generations %v", k, l, key, out[i], want)
					}
				}
			})
		}
	}
	if !seen[8] || !seen[16] {
		t.Fatalf("the windows have k in %v, not both 8 and 16", seen)
	}
}
