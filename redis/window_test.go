package sbredis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
)

// runWindowSuite runs the Window tests against one client (a single server
// or the cluster).
func runWindowSuite(t *testing.T, c redis.UniversalClient, addrs []string) {
	t.Run("WindowSameAsBloom", func(t *testing.T) { testWindowSameAsBloom(t, c) })
	t.Run("WindowShared", func(t *testing.T) { testWindowShared(t, c, addrs) })
	t.Run("WindowLost", func(t *testing.T) { testWindowLost(t, c) })
	t.Run("WindowSkew", func(t *testing.T) { testWindowSkew(t, c) })
	t.Run("WindowBadInput", func(t *testing.T) { testWindowBadInput(t, c) })
}

// fakeClock is a clock the test sets; it starts in the future (Redis
// expires the generations by its own clock, which must not reach them
// during the test).
type fakeClock struct{ ns atomic.Int64 }

func (c *fakeClock) now() time.Time      { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) set(t time.Time)     { c.ns.Store(t.UnixNano()) }
func (c *fakeClock) add(d time.Duration) { c.ns.Add(int64(d)) }
func alignedFuture(span time.Duration) time.Time {
	now := time.Now().UnixNano()
	return time.Unix(0, (now/int64(span)+2)*int64(span))
}

// sameGenerations checks that every generation of w that bloom's lw keeps
// (lw's newest is newest, the generation of its last add) holds exactly lw's bits (nothing in Redis for an empty one), and that
// Redis expires each shard and marker when expireAt says.
func sameGenerations[K bloom.Key](t *testing.T, w *Window[K], lw *bloom.Window[K], e0, newest int64) {
	t.Helper()
	ctx := context.Background()
	enc, err := lw.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	g := w.f.g
	slots := int64(w.gens + 1)
	if want := uint64(slots) * g.blocks * 512; lw.NumBits() != want {
		t.Fatalf("bloom.Window has %d bits, the sbredis generations %d: the sizing differs", lw.NumBits(), want)
	}
	slotBytes := 64 + int(g.blocks)*64
	for e := max(newest-w.gens, e0); e <= newest; e++ {
		s := int((e - e0) % slots)
		local := enc[128+s*slotBytes : 128+(s+1)*slotBytes]
		var got []byte
		exists := false
		for i := range g.shards {
			key := w.shardKey(e, i)
			b, err := w.f.c.Get(ctx, key).Bytes()
			if errors.Is(err, redis.Nil) {
				if exists {
					t.Fatalf("generation %d: shard %d missing, others not", e, i)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			exists = true
			if i == 0 && g.shards == 1 && string(b[:64]) != w.header {
				t.Fatalf("generation %d: header is not the encoding's", e)
			}
			got = append(got, b[g.dataOff():]...)
			want := time.Unix(0, (e+w.gens+1)*int64(w.span)+int64(w.skew))
			wantMs := int64(math.Ceil(float64(want.UnixNano()) / 1e6))
			for _, k := range []string{key, key + ":m"} {
				at, err := w.f.c.Do(ctx, "PEXPIRETIME", k).Int64()
				if err != nil || at != wantMs {
					t.Fatalf("PEXPIRETIME %s = %d (%v), want %d", k, at, err, wantMs)
				}
			}
		}
		if !exists {
			if !allZero(local[64:]) {
				t.Fatalf("generation %d is not in Redis, but bloom's has bits", e)
			}
			continue
		}
		if !bytes.Equal(got, local[64:]) {
			t.Fatalf("generation %d differs from bloom.Window's", e)
		}
	}
}

// testWindowSameAsBloom runs a Window and a bloom.Window on one fake
// clock through three windows of adds, and checks at every step that they
// answer alike for every key, that no key answers false within the window
// after its add, that keys older than window + window/g are forgotten, and
// that the generations hold the same bits.
func testWindowSameAsBloom(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	for _, tc := range []struct {
		g      int
		window time.Duration
		shard  uint64
	}{{4, 40 * time.Second, DefaultShardBytes}, {3, 30*time.Second + 7, 256}} {
		t.Run(fmt.Sprint(tc.g, tc.window, tc.shard), func(t *testing.T) {
			const n = 1000
			span := (tc.window + time.Duration(tc.g) - 1) / time.Duration(tc.g)
			var clk fakeClock
			base := alignedFuture(span)
			clk.set(base)
			w, err := NewWindow[string](ctx, c, uniqueName(t), n, 0.01, tc.window,
				WithGenerations(tc.g), WithClock(clk.now), WithShardBytes(tc.shard))
			if err != nil {
				t.Fatal(err)
			}
			if tc.shard == 256 && w.f.g.shards < 2 {
				t.Fatalf("%d shards", w.f.g.shards)
			}
			lw, err := bloom.NewWindow[string](n, 0.01, tc.window, bloom.WithGenerations(tc.g), bloom.WithClock(clk.now))
			if err != nil {
				t.Fatal(err)
			}
			if w.NumBits() != lw.NumBits() {
				t.Fatalf("NumBits %d, bloom.Window's %d", w.NumBits(), lw.NumBits())
			}
			e0 := w.generation(base)
			type added struct {
				k string
				t time.Time
			}
			var all []added
			never := keys("never", 300)
			forgotten, forgottenTrue := 0, 0
			step := span / 4
			for i := range 3 * 4 * tc.g {
				ks := keys(fmt.Sprint("w", i), 40)
				if i%3 == 0 {
					for _, k := range ks {
						if err := w.Add(ctx, k); err != nil {
							t.Fatal(err)
						}
						lw.Add(k)
					}
				} else {
					if err := w.AddAll(ctx, ks); err != nil {
						t.Fatal(err)
					}
					lw.AddAll(ks)
				}
				for _, k := range ks {
					all = append(all, added{k, clk.now()})
				}
				clk.add(step)
				now := clk.now()
				probe := append([]string(nil), never...)
				for _, a := range all {
					probe = append(probe, a.k)
				}
				out := make([]bool, len(probe))
				want := make([]bool, len(probe))
				got, err := w.HasAll(ctx, probe, out)
				if err != nil {
					t.Fatal(err)
				}
				if wn := lw.HasAll(probe, want); got != wn {
					t.Fatalf("step %d: HasAll counted %d, bloom.Window %d", i, got, wn)
				}
				for j, k := range probe {
					if out[j] != want[j] {
						t.Fatalf("step %d: HasAll(%q) = %v, bloom.Window %v", i, k, out[j], want[j])
					}
				}
				for j, a := range all {
					o := out[len(never)+j]
					if now.Before(a.t.Add(tc.window)) && !o {
						t.Fatalf("step %d: %q added %v ago answers false within the window %v", i, a.k, now.Sub(a.t), tc.window)
					}
					if !now.Before(a.t.Add(tc.window + span)) {
						forgotten++
						forgottenTrue += int(b2i(o))
					}
				}
				if i%5 == 0 {
					k := all[len(all)-1].k
					if ok, err := w.Has(ctx, k); !ok || err != nil {
						t.Fatalf("Has(%q) = %v, %v just after its add", k, ok, err)
					}
					sameGenerations(t, w, lw, e0, w.generation(all[len(all)-1].t))
				}
			}
			sameGenerations(t, w, lw, e0, w.generation(all[len(all)-1].t))
			if forgotten < 1000 || float64(forgottenTrue) > 0.05*float64(forgotten) {
				t.Fatalf("%d of %d lookups of keys older than the window and a generation answered true", forgottenTrue, forgotten)
			}
			t.Logf("%d of %d lookups of forgotten keys true", forgottenTrue, forgotten)
		})
	}
}

// testWindowShared has several clients, each with its own connection,
// make the same window with NewWindow at once and add keys to the same
// generations, racing to make them: every key is then found by another
// client, and the generations hold the bits of a bloom.Window that had
// every key.
func testWindowShared(t *testing.T, c redis.UniversalClient, addrs []string) {
	ctx := context.Background()
	const n, workers, per = 20000, 4, 1500
	window := time.Minute
	var clk fakeClock
	base := alignedFuture(window / 4)
	clk.set(base)
	name := uniqueName(t)
	ks := keys("shared", workers*per)
	lw, _ := bloom.NewWindow[string](n, 0.001, window, bloom.WithClock(clk.now))
	for round := range 2 {
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for i := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cl := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs})
				defer cl.Close()
				w, err := NewWindow[string](ctx, cl, name, n, 0.001, window, WithClock(clk.now), WithShardBytes(4096))
				if err != nil {
					errs <- err
					return
				}
				mine := ks[i*per : (i+1)*per]
				if round == 1 {
					mine = mine[:per/2]
				}
				errs <- w.AddAll(ctx, mine)
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		for i := range workers {
			if round == 0 {
				lw.AddAll(ks[i*per : (i+1)*per])
			} else {
				lw.AddAll(ks[i*per : i*per+per/2])
			}
		}
		w, err := NewWindow[string](ctx, c, name, n, 0.001, window, WithClock(clk.now), WithShardBytes(4096))
		if err != nil {
			t.Fatal(err)
		}
		if w.f.g.shards < 2 {
			t.Fatalf("%d shards", w.f.g.shards)
		}
		out := make([]bool, len(ks))
		if got, err := w.HasAll(ctx, ks, out); err != nil || got != len(ks) {
			t.Fatalf("round %d: %d of %d keys found (%v)", round, got, len(ks), err)
		}
		sameGenerations(t, w, lw, w.generation(base), w.generation(clk.now()))
		clk.add(window / 4) // the second round makes a new generation
	}
	// Other parameters at the name, another key type, a Filter's name.
	if _, err := NewWindow[string](ctx, c, name, n, 0.001, 2*window, WithClock(clk.now), WithShardBytes(4096)); !errors.Is(err, bloom.ErrGeometry) {
		t.Errorf("NewWindow of another window at the name: %v, want ErrGeometry", err)
	}
	if _, err := NewWindow[string](ctx, c, name, n, 0.001, window, WithClock(clk.now), WithGenerations(2), WithShardBytes(4096)); !errors.Is(err, bloom.ErrGeometry) {
		t.Errorf("NewWindow of other generations at the name: %v, want ErrGeometry", err)
	}
	if _, err := NewWindow[uint64](ctx, c, name, n, 0.001, window, WithClock(clk.now), WithShardBytes(4096)); !errors.Is(err, bloom.ErrHashMismatch) {
		t.Errorf("NewWindow[uint64] at a string window: %v, want ErrHashMismatch", err)
	}
	if _, err := New[string](ctx, c, name, n, 0.001); !errors.Is(err, bloom.ErrMagic) {
		t.Errorf("New at a window's name: %v, want ErrMagic", err)
	}
	f, err := New[string](ctx, c, uniqueName(t), n, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewWindow[string](ctx, c, f.Name(), n, 0.001, window); !errors.Is(err, bloom.ErrMagic) {
		t.Errorf("NewWindow at a Filter's name: %v, want ErrMagic", err)
	}
	c.RPush(ctx, "list-"+name, "x")
	if _, err := NewWindow[string](ctx, c, "list-"+name, n, 0.001, window); !errors.Is(err, bloom.ErrMagic) {
		t.Errorf("NewWindow at a list: %v, want ErrMagic", err)
	}
}

// testWindowSkew shares a window between a process whose clock is ahead
// (by less than the skew) and one behind: the one ahead adds to a
// generation the other has not reached, and the one behind finds its keys
// anyway, at every moment until the window ends by the adder's clock.
func testWindowSkew(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	window, skew := time.Minute, 500*time.Millisecond
	span := window / 4
	var ahead, behind fakeClock
	boundary := alignedFuture(span)
	name := uniqueName(t)
	wa, err := NewWindow[string](ctx, c, name, 1000, 0.01, window, WithClock(ahead.now), WithClockSkew(skew))
	if err != nil {
		t.Fatal(err)
	}
	wb, err := NewWindow[string](ctx, c, name, 1000, 0.01, window, WithClock(behind.now), WithClockSkew(skew))
	if err != nil {
		t.Fatal(err)
	}
	ks := keys("skew", 100)
	for i, k := range ks {
		at := boundary.Add(time.Duration(i-50) * skew / 100) // half before the boundary, half after
		ahead.set(at)
		if err := wa.Add(ctx, k); err != nil {
			t.Fatal(err)
		}
		for _, back := range []time.Duration{skew - 1, 0} {
			for _, later := range []time.Duration{0, window / 2, window - skew - 1} {
				behind.set(at.Add(-back + later))
				if ok, err := wb.Has(ctx, k); !ok || err != nil {
					t.Fatalf("a clock %v behind, %v after the add: Has = %v, %v", back, later, ok, err)
				}
			}
		}
	}
}

// testWindowLost damages a window's keys in each way and checks that
// lookups and adds fail with ErrShard instead of answering "absent", and
// that nothing is recreated.
func testWindowLost(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	window := time.Minute
	for _, d := range []string{"shard deleted", "shard shortened", "shard a list", "marker deleted", "record deleted", "older shard deleted"} {
		t.Run(d, func(t *testing.T) {
			var clk fakeClock
			clk.set(alignedFuture(window / 4))
			w, err := NewWindow[string](ctx, c, uniqueName(t), 1000, 0.01, window, WithClock(clk.now))
			if err != nil {
				t.Fatal(err)
			}
			ks := keys("lost", 200)
			e := w.generation(clk.now())
			if err := w.AddAll(ctx, ks); err != nil {
				t.Fatal(err)
			}
			if d == "older shard deleted" {
				clk.add(window / 2) // the generation is two old, still in the window
			}
			victim := w.shardKey(e, 0)
			switch d {
			case "shard deleted", "older shard deleted":
				c.Del(ctx, victim)
			case "shard shortened":
				c.Do(ctx, "SET", victim, "short", "KEEPTTL")
			case "shard a list":
				c.Del(ctx, victim)
				c.RPush(ctx, victim, "x")
			case "marker deleted":
				c.Del(ctx, victim+":m")
			case "record deleted":
				c.Del(ctx, w.Name())
			}
			lookupsFail := d != "marker deleted" // the shard is whole: lookups read it
			ok, err := w.Has(ctx, ks[0])
			if lookupsFail && (ok || !errors.Is(err, ErrShard) || !errors.Is(err, bloom.ErrCorrupt)) {
				t.Errorf("Has: %v, %v; want false and ErrShard", ok, err)
			}
			if !lookupsFail && (!ok || err != nil) {
				t.Errorf("Has with the shard whole: %v, %v", ok, err)
			}
			out := make([]bool, len(ks))
			if _, err := w.HasAll(ctx, ks, out); lookupsFail != errors.Is(err, ErrShard) {
				t.Errorf("HasAll: %v", err)
			}
			if d == "record deleted" || d == "older shard deleted" {
				return // adds go to the newest generation, which is whole
			}
			if err := w.Add(ctx, ks[0]); !errors.Is(err, ErrShard) {
				t.Errorf("Add: %v, want ErrShard", err)
			}
			if err := w.AddAll(ctx, ks); !errors.Is(err, ErrShard) {
				t.Errorf("AddAll: %v, want ErrShard", err)
			}
			switch d {
			case "shard deleted":
				if n, _ := c.Exists(ctx, victim).Result(); n != 0 {
					t.Error("an add recreated the deleted shard")
				}
			case "marker deleted":
				if n, _ := c.Exists(ctx, victim+":m").Result(); n != 0 {
					t.Error("an add recreated the deleted marker")
				}
			case "shard a list":
				if typ, _ := c.Type(ctx, victim).Result(); typ != "list" {
					t.Errorf("the shard is now a %s", typ)
				}
			}
		})
	}
	// A clock far behind the server's: the generation would expire at once.
	var clk fakeClock
	clk.set(time.Now().Add(-time.Hour))
	w, err := NewWindow[string](ctx, c, uniqueName(t), 1000, 0.01, window, WithClock(clk.now))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(ctx, "late"); err == nil {
		t.Error("Add with a clock an hour late: no error")
	}
	if n, _ := c.Exists(ctx, w.shardKey(w.generation(clk.now()), 0)).Result(); n != 0 {
		t.Error("Add with a clock an hour late made a generation")
	}
}

func testWindowBadInput(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	for _, tc := range []struct {
		n      uint64
		fpr    float64
		window time.Duration
		g      int
	}{
		{0, 0.01, time.Hour, 4}, {100, 0, time.Hour, 4}, {100, 1, time.Hour, 4}, {100, math.NaN(), time.Hour, 4},
		{100, 0.01, time.Hour, 0}, {100, 0.01, time.Hour, 65}, {100, 0.01, 3 * time.Microsecond, 4},
		{100, 0.01, -time.Second, 4}, {1 << 62, 1e-300, time.Hour, 1},
	} {
		_, want := bloom.NewWindow[string](tc.n, tc.fpr, tc.window, bloom.WithGenerations(tc.g))
		_, err := NewWindow[string](ctx, c, uniqueName(t), tc.n, tc.fpr, tc.window, WithGenerations(tc.g))
		if want == nil || err == nil {
			t.Fatalf("NewWindow(%d, %v, %v, g %d) = %v, bloom.NewWindow %v", tc.n, tc.fpr, tc.window, tc.g, err, want)
		}
		matched := false
		for _, e := range []error{bloom.ErrKeys, bloom.ErrFPR, bloom.ErrOption, bloom.ErrTooLarge} {
			if errors.Is(want, e) {
				matched = errors.Is(err, e)
			}
		}
		if !matched {
			t.Errorf("NewWindow(%d, %v, %v, g %d): %v; bloom.NewWindow: %v", tc.n, tc.fpr, tc.window, tc.g, err, want)
		}
	}
	for _, o := range []Option{WithClock(nil), WithClockSkew(-1), WithClockSkew(16 * time.Minute), WithShardBytes(10), WithWaitReplicas(0, 1)} {
		if _, err := NewWindow[string](ctx, c, uniqueName(t), 100, 0.01, time.Hour, o); !errors.Is(err, bloom.ErrOption) {
			t.Errorf("NewWindow with a bad option: %v, want ErrOption", err)
		}
	}
	for _, name := range []string{"", "a{b", "a}b"} {
		if _, err := NewWindow[string](ctx, c, name, 100, 0.01, time.Hour); !errors.Is(err, bloom.ErrOption) {
			t.Errorf("NewWindow(name %q): %v, want ErrOption", name, err)
		}
	}
	for _, o := range []Option{WithGenerations(2), WithClock(time.Now), WithClockSkew(0)} {
		if _, err := New[string](ctx, c, uniqueName(t), 100, 0.01, o); !errors.Is(err, bloom.ErrOption) {
			t.Errorf("New with a window's option: %v, want ErrOption", err)
		}
	}
	f, err := New[string](ctx, c, uniqueName(t), 100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Configure(WithGenerations(2)); !errors.Is(err, bloom.ErrOption) {
		t.Errorf("Configure(WithGenerations): %v, want ErrOption", err)
	}
	// A cancelled context: no round trip, an error.
	w, err := NewWindow[string](ctx, c, uniqueName(t), 100, 0.01, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if ok, err := w.Has(cctx, "a"); ok || !errors.Is(err, context.Canceled) {
		t.Errorf("Has: %v %v", ok, err)
	}
	if err := w.Add(cctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("Add: %v", err)
	}
	if _, err := NewWindow[string](cctx, c, uniqueName(t), 100, 0.01, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("NewWindow: %v", err)
	}
	if n, err := w.HasAll(ctx, nil, nil); n != 0 || err != nil {
		t.Errorf("HasAll of no keys: %d, %v", n, err)
	}
	if err := w.AddAll(ctx, nil); err != nil {
		t.Errorf("AddAll of no keys: %v", err)
	}
}

// TestWindowExpires runs a real window of a second on the real clock: a key
// answers true until a second after its add, Redis deletes the generation
// by itself when its expiry comes, and lookups then answer false without
// an error. (About 1.6 s.)
func TestWindowExpires(t *testing.T) {
	s := startServer(t)
	c := s.client(t)
	ctx := context.Background()
	window := time.Second
	w, err := NewWindow[string](ctx, c, uniqueName(t), 1000, 0.01, window, WithGenerations(2), WithClockSkew(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	if err := w.Add(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	e := w.generation(before)
	key := w.shardKey(e, 0)
	if n, _ := c.Exists(ctx, key).Result(); n != 1 {
		// The add was at the next generation's start: look there.
		e++
		key = w.shardKey(e, 0)
	}
	expire := time.UnixMilli(w.expireAt(e))
	for {
		now := time.Now()
		ok, err := w.Has(ctx, "k")
		if err != nil {
			t.Fatal(err)
		}
		after := time.Now()
		if after.Before(before.Add(window)) && !ok {
			t.Fatalf("the key answers false %v after its add, within the window", now.Sub(before))
		}
		n, err := c.Exists(ctx, key, key+":m").Result()
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			if time.Now().Before(expire.Add(-50 * time.Millisecond)) {
				t.Fatalf("Redis deleted the generation at %v, before its expiry %v", time.Now(), expire)
			}
			if ok, err := w.Has(ctx, "k"); ok || err != nil {
				t.Fatalf("after its generation expired the key answers %v, %v", ok, err)
			}
			break
		}
		if now.After(expire.Add(2 * time.Second)) {
			t.Fatalf("Redis kept the generation %v past its expiry", now.Sub(expire))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWindowSizeIsBloom checks windowSize, a copy of bloom's unexported
// sizing, against the generations bloom.NewWindow makes: the same blocks
// and k.
func TestWindowSizeIsBloom(t *testing.T) {
	for _, n := range []uint64{1, 3, 1000, 123457} {
		for _, fpr := range []float64{0.5, 0.01, 1e-6} {
			for _, g := range []int{1, 3, 4, 63} {
				lw, err := bloom.NewWindow[string](n, fpr, time.Hour, bloom.WithGenerations(g))
				if err != nil {
					t.Fatal(err)
				}
				enc, err := lw.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				sz, err := windowSize(n, fpr, g)
				if err != nil {
					t.Fatal(err)
				}
				var v blocked.Filter
				if err := v.UnmarshalBinary(enc[128 : 128+64+sz.Bytes]); err != nil {
					t.Fatalf("n %d fpr %v g %d: %v", n, fpr, g, err)
				}
				if v.NumBlocks() != sz.Blocks || v.K() != sz.K || lw.NumBits() != uint64(g+1)*sz.Bytes*8 {
					t.Fatalf("n %d fpr %v g %d: bloom's generations have %d blocks, k %d (%d bits in all); windowSize %d blocks, k %d",
						n, fpr, g, v.NumBlocks(), v.K(), lw.NumBits(), sz.Blocks, sz.K)
				}
			}
		}
	}
}
