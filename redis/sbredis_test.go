package sbredis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
)

// quietLogger drops go-redis' log lines (redials of the servers the
// tests kill).
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func TestMain(m *testing.M) {
	redis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}

// noRetry returns a client of s that does not retry failed commands.
func noRetry(t *testing.T, s *server) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.addr(), MaxRetries: -1, DialTimeout: time.Second})
	t.Cleanup(func() { c.Close() })
	return c
}

func TestSingleServer(t *testing.T) {
	s := startServer(t)
	runSuite(t, s.client(t), []string{s.addr()})
}

func TestCluster(t *testing.T) {
	ss := startCluster(t)
	c := clusterClient(t, ss)
	ctx := context.Background()
	// The shards of a filter land on more than one master.
	f, err := New[string](ctx, c, uniqueName(t), 100000, 0.01, WithShardBytes(16384))
	if err != nil {
		t.Fatal(err)
	}
	masters := map[string]bool{}
	for _, k := range f.ShardKeys() {
		m, err := c.MasterForKey(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		masters[m.Options().Addr] = true
	}
	if len(masters) < 2 {
		t.Fatalf("%d shards all on %v", len(f.ShardKeys()), masters)
	}
	t.Logf("%d shards on %d masters", len(f.ShardKeys()), len(masters))
	var addrs []string
	for _, s := range ss {
		addrs = append(addrs, s.addr())
	}
	runSuite(t, c, addrs)
}

// runAdderProcess runs this test binary as another process adding keys
// prefix-... numbered from first to first+count-1 to the filter name
// (see TestAdderProcess).
func runAdderProcess(addrs []string, name string, n int, prefix string, first, count int) error {
	cmd := exec.Command(os.Args[0], "-test.run=^TestAdderProcess$")
	cmd.Env = append(os.Environ(), "SBREDIS_ADDER="+strings.Join([]string{strings.Join(addrs, ","), name,
		strconv.Itoa(n), strconv.Itoa(first), strconv.Itoa(count)}, ";"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		return fmt.Errorf("adder process: %v\n%s", err, out)
	}
	return nil
}

// TestAdderProcess is the other process of testConcurrentAdders: it does
// nothing unless SBREDIS_ADDER says what to add.
func TestAdderProcess(t *testing.T) {
	spec := os.Getenv("SBREDIS_ADDER")
	if spec == "" {
		return
	}
	p := strings.Split(spec, ";")
	n, _ := strconv.Atoi(p[2])
	first, _ := strconv.Atoi(p[3])
	count, _ := strconv.Atoi(p[4])
	c := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: strings.Split(p[0], ",")})
	defer c.Close()
	ctx := context.Background()
	f, err := New[string](ctx, c, p[1], uint64(n), 0.01, WithShardBytes(8192))
	if err != nil {
		t.Fatal(err)
	}
	ks := keys("conc", n)[first : first+count]
	if err := f.AddAll(ctx, ks[:count/2]); err != nil {
		t.Fatal(err)
	}
	for _, k := range ks[count/2:] {
		if err := f.Add(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKillAcknowledgedAddsSurvive adds keys one by one while the server is
// killed with SIGKILL; after a restart (appendonly yes, appendfsync always)
// every add that returned nil is there.
func TestKillAcknowledgedAddsSurvive(t *testing.T) {
	s := startServer(t, "--appendonly", "yes", "--appendfsync", "always")
	c := redis.NewClient(&redis.Options{Addr: s.addr(), MaxRetries: -1})
	defer c.Close()
	ctx := context.Background()
	name := uniqueName(t)
	for _, shards := range []uint64{DefaultShardBytes, 2048} {
		f, err := New[string](ctx, c, name+strconv.Itoa(int(shards)), 20000, 0.01, WithShardBytes(shards))
		if err != nil {
			t.Fatal(err)
		}
		ks := keys("dur", 20000)
		var acked atomic.Int64
		done := make(chan error)
		go func() {
			for i, k := range ks {
				if err := f.Add(ctx, k); err != nil {
					done <- err
					return
				}
				acked.Store(int64(i + 1))
			}
			done <- nil
		}()
		for acked.Load() < 200 {
			time.Sleep(time.Millisecond)
		}
		s.kill9()
		if err := <-done; err == nil {
			t.Fatal("every add succeeded although the server was killed")
		}
		n := acked.Load()
		s.start()
		g, err := Open[string](ctx, c, f.Name())
		if err != nil {
			t.Fatal(err)
		}
		out := make([]bool, n)
		if got, err := g.HasAll(ctx, ks[:n], out); err != nil || got != int(n) {
			t.Fatalf("after kill -9 and restart %d of %d acknowledged adds are present (%v)", got, n, err)
		}
		// Adds work again (the restarted server lost the scripts).
		if err := g.Add(ctx, "after"); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d acknowledged adds kept", n)
	}
}

// TestKillMidAddAll kills the server while AddAll runs: it returns an error.
func TestKillMidAddAll(t *testing.T) {
	s := startServer(t, "--appendonly", "yes", "--appendfsync", "always")
	c := noRetry(t, s)
	ctx := context.Background()
	const n = 200000
	f, err := New[string](ctx, c, uniqueName(t), n, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	ks := keys("mid", n)
	done := make(chan error)
	go func() { done <- f.AddAll(ctx, ks) }()
	watch := s.client(t)
	for {
		v, _ := watch.Get(ctx, f.counterKeys[0]).Int()
		if v > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	s.kill9()
	err = <-done
	if err == nil {
		t.Fatal("AddAll returned nil although the server was killed during it")
	}
	t.Log(err)
	// Nothing reported absent either: lookups fail while it is down.
	if ok, err := f.Has(ctx, ks[0]); err == nil {
		t.Fatalf("Has on a dead server: %v, nil error", ok)
	}
	if _, err := f.HasAll(ctx, ks[:10], make([]bool, 10)); err == nil {
		t.Fatal("HasAll on a dead server: nil error")
	}
}

// TestWaitReplicas: with WithWaitReplicas an acknowledged add is already on
// the replica; with the replica gone, adds fail with ErrNotReplicated.
func TestWaitReplicas(t *testing.T) {
	m := startServer(t)
	r := startServer(t, "--replicaof", "127.0.0.1", strconv.Itoa(m.port))
	c := m.client(t)
	rc := r.client(t)
	ctx := context.Background()
	for i := 0; ; i++ {
		info, _ := rc.Info(ctx, "replication").Result()
		if strings.Contains(info, "master_link_status:up") {
			break
		}
		if i == 1000 {
			t.Fatalf("replica not linked: %s", info)
		}
		time.Sleep(10 * time.Millisecond)
	}
	f, err := New[string](ctx, c, uniqueName(t), 10000, 0.01, WithWaitReplicas(1, 5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ks := keys("wait", 3000)
	var v bloom.FilterView[string]
	for i, k := range ks {
		if i < 2000 {
			if i%500 == 0 {
				if err := f.Add(ctx, k); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		if err := f.AddAll(ctx, ks[i:]); err != nil {
			t.Fatal(err)
		}
		break
	}
	b, err := rc.Get(ctx, f.ShardKeys()[0]).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Reset(b); err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		if (i < 2000 && i%500 == 0 || i >= 2000) && !v.Has(k) {
			t.Fatalf("key %d acknowledged with WAIT is not on the replica", i)
		}
	}
	local, _ := bloom.New[string](10000, 0.01)
	local.Add(ks[1])
	if err := f.Merge(ctx, local); err != nil {
		t.Fatal(err)
	}
	// Open plus Configure gives the same.
	g, err := Open[string](ctx, c, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Configure(WithWaitReplicas(1, 100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := g.Configure(WithShardBytes(64)); !errors.Is(err, bloom.ErrOption) {
		t.Fatalf("Configure(WithShardBytes): %v", err)
	}
	// A Window's adds wait too: its generation, made by the add, is on
	// the replica with its bits and expiry.
	w, err := NewWindow[string](ctx, c, uniqueName(t), 10000, 0.01, time.Hour, WithWaitReplicas(1, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	e := w.generation(time.Now())
	if err := w.AddAll(ctx, ks); err != nil {
		t.Fatal(err)
	}
	if w.generation(time.Now()) != e {
		e++ // the add crossed into the next generation
	}
	if b, err = rc.Get(ctx, w.shardKey(e, 0)).Bytes(); err != nil {
		t.Fatal(err)
	}
	if err := v.Reset(b); err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		if !v.Has(k) {
			t.Fatalf("key %d added to a Window with WAIT is not on the replica", i)
		}
	}
	if at, err := rc.Do(ctx, "PEXPIRETIME", w.shardKey(e, 0)).Int64(); err != nil || at != w.expireAt(e) {
		t.Fatalf("the replica's generation expires at %d (%v), want %d", at, err, w.expireAt(e))
	}
	r.kill9()
	if err := w.Add(ctx, "lonely"); !errors.Is(err, ErrNotReplicated) {
		t.Fatalf("Window.Add with the replica gone: %v, want ErrNotReplicated", err)
	}
	if err := g.Add(ctx, "lonely"); !errors.Is(err, ErrNotReplicated) {
		t.Fatalf("Add with the replica gone: %v, want ErrNotReplicated", err)
	}
	if err := g.AddAll(ctx, ks); !errors.Is(err, ErrNotReplicated) {
		t.Fatalf("AddAll with the replica gone: %v, want ErrNotReplicated", err)
	}
}

// TestClusterWaitReplicas: WithWaitReplicas on a cluster of three masters
// with a replica each sends WAIT to every master an add wrote to.
func TestClusterWaitReplicas(t *testing.T) {
	ss := startClusterReplicas(t, 1)
	c := clusterClient(t, ss)
	ctx := context.Background()
	// Every replica linked to its master.
	for _, s := range ss {
		cl := s.client(t)
		for i := 0; ; i++ {
			info, _ := cl.Info(ctx, "replication").Result()
			if strings.Contains(info, "role:master") && strings.Contains(info, "connected_slaves:1") ||
				strings.Contains(info, "master_link_status:up") {
				break
			}
			if i == 1000 {
				t.Fatalf("%s: replication not up: %s", s.addr(), info)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	const n = 50000
	f, err := New[string](ctx, c, uniqueName(t), n, 0.01, WithShardBytes(8192), WithWaitReplicas(1, 5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ks := keys("cw", n)
	if err := f.AddAll(ctx, ks[:n/2]); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(ctx, ks[n/2]); err != nil {
		t.Fatal(err)
	}
	part, _ := bloom.New[string](n, 0.01)
	part.AddAll(ks[n/2:])
	if err := f.Merge(ctx, part); err != nil {
		t.Fatal(err)
	}
	all, _ := bloom.New[string](n, 0.01)
	all.AddAll(ks)
	sameAsLocal(t, f, all, ks[:2000])
	// Asking for two replicas, which no master has, fails.
	if err := f.Configure(WithWaitReplicas(2, 50*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(ctx, "x"); !errors.Is(err, ErrNotReplicated) {
		t.Fatalf("Add waiting for 2 replicas of 1: %v, want ErrNotReplicated", err)
	}
}

// TestUnreachable: a server that is not there gives errors, never "absent".
func TestUnreachable(t *testing.T) {
	s := startServer(t)
	c := noRetry(t, s)
	ctx := context.Background()
	f, err := New[string](ctx, c, uniqueName(t), 1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	s.kill9()
	if ok, err := f.Has(ctx, "a"); err == nil || ok {
		t.Errorf("Has: %v, %v", ok, err)
	}
	if _, err := f.HasAll(ctx, []string{"a"}, make([]bool, 1)); err == nil {
		t.Error("HasAll: nil error")
	}
	if err := f.Add(ctx, "a"); err == nil {
		t.Error("Add: nil error")
	}
	if _, err := f.Snapshot(ctx); err == nil {
		t.Error("Snapshot: nil error")
	}
	if _, err := Open[string](ctx, c, f.Name()); err == nil {
		t.Error("Open: nil error")
	}
}

func TestZeroValues(t *testing.T) {
	ctx := context.Background()
	var f Filter[string]
	if ok, err := f.Has(ctx, "a"); ok || err != nil {
		t.Errorf("zero Filter Has: %v %v", ok, err)
	}
	out := []bool{true}
	if n, err := f.HasAll(ctx, []string{"a"}, out); n != 0 || err != nil || out[0] {
		t.Errorf("zero Filter HasAll: %v %v %v", n, err, out)
	}
	var r Replica[string]
	if r.Has("a") || r.HasAll([]string{"a"}, out) != 0 {
		t.Error("zero Replica answers true")
	}
	for name, fn := range map[string]func(){
		"Add":      func() { f.Add(ctx, "a") },
		"AddAll":   func() { f.AddAll(ctx, nil) },
		"Merge":    func() { f.Merge(ctx, nil) },
		"Snapshot": func() { f.Snapshot(ctx) },
		"Replica":  func() { f.Replica(ctx) },
		"Refresh":  func() { r.Refresh(ctx) },
	} {
		func() {
			defer func() {
				if e := recover(); e == nil || !strings.Contains(fmt.Sprint(e), "New") && !strings.Contains(fmt.Sprint(e), "Filter.Replica") {
					t.Errorf("%s on a zero value: panic %v, want one naming the constructor", name, e)
				}
			}()
			fn()
		}()
	}
	defer func() {
		if recover() == nil {
			t.Error("HasAll with a short out did not panic")
		}
	}()
	f.HasAll(ctx, []string{"a", "b"}, out)
}

func TestZeroWindow(t *testing.T) {
	ctx := context.Background()
	var w Window[string]
	if ok, err := w.Has(ctx, "a"); ok || err != nil {
		t.Errorf("zero Window Has: %v %v", ok, err)
	}
	out := []bool{true}
	if n, err := w.HasAll(ctx, []string{"a"}, out); n != 0 || err != nil || out[0] {
		t.Errorf("zero Window HasAll: %v %v %v", n, err, out)
	}
	for name, fn := range map[string]func(){
		"Add":           func() { w.Add(ctx, "a") },
		"AddAll":        func() { w.AddAll(ctx, nil) },
		"HasAll(short)": func() { w.HasAll(ctx, []string{"a", "b"}, out) },
	} {
		func() {
			defer func() {
				if e := recover(); e == nil || name != "HasAll(short)" && !strings.Contains(fmt.Sprint(e), "NewWindow") {
					t.Errorf("%s on a zero Window: panic %v, want one naming NewWindow", name, e)
				}
			}()
			fn()
		}()
	}
}
