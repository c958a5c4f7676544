package bench

// Benchmarks of the redis/ module (package sbredis) against go-zero's
// core/bloom and a raw pipelined GETRANGE loop, on one local redis-server
// that each benchmark starts (a free loopback port, stopped by its PID):
//
//	go test -run '^$' -bench 'Redis' -count 6 . > redis.txt
//
// Figures and how to read them: PERF.md, "Shared filters in Redis".

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	sbredis "github.com/simdbloom/bloom/redis"
	zbloom "github.com/zeromicro/go-zero/core/bloom"
	"github.com/zeromicro/go-zero/core/logx"
	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

// startRedis starts a redis-server for one benchmark, without persistence,
// and returns its address; b.Cleanup kills it by PID.
func startRedis(b *testing.B) string {
	if _, err := exec.LookPath("redis-server"); err != nil {
		b.Fatalf("redis-server not found (%v): apt-get install redis-server redis-tools", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--dir", b.TempDir(), "--save", "", "--appendonly", "no", "--daemonize", "no")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	for i := 0; c.Ping(context.Background()).Err() != nil; i++ {
		if i == 500 {
			b.Fatal("redis-server did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return addr
}

// redisKeys returns n keys of 20 to 100 bytes.
func redisKeys(prefix string, n int) []string {
	r := rand.New(rand.NewPCG(uint64(len(prefix)), 1))
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	ks := make([]string, n)
	for i := range ks {
		s := []byte(fmt.Sprintf("%s:%d:", prefix, i))
		for len(s) < 20+r.IntN(81) {
			s = append(s, letters[r.IntN(len(letters))])
		}
		ks[i] = string(s)
	}
	return ks
}

// serverUsec returns the server time (INFO commandstats, µs) spent in the
// given commands since the last CONFIG RESETSTAT.
func serverUsec(b *testing.B, c *redis.Client, cmds ...string) float64 {
	info, err := c.Info(context.Background(), "commandstats").Result()
	if err != nil {
		b.Fatal(err)
	}
	total := 0.0
	for _, line := range strings.Split(info, "\n") {
		for _, cmd := range cmds {
			if strings.HasPrefix(line, "cmdstat_"+cmd+":") {
				for _, f := range strings.Split(strings.TrimSpace(line[len("cmdstat_"+cmd+":"):]), ",") {
					if v, ok := strings.CutPrefix(f, "usec="); ok {
						x, _ := strconv.ParseFloat(v, 64)
						total += x
					}
				}
			}
		}
	}
	return total
}

// reportServer resets the server's command statistics, runs the loop, and
// reports the server time per key spent in cmds.
func reportServer(b *testing.B, c *redis.Client, keysPerOp int, loop func(), cmds ...string) {
	c.ConfigResetStat(context.Background())
	b.ResetTimer()
	loop()
	b.StopTimer()
	us := serverUsec(b, c, cmds...)
	b.ReportMetric(us*1000/float64(b.N*keysPerOp), "server-ns/key")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keysPerOp), "ns/key")
}

// redisBench is the setup BenchmarkRedis and BenchmarkRedisPaired share:
// one server holding an sbredis filter of n keys (by Merge) and a go-zero
// filter of the same rate, and the keys to look up and add.
type redisBench struct {
	ctx       context.Context
	c         *redis.Client
	n         int
	ks, probe []string
	adds      []string
	f         *sbredis.Filter[string]
	local     *bloom.Filter[string]
	zf        *zbloom.Filter
	shard     string
	rawOff    func(string) int64
}

func setupRedisBench(b *testing.B) *redisBench {
	logx.Disable()
	ctx := context.Background()
	addr := startRedis(b)
	c := redis.NewClient(&redis.Options{Addr: addr})
	b.Cleanup(func() { c.Close() })
	n := 1_000_000
	if testing.Short() {
		n = 10_000
	}
	const batch = 1000
	ks := redisKeys("k", n)

	f, err := sbredis.New[string](ctx, c, "sb", uint64(n), 0.01)
	if err != nil {
		b.Fatal(err)
	}
	local, _ := bloom.New[string](uint64(n), 0.01)
	local.AddAll(ks)
	if err := f.Merge(ctx, local); err != nil {
		b.Fatal(err)
	}

	// go-zero sized for 1% with its fixed 14 hashes: 11 bits per key. Its
	// bitmap is filled as a filter at its planned load is, half its bits
	// set at random, and the keys looked up are added with Add.
	zbits := uint(11 * n)
	zfill := make([]byte, (zbits+7)/8)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range zfill {
		zfill[i] = byte(r.Uint32())
	}
	if err := c.Set(ctx, "gz", zfill, 0).Err(); err != nil {
		b.Fatal(err)
	}
	zf := zbloom.New(zredis.New(addr), "gz", zbits)
	probe := ks[:min(n, 20*batch)]
	for _, k := range probe {
		if err := zf.Add([]byte(k)); err != nil {
			b.Fatal(err)
		}
	}

	// The raw loop's offsets: the blocks sbredis reads (one shard, after
	// the 64-byte header).
	shard := f.ShardKeys()[0]
	if len(f.ShardKeys()) != 1 {
		b.Fatal("the raw loop assumes one shard")
	}
	rawOff := func(k string) int64 {
		h := bloom.Hash(k)
		return 64 + 64*int64(((h>>32)*f.NumBlocks())>>32)
	}

	adds := redisKeys("add", 20*batch)
	return &redisBench{ctx: ctx, c: c, n: n, ks: ks, probe: probe, adds: adds, f: f, local: local, zf: zf, shard: shard, rawOff: rawOff}
}

// BenchmarkRedis compares, on one server and in one process, sbredis with
// go-zero's core/bloom (a classic filter in a Redis bitmap, one Lua script of
// 14 SETBIT/GETBIT per key) and with a raw pipelined GETRANGE loop over the
// same offsets as sbredis (its floor; for Has, one GETRANGE), for a filter of 10^6 keys at 1% (10^4
// with -short), keys of 20-100 bytes, lookups of added keys. Its
// sub-benchmarks run one after the other, so they also report the server's
// time per key (INFO commandstats); BenchmarkRedisPaired gives the ratios of
// client-side times on a noisy machine.
func BenchmarkRedis(b *testing.B) {
	rb := setupRedisBench(b)
	ctx, c, f, local, zf, probe, adds, shard, rawOff := rb.ctx, rb.c, rb.f, rb.local, rb.zf, rb.probe, rb.adds, rb.shard, rb.rawOff
	ks, n := rb.ks, rb.n
	const batch = 1000
	out := make([]bool, batch)
	b.Run("HasAll1000/impl=sbredis", func(b *testing.B) {
		reportServer(b, c, batch, func() {
			for i := range b.N {
				j := i % (len(probe) / batch) * batch
				if got, err := f.HasAll(ctx, probe[j:j+batch], out); err != nil || got != batch {
					b.Fatal(got, err)
				}
			}
		}, "getrange", "strlen")
	})
	b.Run("HasAll1000/impl=raw", func(b *testing.B) {
		reportServer(b, c, batch, func() {
			for i := range b.N {
				j := i % (len(probe) / batch) * batch
				p := c.Pipeline()
				for _, k := range probe[j : j+batch] {
					o := rawOff(k)
					p.GetRange(ctx, shard, o, o+63)
				}
				if _, err := p.Exec(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}, "getrange")
	})
	b.Run("HasAll1000/impl=gozero", func(b *testing.B) {
		reportServer(b, c, batch, func() {
			for i := range b.N {
				j := i % (len(probe) / batch) * batch
				for _, k := range probe[j : j+batch] {
					if ok, err := zf.Exists([]byte(k)); err != nil || !ok {
						b.Fatal(ok, err)
					}
				}
			}
		}, "evalsha", "eval")
	})
	b.Run("Has/impl=sbredis", func(b *testing.B) {
		reportServer(b, c, 1, func() {
			for i := range b.N {
				if ok, err := f.Has(ctx, probe[i%len(probe)]); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}
		}, "getrange", "strlen")
	})
	b.Run("Has/impl=raw", func(b *testing.B) { // one GETRANGE: a one-command round trip's floor
		reportServer(b, c, 1, func() {
			for i := range b.N {
				o := rawOff(probe[i%len(probe)])
				if err := c.GetRange(ctx, shard, o, o+63).Err(); err != nil {
					b.Fatal(err)
				}
			}
		}, "getrange")
	})
	b.Run("Has/impl=gozero", func(b *testing.B) {
		reportServer(b, c, 1, func() {
			for i := range b.N {
				if ok, err := zf.Exists([]byte(probe[i%len(probe)])); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}
		}, "evalsha", "eval")
	})
	b.Run("AddAll1000/impl=sbredis", func(b *testing.B) {
		reportServer(b, c, batch, func() {
			for i := range b.N {
				j := i % (len(adds) / batch) * batch
				if err := f.AddAll(ctx, adds[j:j+batch]); err != nil {
					b.Fatal(err)
				}
			}
		}, "bitfield", "incr", "evalsha", "eval")
	})
	// The same bits set by plain pipelined BITFIELDs, without the read of
	// the shard's prefix or the counter's INCR: what those cost.
	b.Run("AddAll1000/impl=rawBITFIELD", func(b *testing.B) {
		reportServer(b, c, batch, func() {
			for i := range b.N {
				j := i % (len(adds) / batch) * batch
				p := c.Pipeline()
				for _, k := range adds[j : j+batch] {
					args := []any{"BITFIELD", shard}
					for _, o := range rawBits(local, k) {
						args = append(args, "SET", "u1", 8*64+o+8*rawOff(k)-8*64, 1)
					}
					p.Do(ctx, args...)
				}
				if _, err := p.Exec(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}, "bitfield")
	})
	b.Run("AddAll1000/impl=gozero", func(b *testing.B) {
		reportServer(b, c, batch, func() {
			for i := range b.N {
				j := i % (len(adds) / batch) * batch
				for _, k := range adds[j : j+batch] {
					if err := zf.Add([]byte(k)); err != nil {
						b.Fatal(err)
					}
				}
			}
		}, "evalsha", "eval")
	})

	// The replica against the local filter it copies.
	rep, err := f.Replica(ctx)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := f.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	look := ks[:min(n, 100*batch)]
	b.Run("LocalHasAll1000/impl=replica", func(b *testing.B) {
		for i := range b.N {
			j := i % (len(look) / batch) * batch
			rep.HasAll(look[j:j+batch], out)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/key")
	})
	b.Run("LocalHasAll1000/impl=bloom.Filter", func(b *testing.B) {
		for i := range b.N {
			j := i % (len(look) / batch) * batch
			snap.HasAll(look[j:j+batch], out)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/key")
	})

	// Refresh after adds to one shard of 8: the bytes the server sends.
	size := (local.Engine().NumBits() / 8)
	shardBlocks := (local.Engine().NumBlocks() + 7) / 8
	f8, err := sbredis.New[string](ctx, c, "sb8", uint64(n), 0.01, sbredis.WithShardBytes(64*shardBlocks))
	if err != nil {
		b.Fatal(err)
	}
	if err := f8.Merge(ctx, local); err != nil {
		b.Fatal(err)
	}
	rep8, err := f8.Replica(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var one []string // keys of shard 0
	for _, k := range adds {
		if (bloom.Hash(k)>>32)*f8.NumBlocks()>>32 < shardBlocks {
			one = append(one, k)
		}
	}
	netOut := func() float64 {
		info, _ := c.Info(ctx, "stats").Result()
		for _, line := range strings.Split(info, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "total_net_output_bytes:"); ok {
				x, _ := strconv.ParseFloat(v, 64)
				return x
			}
		}
		b.Fatal("no total_net_output_bytes")
		return 0
	}
	for _, what := range []string{"oneShardOf8", "all8"} {
		b.Run("Refresh/changed="+what, func(b *testing.B) {
			var sent float64
			read := 0
			for i := range b.N {
				b.StopTimer()
				if what == "all8" {
					err = f8.Merge(ctx, local)
				} else {
					err = f8.Add(ctx, one[i%len(one)])
				}
				if err != nil {
					b.Fatal(err)
				}
				before := netOut()
				b.StartTimer()
				got, err := rep8.Refresh(ctx)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				read += got
				sent += netOut() - before
			}
			b.ReportMetric(float64(read)/float64(b.N), "shards/op")
			b.ReportMetric(sent/float64(b.N)/float64(size), "filters-read/op")
		})
	}
}

// BenchmarkRedisMerge loads 10^7 keys (10^5 with -short) into an empty
// shared filter: Merge of a filter built locally (its building not timed)
// against AddAll of the keys.
func BenchmarkRedisMerge(b *testing.B) {
	logx.Disable()
	ctx := context.Background()
	addr := startRedis(b)
	c := redis.NewClient(&redis.Options{Addr: addr, ReadTimeout: time.Minute})
	defer c.Close()
	n := 10_000_000
	if testing.Short() {
		n = 100_000
	}
	ks := make([]uint64, n)
	for i := range ks {
		ks[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	local, _ := bloom.New[uint64](uint64(n), 0.01)
	local.AddAll(ks)
	for _, how := range []string{"Merge", "AddAll"} {
		b.Run("how="+how, func(b *testing.B) {
			for i := range b.N {
				b.StopTimer()
				name := fmt.Sprintf("m-%s-%d", how, i)
				f, err := sbredis.New[uint64](ctx, c, name, uint64(n), 0.01)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if how == "Merge" {
					err = f.Merge(ctx, local)
				} else {
					err = f.AddAll(ctx, ks)
				}
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if err := f.Delete(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
		})
	}
}

// rawBits returns the Redis bit offsets, within its block, of key k's bits
// in a filter of f's k: the bits a one-block filter of them sets.
func rawBits(f *bloom.Filter[string], k string) []int64 {
	one, _ := blocked.NewBytes(64, f.Engine().K())
	one.AddHash(bloom.Hash(k))
	enc, _ := one.MarshalBinary()
	var offs []int64
	for j, x := range enc[64:] {
		for t := 0; t < 8; t++ {
			if x>>t&1 == 1 {
				offs = append(offs, int64(j*8+7-t))
			}
		}
	}
	return offs
}

// BenchmarkRedisPaired times sbredis, the raw loop and go-zero alternately
// within each iteration, so that a shared machine's drift hits them alike,
// and reports each one's time per key and their ratios, and likewise the
// server's time per key (INFO commandstats read between the parts).
func BenchmarkRedisPaired(b *testing.B) {
	rb := setupRedisBench(b)
	ctx, c, f, zf, probe, adds := rb.ctx, rb.c, rb.f, rb.zf, rb.probe, rb.adds
	const batch, zkeys = 1000, 100 // go-zero's loops do 100 keys an iteration
	out := make([]bool, batch)
	// The commands every implementation sends: a part's server time is the
	// change of their total across it.
	cmds := []string{"getrange", "strlen", "bitfield", "incr", "evalsha", "eval"}
	report := func(b *testing.B, names []string, keys []int, ts []time.Duration, srv []float64) {
		for i, name := range names {
			b.ReportMetric(float64(ts[i].Nanoseconds())/float64(b.N*keys[i]), name+"-ns/key")
		}
		per := func(i int) float64 { return float64(ts[i].Nanoseconds()) / float64(keys[i]) }
		for i := 1; i < len(names); i++ {
			b.ReportMetric(per(i)/per(0), names[i]+"/"+names[0])
		}
		if srv == nil {
			return
		}
		for i, name := range names {
			b.ReportMetric(srv[i]*1000/float64(b.N*keys[i]), name+"-server-ns/key")
		}
		sper := func(i int) float64 { return srv[i] / float64(keys[i]) }
		for i := 1; i < len(names); i++ {
			b.ReportMetric(sper(i)/sper(0), "server-"+names[i]+"/"+names[0])
		}
	}
	// timed runs each part in turn, adding its time to ts and its server
	// time to srv.
	timed := func(ts []time.Duration, srv []float64, parts ...func()) {
		s := serverUsec(b, c, cmds...)
		for i, part := range parts {
			t := time.Now()
			part()
			ts[i] += time.Since(t)
			s1 := serverUsec(b, c, cmds...)
			srv[i] += s1 - s
			s = s1
		}
	}
	b.Run("op=HasAll1000", func(b *testing.B) {
		ts, srv := make([]time.Duration, 3), make([]float64, 3)
		for i := range b.N {
			j := i % (len(probe) / batch) * batch
			timed(ts, srv, func() {
				if got, err := f.HasAll(ctx, probe[j:j+batch], out); err != nil || got != batch {
					b.Fatal(got, err)
				}
			}, func() {
				p := c.Pipeline()
				for _, k := range probe[j : j+batch] {
					o := rb.rawOff(k)
					p.GetRange(ctx, rb.shard, o, o+63)
				}
				if _, err := p.Exec(ctx); err != nil {
					b.Fatal(err)
				}
			}, func() {
				for _, k := range probe[j : j+zkeys] {
					if ok, err := zf.Exists([]byte(k)); err != nil || !ok {
						b.Fatal(ok, err)
					}
				}
			})
		}
		report(b, []string{"sbredis", "raw", "gozero"}, []int{batch, batch, zkeys}, ts, srv)
	})
	b.Run("op=Has", func(b *testing.B) {
		ts, srv := make([]time.Duration, 3), make([]float64, 3)
		for i := range b.N {
			k := probe[i%len(probe)]
			timed(ts, srv, func() {
				if ok, err := f.Has(ctx, k); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}, func() {
				o := rb.rawOff(k)
				if err := c.GetRange(ctx, rb.shard, o, o+63).Err(); err != nil {
					b.Fatal(err)
				}
			}, func() {
				if ok, err := zf.Exists([]byte(k)); err != nil || !ok {
					b.Fatal(ok, err)
				}
			})
		}
		report(b, []string{"sbredis", "raw", "gozero"}, []int{1, 1, 1}, ts, srv)
	})
	b.Run("op=AddAll1000", func(b *testing.B) {
		ts, srv := make([]time.Duration, 2), make([]float64, 2)
		for i := range b.N {
			j := i % (len(adds) / batch) * batch
			timed(ts, srv, func() {
				if err := f.AddAll(ctx, adds[j:j+batch]); err != nil {
					b.Fatal(err)
				}
			}, func() {
				for _, k := range adds[j : j+zkeys] {
					if err := zf.Add([]byte(k)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		report(b, []string{"sbredis", "gozero"}, []int{batch, zkeys}, ts, srv)
	})
	rep, err := f.Replica(ctx)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := f.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	look := rb.ks[:min(rb.n, 100*batch)]
	b.Run("op=LocalHasAll1000", func(b *testing.B) {
		ts := make([]time.Duration, 2)
		for i := range b.N {
			j := i % (len(look) / batch) * batch
			t := time.Now()
			rep.HasAll(look[j:j+batch], out)
			ts[0] += time.Since(t)
			t = time.Now()
			snap.HasAll(look[j:j+batch], out)
			ts[1] += time.Since(t)
		}
		report(b, []string{"replica", "bloomFilter"}, []int{batch, batch}, ts, nil)
	})
}
