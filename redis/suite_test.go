package sbredis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
)

// The suite runs every test of a shared filter against one client: a single
// server (TestSingleServer) and a 3-master cluster (TestCluster).
func runSuite(t *testing.T, c redis.UniversalClient, addrs []string) {
	t.Run("EqualsLocalFilter", func(t *testing.T) { testEqualsLocal(t, c) })
	t.Run("OneShardIsAnEncoding", func(t *testing.T) { testOneShardEncoding(t, c) })
	t.Run("IntegerKeys", func(t *testing.T) { testIntegerKeys(t, c) })
	t.Run("BadInput", func(t *testing.T) { testBadInput(t, c) })
	t.Run("ForeignKeys", func(t *testing.T) { testForeignKeys(t, c) })
	t.Run("ShardFaults", func(t *testing.T) { testShardFaults(t, c) })
	t.Run("RecreatedShard", func(t *testing.T) { testRecreatedShard(t, c) })
	t.Run("NoTemporaryKeysLeft", func(t *testing.T) {
		if n := keysMatching(t, c, "*:merge:*"); len(n) != 0 {
			t.Errorf("failed Merges left temporary keys %v", n)
		}
	})
	t.Run("ConcurrentAdders", func(t *testing.T) { testConcurrentAdders(t, c, addrs) })
	t.Run("Merge", func(t *testing.T) { testMerge(t, c) })
	t.Run("Replica", func(t *testing.T) { testReplica(t, c) })
	t.Run("ContextCancelled", func(t *testing.T) { testCancelled(t, c) })
	runWindowSuite(t, c, addrs)
}

func keys(prefix string, n int) []string {
	ks := make([]string, n)
	for i := range ks {
		ks[i] = fmt.Sprintf("%s-%08d-%s", prefix, i, bytes.Repeat([]byte{'x'}, i%50))
	}
	return ks
}

// sameAsLocal checks f against a local filter holding the same keys: the
// Snapshot equals it bit for bit, and Has and HasAll give its answers
// (which are the same bits) for added and other keys.
func sameAsLocal[K bloom.Key](t *testing.T, f *Filter[K], local *bloom.Filter[K], probe []K) {
	t.Helper()
	ctx := context.Background()
	snap, err := f.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Engine().Equal(local.Engine()) {
		a, _ := snap.MarshalBinary()
		b, _ := local.MarshalBinary()
		diff := 0
		for i := range a {
			if a[i] != b[i] {
				diff++
			}
		}
		t.Fatalf("Snapshot differs from the local filter in %d of %d bytes", diff, len(a))
	}
	out := make([]bool, len(probe))
	n, err := f.HasAll(ctx, probe, out)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]bool, len(probe))
	wn := local.HasAll(probe, want)
	if n != wn {
		t.Errorf("HasAll counted %d, the local filter %d", n, wn)
	}
	for i, k := range probe {
		if out[i] != want[i] {
			t.Fatalf("HasAll(%v) = %v, local %v", k, out[i], want[i])
		}
		if i%97 == 0 {
			ok, err := f.Has(ctx, k)
			if err != nil || ok != want[i] {
				t.Fatalf("Has(%v) = %v, %v; local %v", k, ok, err, want[i])
			}
		}
	}
}

func testEqualsLocal(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	for _, shardBytes := range []uint64{DefaultShardBytes, 4096, 1000} {
		t.Run(fmt.Sprint(shardBytes), func(t *testing.T) {
			const n = 20000
			f, err := New[string](ctx, c, uniqueName(t), n, 0.01, WithShardBytes(shardBytes))
			if err != nil {
				t.Fatal(err)
			}
			local, _ := bloom.New[string](n, 0.01)
			if f.NumBlocks() != local.Engine().NumBlocks() || f.NumBits() != local.NumBits() {
				t.Fatalf("%d blocks (%d bits), bloom.New %d (%d bits)", f.NumBlocks(), f.NumBits(), local.Engine().NumBlocks(), local.NumBits())
			}
			ks := keys("eq", n)
			if err := f.AddAll(ctx, ks[:n-100]); err != nil {
				t.Fatal(err)
			}
			for _, k := range ks[n-100:] {
				if err := f.Add(ctx, k); err != nil {
					t.Fatal(err)
				}
			}
			local.AddAll(ks)
			probe := append(ks[:3000:3000], keys("other", 3000)...)
			sameAsLocal(t, f, local, probe)
			// Open sees the same filter.
			g, err := Open[string](ctx, c, f.Name())
			if err != nil {
				t.Fatal(err)
			}
			sameAsLocal(t, g, local, probe[:500])
		})
	}
}

func testOneShardEncoding(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	f, err := New[string](ctx, c, uniqueName(t), 5000, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.ShardKeys()) != 1 {
		t.Fatalf("%d shards", len(f.ShardKeys()))
	}
	ks := keys("enc", 5000)
	if err := f.AddAll(ctx, ks); err != nil {
		t.Fatal(err)
	}
	local, _ := bloom.New[string](5000, 0.001)
	local.AddAll(ks)
	b, err := c.Get(ctx, f.ShardKeys()[0]).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	var v bloom.FilterView[string]
	if err := v.Reset(b); err != nil {
		t.Fatalf("GET of the shard is not an encoding FilterView reads: %v", err)
	}
	want, _ := local.MarshalBinary()
	if !bytes.Equal(b[64:], want[64:]) {
		t.Fatal("the shard's blocks differ from the local filter's")
	}
	probe := append(ks, keys("no", 5000)...)
	for _, k := range probe {
		if v.Has(k) != local.Has(k) {
			t.Fatalf("view.Has(%q) = %v, local %v", k, v.Has(k), local.Has(k))
		}
	}
	// Redis' bit numbering (DESIGN.md 12): bit j of word w of block b is
	// Redis bit ((b*64 + w*8 + j/8) * 8 + 7 - j%8), past the header.
	for i := 0; i < len(want)-64; i += 37 {
		for j := range 8 {
			bit, err := c.GetBit(ctx, f.ShardKeys()[0], int64((64+i)*8+7-j)).Result()
			if err != nil {
				t.Fatal(err)
			}
			if bit != int64(want[64+i]>>j&1) {
				t.Fatalf("GETBIT of byte %d bit %d = %d, the local filter has %d", i, j, bit, want[64+i]>>j&1)
			}
		}
	}
}

func testIntegerKeys(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	f, err := New[uint64](ctx, c, uniqueName(t), 3000, 1e-6, WithShardBytes(2048))
	if err != nil {
		t.Fatal(err)
	}
	local, _ := bloom.New[uint64](3000, 1e-6)
	if local.Engine().K() != 16 {
		t.Fatalf("want a k = 16 filter, got k = %d", local.Engine().K())
	}
	ks := make([]uint64, 6000)
	for i := range ks {
		ks[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	if err := f.AddAll(ctx, ks[:3000]); err != nil {
		t.Fatal(err)
	}
	local.AddAll(ks[:3000])
	sameAsLocal(t, f, local, ks)
	if _, err := Open[string](ctx, c, f.Name()); !errors.Is(err, bloom.ErrHashMismatch) {
		t.Fatalf("Open[string] of an integer filter: %v, want ErrHashMismatch", err)
	}
}

func testBadInput(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	for _, tc := range []struct {
		n   uint64
		fpr float64
	}{{0, 0.01}, {100, 0}, {100, 1}, {100, -0.5}, {100, math.NaN()}, {100, math.Inf(1)}} {
		_, want := bloom.New[string](tc.n, tc.fpr)
		_, err := New[string](ctx, c, uniqueName(t), tc.n, tc.fpr)
		if want == nil || err == nil {
			t.Fatalf("New(%d, %v) = %v, bloom.New %v", tc.n, tc.fpr, err, want)
		}
		matched := false
		for _, e := range []error{bloom.ErrKeys, bloom.ErrFPR, bloom.ErrTooLarge} {
			if errors.Is(want, e) {
				matched = errors.Is(err, e)
			}
		}
		if !matched {
			t.Errorf("New(%d, %v): %v; bloom.New: %v", tc.n, tc.fpr, err, want)
		}
	}
	for _, name := range []string{"", "a{b", "a}b"} {
		if _, err := New[string](ctx, c, name, 100, 0.01); !errors.Is(err, bloom.ErrOption) {
			t.Errorf("New(name %q): %v, want ErrOption", name, err)
		}
	}
	for _, b := range []uint64{0, 63, MaxShardBytes + 1} {
		if _, err := New[string](ctx, c, uniqueName(t), 100, 0.01, WithShardBytes(b)); !errors.Is(err, bloom.ErrOption) {
			t.Errorf("WithShardBytes(%d): %v, want ErrOption", b, err)
		}
	}
	if _, err := New[string](ctx, c, uniqueName(t), 100, 0.01, WithWaitReplicas(0, 1)); !errors.Is(err, bloom.ErrOption) {
		t.Errorf("WithWaitReplicas(0, 1): %v, want ErrOption", err)
	}
	// A geometry mismatch, and the same geometry opening.
	name := uniqueName(t)
	f, err := New[string](ctx, c, name, 1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New[string](ctx, c, name, 100000, 0.01); !errors.Is(err, bloom.ErrGeometry) {
		t.Errorf("New of another size at an existing name: %v, want ErrGeometry", err)
	}
	if _, err := New[string](ctx, c, name, 1000, 0.01, WithShardBytes(128)); !errors.Is(err, bloom.ErrGeometry) {
		t.Errorf("New of other shards at an existing name: %v, want ErrGeometry", err)
	}
	if _, err := New[int](ctx, c, name, 1000, 0.01); !errors.Is(err, bloom.ErrHashMismatch) {
		t.Errorf("New[int] at a string filter: %v, want ErrHashMismatch", err)
	}
	if err := f.Add(ctx, "kept"); err != nil {
		t.Fatal(err)
	}
	g, err := New[string](ctx, c, name, 1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := g.Has(ctx, "kept"); !ok || err != nil {
		t.Fatalf("New of the same geometry did not open the filter: %v %v", ok, err)
	}
	if n, err := f.HasAll(ctx, nil, nil); n != 0 || err != nil {
		t.Errorf("HasAll of no keys: %d, %v", n, err)
	}
	if err := f.AddAll(ctx, nil); err != nil {
		t.Errorf("AddAll of no keys: %v", err)
	}
	if _, err := Open[string](ctx, c, uniqueName(t)); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open of nothing: %v, want ErrNotFound", err)
	}
	local, _ := bloom.New[string](2000, 0.01)
	if err := f.Merge(ctx, local); !errors.Is(err, bloom.ErrGeometry) {
		t.Errorf("Merge of another geometry: %v, want ErrGeometry", err)
	}
	if err := f.Merge(ctx, nil); !errors.Is(err, bloom.ErrGeometry) {
		t.Errorf("Merge(nil): %v, want ErrGeometry", err)
	}
}

func testForeignKeys(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	// A string that is not a filter at the name.
	name := uniqueName(t)
	c.Set(ctx, name, "someone else's value", 0)
	if _, err := New[string](ctx, c, name, 1000, 0.01); !errors.Is(err, bloom.ErrMagic) {
		t.Errorf("New over a foreign string: %v, want ErrMagic", err)
	}
	if _, err := Open[string](ctx, c, name); !errors.Is(err, bloom.ErrMagic) {
		t.Errorf("Open of a foreign string: %v, want ErrMagic", err)
	}
	if v, _ := c.Get(ctx, name).Result(); v != "someone else's value" {
		t.Errorf("the foreign key now holds %q", v)
	}
	// A list at the name.
	name = uniqueName(t)
	c.RPush(ctx, name, "a")
	if _, err := New[string](ctx, c, name, 1000, 0.01); !errors.Is(err, bloom.ErrMagic) {
		t.Errorf("New over a list: %v, want ErrMagic", err)
	}
	if typ, _ := c.Type(ctx, name).Result(); typ != "list" {
		t.Errorf("the list is now a %s", typ)
	}
	// A foreign key where a shard would go: New refuses, writes nothing.
	name = uniqueName(t)
	shard := "{" + name + ":1}"
	c.Set(ctx, shard, "mine", 0)
	if _, err := New[string](ctx, c, name, 100000, 0.01, WithShardBytes(4096)); !errors.Is(err, bloom.ErrMagic) {
		t.Errorf("New over a foreign shard key: %v, want ErrMagic", err)
	}
	if v, _ := c.Get(ctx, shard).Result(); v != "mine" {
		t.Errorf("the foreign shard key now holds %q", v)
	}
	if n, _ := c.Exists(ctx, name, "{"+name+":0}").Result(); n != 0 {
		t.Errorf("New left %d keys behind", n)
	}
}

// testShardFaults damages a shard in each way and checks that every method
// fails with ErrShard (adds to a longer shard, whose bits are where
// lookups read them, may succeed) and that nothing makes the shard look
// whole again: an add to a vanished shard recreates part of it without
// its prefix, and one to a shard another program overwrote sets bits in
// it, leaving the rest.
func testShardFaults(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	damage := []struct {
		name  string
		do    func(key string)
		check func(t *testing.T, key string)
	}{
		{"deleted", func(k string) { c.Del(ctx, k) }, func(t *testing.T, k string) {
			if v, _ := c.GetRange(ctx, k, 0, 7).Result(); strings.Trim(v, "\x00") != "" {
				t.Errorf("the deleted shard %s was recreated beginning with %q", k, v)
			}
		}},
		{"list", func(k string) { c.Del(ctx, k); c.RPush(ctx, k, "x") }, func(t *testing.T, k string) {
			if typ, _ := c.Type(ctx, k).Result(); typ != "list" {
				t.Errorf("the shard %s is now a %s", k, typ)
			}
		}},
		{"longer", func(k string) { c.Append(ctx, k, "z") }, nil},
		{"shorter", func(k string) { c.Set(ctx, k, "short", 0) }, func(t *testing.T, k string) {
			if v, _ := c.Get(ctx, k).Result(); !strings.HasPrefix(v, "short") {
				t.Errorf("the shard %s was rewritten", k)
			}
		}},
	}
	for _, shards := range []uint64{DefaultShardBytes, 4096} {
		for _, d := range damage {
			t.Run(fmt.Sprint(d.name, shards), func(t *testing.T) {
				f, err := New[string](ctx, c, uniqueName(t), 20000, 0.01, WithShardBytes(shards))
				if err != nil {
					t.Fatal(err)
				}
				ks := keys("fault", 2000)
				if err := f.AddAll(ctx, ks); err != nil {
					t.Fatal(err)
				}
				r, err := f.Replica(ctx)
				if err != nil {
					t.Fatal(err)
				}
				victim := f.ShardKeys()[int(blockOf(bloom.Hash(ks[0]), f.NumBlocks())/f.g.shardBlocks)]
				d.do(victim)
				if ok, err := f.Has(ctx, ks[0]); !errors.Is(err, ErrShard) || !errors.Is(err, bloom.ErrCorrupt) || ok {
					t.Errorf("Has: %v, %v; want false and ErrShard", ok, err)
				}
				if _, err := f.HasAll(ctx, ks, make([]bool, len(ks))); !errors.Is(err, ErrShard) {
					t.Errorf("HasAll: %v, want ErrShard", err)
				}
				if err := f.Add(ctx, ks[0]); !errors.Is(err, ErrShard) && (d.name != "longer" || err != nil) {
					t.Errorf("Add: %v, want ErrShard", err)
				}
				if err := f.AddAll(ctx, ks); !errors.Is(err, ErrShard) && (d.name != "longer" || err != nil) {
					t.Errorf("AddAll: %v, want ErrShard", err)
				}
				local, _ := bloom.New[string](20000, 0.01)
				local.AddAll(ks)
				if err := f.Merge(ctx, local); !errors.Is(err, ErrShard) {
					t.Errorf("Merge: %v, want ErrShard", err)
				}
				if _, err := f.Snapshot(ctx); !errors.Is(err, ErrShard) {
					t.Errorf("Snapshot: %v, want ErrShard", err)
				}
				c.Incr(ctx, f.counterKeys[0]) // make Refresh re-read every shard
				for i := range f.counterKeys {
					c.Incr(ctx, f.counterKeys[i])
				}
				if _, err := r.Refresh(ctx); !errors.Is(err, ErrShard) {
					t.Errorf("Refresh: %v, want ErrShard", err)
				}
				if !r.Has(ks[0]) {
					t.Error("a failed Refresh changed the replica")
				}
				if _, err := Open[string](ctx, c, f.Name()); !errors.Is(err, ErrShard) {
					t.Errorf("Open: %v, want ErrShard", err)
				}
				if d.check != nil {
					d.check(t, victim)
				}
			})
		}
	}
	// A deleted counter: Refresh refuses; the add that makes it again
	// (INCR) fails; the shard's bits are whole, so later adds and
	// replicas work.
	f, err := New[string](ctx, c, uniqueName(t), 1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	c.Del(ctx, f.counterKeys[0])
	if _, err := f.Replica(ctx); !errors.Is(err, ErrShard) {
		t.Errorf("Replica without a counter: %v, want ErrShard", err)
	}
	if err := f.Add(ctx, "x"); !errors.Is(err, ErrShard) {
		t.Errorf("Add without a counter: %v, want ErrShard", err)
	}
	if err := f.Add(ctx, "y"); err != nil {
		t.Errorf("Add after the counter was made again: %v", err)
	}
	if r, err := f.Replica(ctx); err != nil || !r.Has("x") || !r.Has("y") {
		t.Errorf("Replica after the counter was made again: %v", err)
	}
}

func testConcurrentAdders(t *testing.T, c redis.UniversalClient, addrs []string) {
	ctx := context.Background()
	name := uniqueName(t)
	const n, workers, procs = 40000, 4, 2
	ks := keys("conc", n)
	per := n / (workers + procs)
	// Other processes: this test binary, run as TestAdderProcess.
	var wg sync.WaitGroup
	errs := make(chan error, workers+procs)
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- runAdderProcess(addrs, name, n, fmt.Sprintf("conc-%d", p), workers*per+p*per, per)
		}()
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine makes the filter with New, as separate
			// processes starting at once would, with a client of its own.
			cl := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs})
			defer cl.Close()
			f, err := New[string](ctx, cl, name, n, 0.01, WithShardBytes(8192))
			if err != nil {
				errs <- err
				return
			}
			mine := ks[w*per : (w+1)*per]
			if err := f.AddAll(ctx, mine[:per/2]); err != nil {
				errs <- err
				return
			}
			for _, k := range mine[per/2:] {
				if err := f.Add(ctx, k); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := Open[string](ctx, c, name)
	if err != nil {
		t.Fatal(err)
	}
	local, _ := bloom.New[string](n, 0.01)
	local.AddAll(ks[:(workers+procs)*per])
	sameAsLocal(t, f, local, ks)
}

func testMerge(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	for _, shards := range []uint64{DefaultShardBytes, 4096} {
		const n = 30000
		f, err := New[string](ctx, c, uniqueName(t), n, 0.01, WithShardBytes(shards))
		if err != nil {
			t.Fatal(err)
		}
		ks := keys("merge", n)
		if err := f.AddAll(ctx, ks[:n/2]); err != nil {
			t.Fatal(err)
		}
		part, _ := bloom.New[string](n, 0.01)
		part.AddAll(ks[n/2:])
		if err := f.Merge(ctx, part); err != nil {
			t.Fatal(err)
		}
		all, _ := bloom.New[string](n, 0.01)
		all.AddAll(ks)
		sameAsLocal(t, f, all, ks[:5000])
		if n := keysMatching(t, c, "*:merge:*"); len(n) != 0 {
			t.Errorf("Merge left temporary keys %v", n)
		}
	}
}

func testReplica(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	const n = 40000
	local, _ := bloom.New[string](n, 0.01)
	shardBytes := (local.Engine().NumBlocks()*64 + 7) / 8
	f, err := New[string](ctx, c, uniqueName(t), n, 0.01, WithShardBytes(shardBytes))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.ShardKeys()) != 8 && len(f.ShardKeys()) != 9 {
		t.Fatalf("%d shards", len(f.ShardKeys()))
	}
	ks := keys("rep", n)
	if err := f.AddAll(ctx, ks[:n/2]); err != nil {
		t.Fatal(err)
	}
	local.AddAll(ks[:n/2])
	r, err := f.Replica(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Refresh(ctx); got != 0 {
		t.Errorf("Refresh with no change read %d shards", got)
	}
	// A filter deleted and made again under a live replica: its counters
	// do not start where the old ones were.
	g, err := New[string](ctx, c, uniqueName(t), n, 0.01, WithShardBytes(shardBytes))
	if err != nil {
		t.Fatal(err)
	}
	rg, err := g.Replica(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Delete(ctx); err != nil {
		t.Fatal(err)
	}
	if g, err = New[string](ctx, c, g.Name(), n, 0.01, WithShardBytes(shardBytes)); err != nil {
		t.Fatal(err)
	}
	if got, err := rg.Refresh(ctx); err != nil || got != len(g.ShardKeys()) {
		t.Errorf("Refresh after the filter was made again read %d of %d shards (%v)", got, len(g.ShardKeys()), err)
	}
	// Keys of one shard only: Refresh reads that shard alone.
	var one []string
	for _, k := range ks[n/2:] {
		if blockOf(bloom.Hash(k), f.NumBlocks())/f.g.shardBlocks == 3 {
			one = append(one, k)
		}
	}
	// Lookups run while the replica refreshes (go test -race).
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]bool, 100)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r.HasAll(ks[:100], out) != 100 || !r.Has(ks[7]) {
					t.Error("a replica lost a key")
					return
				}
			}
		}()
	}
	if err := f.AddAll(ctx, one); err != nil {
		t.Fatal(err)
	}
	local.AddAll(one)
	got, err := r.Refresh(ctx)
	close(stop)
	wg.Wait()
	if err != nil || got != 1 {
		t.Fatalf("Refresh after adds to one shard read %d shards (%v), want 1", got, err)
	}
	probe := append(ks, keys("none", 5000)...)
	out := make([]bool, len(probe))
	want := make([]bool, len(probe))
	if r.HasAll(probe, out) != local.HasAll(probe, want) {
		t.Fatal("replica and local filter count differently")
	}
	for i, k := range probe {
		if out[i] != want[i] || r.Has(k) != want[i] {
			t.Fatalf("replica answers %v for %q, local %v", out[i], k, want[i])
		}
	}
}

func testCancelled(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	f, err := New[string](ctx, c, uniqueName(t), 1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Replica(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if ok, err := f.Has(cctx, "a"); ok || !errors.Is(err, context.Canceled) {
		t.Errorf("Has: %v %v", ok, err)
	}
	if _, err := f.HasAll(cctx, []string{"a"}, make([]bool, 1)); !errors.Is(err, context.Canceled) {
		t.Errorf("HasAll: %v", err)
	}
	if err := f.Add(cctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("Add: %v", err)
	}
	if err := f.AddAll(cctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("AddAll: %v", err)
	}
	if _, err := f.Snapshot(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Snapshot: %v", err)
	}
	if _, err := r.Refresh(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Refresh: %v", err)
	}
	if _, err := New[string](cctx, c, uniqueName(t), 10, 0.01); !errors.Is(err, context.Canceled) {
		t.Errorf("New: %v", err)
	}
	local, _ := bloom.New[string](1000, 0.01)
	local.Add("a")
	if err := f.Merge(cctx, local); !errors.Is(err, context.Canceled) {
		t.Errorf("Merge: %v", err)
	}
	if ok, _ := f.Has(ctx, "a"); ok {
		t.Error("a cancelled add reached Redis")
	}
}

// keysMatching returns the keys of every master that match pattern.
func keysMatching(t *testing.T, c redis.UniversalClient, pattern string) []string {
	ctx := context.Background()
	var mu sync.Mutex
	var all []string
	get := func(ctx context.Context, c *redis.Client) error {
		ks, err := c.Keys(ctx, pattern).Result()
		mu.Lock()
		all = append(all, ks...)
		mu.Unlock()
		return err
	}
	var err error
	switch cc := c.(type) {
	case *redis.ClusterClient:
		err = cc.ForEachMaster(ctx, get)
	case *redis.Client:
		err = get(ctx, cc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return all
}
