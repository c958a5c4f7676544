package bloom

import (
	"bytes"
	"errors"
	"github.com/simdbloom/bloom/internal/format"
	"math"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock a test sets.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

var t0 = time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)

// windowAdd is a key and when it was added.
type windowAdd struct {
	key uint64
	at  time.Time
}

// TestWindowGuarantee runs a steady stream of n keys per window, added in
// batches (by Add and AddAll) every quarter generation over five windows,
// with a fake clock. After each batch: every key added less than a window
// ago is found, by Has and HasAll; of the keys added more than window +
// window/g ago, and of fresh keys never added, the fraction found is within
// 5 standard deviations (binomial) of at most fpr.
func TestWindowGuarantee(t *testing.T) {
	const (
		n      = 4000
		fpr    = 0.02
		window = time.Hour
	)
	for _, g := range []int{1, 2, 4, 7} {
		clock := &fakeClock{t: t0}
		w, err := NewWindow[uint64](n, fpr, window, WithGenerations(g), WithClock(clock.now))
		if err != nil {
			t.Fatal(err)
		}
		span := window / time.Duration(g)
		step := span / 4
		perStep := n / (4 * g)
		var adds []windowAdd
		next := uint64(1)
		fresh := uint64(1 << 40)
		worst := 0.0
		var allHits, allProbes int // after the first window, when every generation has its keys
		for step0 := 0; time.Duration(step0)*step < 5*window; step0++ {
			clock.t = t0.Add(time.Duration(step0)*step + step/3)
			batch := make([]uint64, perStep)
			for i := range batch {
				batch[i] = next
				adds = append(adds, windowAdd{next, clock.t})
				next++
			}
			if step0%2 == 0 {
				w.AddAll(batch)
			} else {
				for _, k := range batch {
					w.Add(k)
				}
			}
			// Look a little later, up to just before the next batch.
			for _, later := range []time.Duration{0, step - 1} {
				clock.t = clock.t.Add(later)
				var young, old []uint64
				for _, a := range adds {
					age := clock.t.Sub(a.at)
					switch {
					case age < window:
						young = append(young, a.key)
					case age >= window+span:
						old = append(old, a.key)
					}
				}
				out := make([]bool, len(young))
				if got := w.HasAll(young, out); got != len(young) {
					t.Fatalf("g=%d at %v: HasAll finds %d of %d keys added within the window", g, clock.t.Sub(t0), got, len(young))
				}
				for _, k := range young[:min(len(young), 200)] {
					if !w.Has(k) {
						t.Fatalf("g=%d at %v: key %d added within the window not found", g, clock.t.Sub(t0), k)
					}
				}
				probe := make([]uint64, 3000)
				for i := range probe {
					probe[i] = fresh
					fresh++
				}
				probe = append(probe, old...)
				pout := make([]bool, len(probe))
				hits := w.HasAll(probe, pout)
				n := 0
				for i, k := range probe {
					if pout[i] {
						n++
					}
					if i%7 == 0 && pout[i] != w.Has(k) {
						t.Fatalf("g=%d: HasAll says %v for key %d, Has %v", g, pout[i], k, !pout[i])
					}
				}
				if n != hits {
					t.Fatalf("g=%d: HasAll returns %d, sets %d", g, hits, n)
				}
				m := float64(len(probe))
				rate := float64(hits) / m
				worst = max(worst, rate)
				if clock.t.Sub(t0) > window+span {
					allHits += hits
					allProbes += len(probe)
				}
				if bound := fpr + 5*math.Sqrt(fpr*(1-fpr)/m); rate > bound {
					t.Fatalf("g=%d at %v: %d of %d keys never added or forgotten found (%.4f, bound %.4f); estimated %.4f",
						g, clock.t.Sub(t0), hits, len(probe), rate, bound, w.EstimatedFPR())
				}
				if e := w.EstimatedFPR(); e > fpr*1.1 {
					t.Fatalf("g=%d at %v: EstimatedFPR %v above %v with the planned keys", g, clock.t.Sub(t0), e, fpr)
				}
			}
		}
		m := float64(allProbes)
		mean := float64(allHits) / m
		if bound := fpr + 5*math.Sqrt(fpr*(1-fpr)/m); mean > bound {
			t.Errorf("g=%d: over all moments, %.5f of the keys never added or forgotten found (bound %.5f)", g, mean, bound)
		}
		t.Logf("g=%d: %d generations of %d bytes, measured rate %.4f overall, %.4f at worst", g, g+1, w.NumBits()/8/uint64(g+1), mean, worst)
	}
}

// TestWindowForgets: a key is found until the last nanosecond before
// t + window, and not (its bits gone) from t + window + window/g, even
// with no call in between.
func TestWindowForgets(t *testing.T) {
	const g = 4
	for _, at := range []time.Duration{0, time.Minute, 14*time.Minute + 59*time.Second, 15 * time.Minute, 37 * time.Minute} {
		clock := &fakeClock{t: t0}
		w, _ := NewWindow[string](1000, 1e-6, time.Hour, WithGenerations(g), WithClock(clock.now))
		clock.t = t0.Add(at)
		w.Add("k")
		clock.t = t0.Add(at + time.Hour - 1)
		if !w.Has("k") {
			t.Fatalf("added at %v: not found a nanosecond before the window ends", at)
		}
		clock.t = t0.Add(at + time.Hour + time.Hour/g)
		if w.Has("k") {
			t.Fatalf("added at %v: still found window + window/g later", at)
		}
		w.Add("other") // rotates: clears the generation of k
		if w.Has("k") || w.FillRatio() == 0 {
			t.Fatalf("added at %v: found after rotation, or fill %v", at, w.FillRatio())
		}
	}
}

// TestWindowClockJumps: a clock that goes backwards (before the origin
// too) keeps every key, one that goes far forwards and back never panics,
// and keys are found for a window after the latest time they were added at
// by the clock.
func TestWindowClockJumps(t *testing.T) {
	clock := &fakeClock{t: t0}
	w, _ := NewWindow[int](1000, 0.01, time.Minute, WithClock(clock.now))
	w.Add(1)
	clock.t = t0.Add(-72 * time.Hour) // backwards, before the origin
	w.Add(2)
	if !w.Has(1) || !w.Has(2) {
		t.Fatal("a key lost when the clock went backwards")
	}
	clock.t = t0.Add(59 * time.Second)
	w.Add(3)
	if !w.Has(1) || !w.Has(2) || !w.Has(3) {
		t.Fatal("a key lost when the clock came back")
	}
	for _, far := range []time.Time{t0.Add(math.MaxInt64), time.Unix(1<<62, 0), time.Unix(-1<<62, 0), {}, t0.Add(math.MinInt64)} {
		clock.t = far
		w.Has(1)
		w.HasAll([]int{1, 2}, make([]bool, 2))
		w.Add(4)
		w.EstimatedFPR()
		if !w.Has(4) {
			t.Fatalf("at %v: key just added not found", far)
		}
	}
	// After the far future, the past: the keys of the far future stay.
	clock.t = t0
	if !w.Has(4) {
		t.Fatal("key added in the far future lost when the clock came back")
	}
}

// TestWindowZero: the zero Window holds nothing and its mutations panic
// naming NewWindow.
func TestWindowZero(t *testing.T) {
	var w Window[string]
	if w.Has("a") || w.HasAll([]string{"a"}, []bool{true}) != 0 || w.FillRatio() != 0 || w.EstimatedFPR() != 0 || w.NumBits() != 0 {
		t.Fatal("zero Window answers something")
	}
	w.Clear()
	if _, err := w.MarshalBinary(); !errors.Is(err, ErrGeometry) {
		t.Fatalf("zero Window MarshalBinary: %v", err)
	}
	if _, err := w.WriteTo(new(bytes.Buffer)); !errors.Is(err, ErrGeometry) {
		t.Fatalf("zero Window WriteTo: %v", err)
	}
	for name, fn := range map[string]func(){"Add": func() { w.Add("a") }, "AddAll": func() { w.AddAll([]string{"a"}) }} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "NewWindow") {
					t.Errorf("%s on the zero Window: panic %v, want one naming NewWindow", name, r)
				}
			}()
			fn()
		}()
	}
}

// TestWindowOptions: bad arguments are the errors NewWindow documents.
func TestWindowOptions(t *testing.T) {
	for _, c := range []struct {
		n      uint64
		fpr    float64
		window time.Duration
		opts   []WindowOption
		want   error
	}{
		{0, 0.01, time.Hour, nil, ErrKeys},
		{10, 0, time.Hour, nil, ErrFPR},
		{10, math.NaN(), time.Hour, nil, ErrFPR},
		{10, 0.01, 0, nil, ErrOption},
		{10, 0.01, -time.Hour, nil, ErrOption},
		{10, 0.01, 3 * time.Microsecond, nil, ErrOption},
		{10, 0.01, time.Hour, []WindowOption{WithGenerations(0)}, ErrOption},
		{10, 0.01, time.Hour, []WindowOption{WithGenerations(64)}, ErrOption},
		{10, 0.01, time.Hour, []WindowOption{WithClock(nil)}, ErrOption},
		{10, 0.01, time.Hour, []WindowOption{{}}, ErrOption},
		{1 << 62, 1e-12, time.Hour, nil, ErrTooLarge},
	} {
		if _, err := NewWindow[int](c.n, c.fpr, c.window, c.opts...); !errors.Is(err, c.want) {
			t.Errorf("NewWindow(%d, %v, %v): %v, want %v", c.n, c.fpr, c.window, err, c.want)
		}
	}
	w, err := NewWindow[int](10, 0.01, 4*time.Microsecond, WithGenerations(4))
	if err != nil || w.NumBits() == 0 {
		t.Errorf("a microsecond per generation: %v", err)
	}
}

// TestWindowEncoding: MarshalBinary, AppendBinary and WriteTo agree; a
// decoded Window answers as the original at every time, with its
// receiver's clock; every truncation and every flipped byte is an error of
// the format, and leaves the receiver unchanged; the other key family is
// ErrHashMismatch.
func TestWindowEncoding(t *testing.T) {
	clock := &fakeClock{t: t0}
	w, _ := NewWindow[string](500, 0.01, time.Hour, WithGenerations(3), WithClock(clock.now))
	keys := []string{"a", "b", "c", "d", "e"}
	for i, k := range keys {
		clock.t = t0.Add(time.Duration(i) * 17 * time.Minute)
		w.Add(k)
	}
	b, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if n, err := w.WriteTo(&buf); err != nil || n != int64(len(b)) || !bytes.Equal(buf.Bytes(), b) {
		t.Fatalf("WriteTo: %d, %v; differs from MarshalBinary", n, err)
	}
	if a, _ := w.AppendBinary([]byte("xy")); !bytes.Equal(a[2:], b) {
		t.Fatal("AppendBinary differs from MarshalBinary")
	}
	c2 := &fakeClock{}
	d, _ := NewWindow[string](1, 0.5, time.Second, WithClock(c2.now))
	if err := d.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	var r Window[string]
	if n, err := r.ReadFrom(bytes.NewReader(b)); err != nil || n != int64(len(b)) {
		t.Fatalf("ReadFrom: %d, %v", n, err)
	}
	for at := time.Duration(0); at < 3*time.Hour; at += 7 * time.Minute {
		clock.t, c2.t = t0.Add(at), t0.Add(at)
		for _, k := range append(keys, "never") {
			want := w.Has(k)
			if d.Has(k) != want {
				t.Fatalf("at %v: decoded Has(%q) = %v, want %v", at, k, !want, want)
			}
		}
	}
	var s Window[string]
	if err := s.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !s.equal(w) || !d.equal(w) || !w.clone().equal(w) || s.equal(nil) || !new(Window[string]).equal(new(Window[string])) {
		t.Fatal("a decoded or cloned Window is not Equal to its original")
	}
	cl := w.clone()
	cl.Add("only in the clone")
	if w.Has("only in the clone") || cl.equal(w) {
		t.Fatal("a Clone shares bits with its original")
	}
	for _, x := range []*Window[string]{&s, &r} { // these read time.Now
		if again, _ := x.MarshalBinary(); !bytes.Equal(again, b) {
			t.Fatal("decoded Window encodes differently")
		}
	}
	var u Window[uint64]
	if err := u.UnmarshalBinary(b); !errors.Is(err, ErrHashMismatch) {
		t.Fatalf("Window[string] read as Window[uint64]: %v", err)
	}
	before, _ := d.MarshalBinary()
	for i := 0; i < len(b); i += max(1, len(b)/997) {
		for _, bad := range [][]byte{b[:i], flip(b, i)} {
			if err := d.UnmarshalBinary(bad); err == nil || !isFormatError(err) {
				t.Fatalf("damaged at %d (len %d): %v", i, len(bad), err)
			}
		}
	}
	if after, _ := d.MarshalBinary(); !bytes.Equal(before, after) {
		t.Fatal("a failed decode changed the receiver")
	}
}

// flip returns a copy of b with byte i changed.
func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x5a
	return c
}

// TestWindowMostGenerations: with the most generations WithGenerations
// allows, a key added in each of g+1 consecutive generations is found by
// Has and HasAll while it is younger than the window, whichever slot holds
// it (the lookups keep one bit per slot).
func TestWindowMostGenerations(t *testing.T) {
	const g = format.WindowMaxGenerations
	clock := &fakeClock{t: t0}
	w, err := NewWindow[uint64](100*g, 0.01, time.Hour, WithGenerations(g), WithClock(clock.now))
	if err != nil {
		t.Fatal(err)
	}
	span := time.Hour / g
	var keys []uint64
	for e := range 3 * (g + 1) {
		clock.t = t0.Add(time.Duration(e)*span + span/2)
		w.Add(uint64(e))
		keys = append(keys, uint64(e))
		young := keys[max(0, len(keys)-g):] // added less than g spans (the window) ago
		out := make([]bool, len(young))
		if got := w.HasAll(young, out); got != len(young) {
			t.Fatalf("generation %d: HasAll finds %d of the %d keys added within the window", e, got, len(young))
		}
		for _, k := range young {
			if !w.Has(k) {
				t.Fatalf("generation %d (slot %d): Has misses key %d, added in generation %d, within the window", e, e%(g+1), k, k)
			}
		}
	}
}
