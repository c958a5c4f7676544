package sbredis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
)

// Window is bloom.Window kept in Redis: a Bloom filter that forgets, shared
// by every process that makes it with NewWindow and the same arguments. A
// key added at time t answers true at every time before t + window, and is
// forgotten from t + window + window/g on (g generations per window,
// WithGenerations, default 4). Make one with NewWindow. Its methods may be
// called from any number of goroutines and processes at once.
//
// # Generations
//
// Time is cut into generations of window/g (rounded up to the nanosecond)
// counted from the Unix epoch, so every process agrees on them without
// talking. Generation e is a filter of the geometry bloom.NewWindow gives
// each of its generations (ceil(n/g) keys at the rate p with 1 -
// (1-p)^(g+1) = fpr): the same blocks, k and bits, so its bytes equal
// those of the bloom.Window generation holding the same keys. It is stored
// like a Filter's shards, under keys {name:e.i} for its shards i = 0, 1,
// ... (one shard, unless the generation is larger than WithShardBytes; a
// one-shard generation is exactly the simdbloom encoding, which
// bloom.FilterView reads), and Redis deletes them by itself: each has an
// expiry (PEXPIREAT) at the end of generation e + g, when its last key is
// older than the window, plus the clock skew (WithClockSkew). The first add
// in a generation makes its shards, in the Lua script that adds, so any
// number of processes may race to make it. Add and AddAll go to the
// generation of the clock's time (WithClock, default time.Now); Has and
// HasAll read the g+1 generations younger than the window, and the next
// one (a process whose clock is a little ahead adds there), in one round
// trip, and probe the fetched blocks locally.
//
// # Clocks
//
// The guarantee assumes that the clocks of the processes and of the Redis
// servers agree within the skew (default 1 s, or window/g if shorter): a
// key added at t by one process answers true in every process before t +
// window - skew, and Redis keeps every generation a lookup may read. An add
// whose generation Redis' clock says has already ended fails rather than
// make a generation that expires at once.
//
// # Never a silent "absent"
//
// A generation that no add reached has no keys in Redis, and is read as
// empty; one that was made and then lost must not be. So each shard has a
// marker key, {name:e.i}:m, made by the same script with the same expiry:
// a shard missing while its marker remains (DEL, eviction, a failover to a
// replica without it), or of another length, makes lookups and adds fail
// with an error wrapping ErrShard, and an add never recreates it. The key
// name records the window's parameters, without expiry: lookups read it in
// the same round trip and fail with ErrShard if it is gone (FLUSHALL), so
// losing a shard and its marker together that way is also seen. Losing
// both while name's key stays is not: a DEL of both, a FLUSHALL of a
// cluster node that does not hold name, an eviction policy (which may
// evict any key with an expiry): maxmemory-policy must be noeviction (the
// default) for windows, as neither the volatile-* nor the allkeys-*
// policies spare them. Every lookup reads name's key, so in a cluster
// the node holding it answers one GET per round trip of every lookup.
//
// The zero Window holds nothing: Has and HasAll answer false, Add and
// AddAll panic naming NewWindow.
type Window[K bloom.Key] struct {
	f      Filter[K] // the client, name, a generation's geometry, WAIT; no shard keys
	header string    // the encoding header starting a one-shard generation, else ""
	meta   string    // what name's key holds
	gens   int64     // g
	span   time.Duration
	skew   time.Duration
	clock  func() time.Time
}

// WithGenerations sets g, the generations NewWindow cuts a window into,
// as bloom.WithGenerations does (1 to 63, default 4). New refuses it.
func WithGenerations(g int) Option {
	return Option{func(c *config) { c.gens = g; c.windowOption("WithGenerations") }}
}

// WithClock sets the function a Window reads the time from (default
// time.Now), for tests. It must be safe for concurrent use. New refuses
// it.
func WithClock(now func() time.Time) Option {
	return Option{func(c *config) { c.clock = now; c.windowOption("WithClock") }}
}

// WithClockSkew sets how far the clocks of the processes sharing a window
// and of the Redis servers may disagree, from 0 to window/g (default 1 s,
// or window/g if shorter): Redis keeps each generation that much longer.
// New refuses it.
func WithClockSkew(d time.Duration) Option {
	return Option{func(c *config) { c.skew, c.skewSet = d, true; c.windowOption("WithClockSkew") }}
}

func (c *config) windowOption(name string) {
	if c.windowOpt == "" {
		c.windowOpt = name
	}
}

const windowPrefix = "sbredis-window 1 "

// NewWindow returns the window named name in Redis, for n keys per window
// at a false-positive rate of at most fpr, forgetting keys after window,
// as bloom.NewWindow[K](n, fpr, window) (see Window). If name holds no
// window it records one there; if it holds one with the same parameters
// (n, fpr, window, generations, skew, shards, key family) it opens it, as
// any number of processes calling NewWindow at once do; else it returns an
// error wrapping bloom.ErrGeometry (other parameters) or
// bloom.ErrHashMismatch (another key type). Options: WithGenerations,
// WithClock, WithClockSkew, WithShardBytes, WithWaitReplicas.
//
// Bad input gives bloom.NewWindow's errors: ErrKeys for n = 0, ErrFPR for
// fpr outside (0, 1), ErrOption for bad generations or a window shorter
// than a microsecond per generation, ErrTooLarge; an empty name or one
// with '{' or '}', a nil clock, a skew outside [0, window/g] or another
// bad option give ErrOption. A key at name that is not a window of this
// package gives an error wrapping bloom.ErrMagic, and is left as it is.
func NewWindow[K bloom.Key](ctx context.Context, c redis.UniversalClient, name string, n uint64, fpr float64, window time.Duration, opts ...Option) (*Window[K], error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	cfg := config{shardBytes: DefaultShardBytes, gens: 4, clock: time.Now}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cfg)
		}
	}
	// bloom.NewWindow checks n, fpr, window and g, with its errors (n is
	// 0 or 1: nothing large is made).
	if _, err := bloom.NewWindow[K](min(n, 1), fpr, window, bloom.WithGenerations(cfg.gens)); err != nil {
		return nil, fmt.Errorf("sbredis: NewWindow: %w", err)
	}
	span := (window + time.Duration(cfg.gens) - 1) / time.Duration(cfg.gens)
	if !cfg.skewSet {
		cfg.skew = min(time.Second, span)
	}
	switch {
	case cfg.clock == nil:
		return nil, fmt.Errorf("sbredis: NewWindow: %w: WithClock(nil)", bloom.ErrOption)
	case cfg.skew < 0 || cfg.skew > span:
		return nil, fmt.Errorf("sbredis: NewWindow: %w: WithClockSkew(%v) outside [0, %v] (window/generations)", bloom.ErrOption, cfg.skew, span)
	case cfg.shardBytes < 64 || cfg.shardBytes > MaxShardBytes:
		return nil, fmt.Errorf("sbredis: NewWindow: %w: WithShardBytes(%d) outside [64, %d]", bloom.ErrOption, cfg.shardBytes, MaxShardBytes)
	}
	if err := checkWait(c, cfg.wait); err != nil {
		return nil, err
	}
	sz, err := windowSize(n, fpr, cfg.gens)
	if err != nil {
		return nil, fmt.Errorf("sbredis: NewWindow: %w", err)
	}
	w := &Window[K]{
		f:     Filter[K]{c: c, name: name, g: shardGeometry(sz, keyFamily[K](), cfg.shardBytes), wait: cfg.wait},
		gens:  int64(cfg.gens),
		span:  span,
		skew:  cfg.skew,
		clock: cfg.clock,
	}
	if w.f.g.shards == 1 {
		w.header = w.f.g.prefix(0)
	}
	w.meta = fmt.Sprintf("%sn=%d fpr=%v window=%d g=%d skew=%d k=%d blocks=%d shardblocks=%d shards=%d hash=%d keys=%d",
		windowPrefix, n, fpr, int64(window), cfg.gens, int64(cfg.skew), w.f.g.k, w.f.g.blocks, w.f.g.shardBlocks, w.f.g.shards, blocked.HashXXH3, w.f.g.keys)
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sbredis: NewWindow: %w", err)
		}
		made, err := c.SetNX(ctx, name, w.meta, 0).Result()
		if err != nil {
			return nil, fmt.Errorf("sbredis: NewWindow %q: %w", name, err)
		}
		if made {
			return w, nil
		}
		have, err := c.Get(ctx, name).Result()
		switch {
		case errors.Is(err, redis.Nil):
			continue // deleted since SETNX: try again
		case isWrongType(err):
			return nil, fmt.Errorf("sbredis: NewWindow %q: %w: the key is not a string: %v", name, bloom.ErrMagic, err)
		case err != nil:
			return nil, fmt.Errorf("sbredis: NewWindow %q: %w", name, err)
		case have == w.meta:
			return w, nil
		case !strings.HasPrefix(have, windowPrefix):
			return nil, fmt.Errorf("sbredis: NewWindow %q: %w: the key holds %.80q, not a sbredis window", name, bloom.ErrMagic, have)
		case !strings.HasSuffix(have, " keys="+strconv.Itoa(int(w.f.g.keys))):
			return nil, fmt.Errorf("sbredis: NewWindow %q: %w: the window's keys are of another family (%q), not %d", name, bloom.ErrHashMismatch, have, w.f.g.keys)
		default:
			return nil, fmt.Errorf("sbredis: NewWindow %q: %w: the key holds a window of other parameters: %q, not %q", name, bloom.ErrGeometry, have, w.meta)
		}
	}
}

// windowSize is bloom's sizing of one generation of a Window for n keys
// per window cut into g generations at total rate fpr: blocked.Size for
// ceil(n/g) keys at the rate p with 1 - (1-p)^(g+1) = fpr. It must stay
// bloom's (window.go's windowSize, unexported there): the tests compare
// the generations with bloom.Window's bit for bit.
func windowSize(n uint64, fpr float64, g int) (blocked.Sizing, error) {
	per := n/uint64(g) + min(n%uint64(g), 1)
	p := -math.Expm1(math.Log1p(-fpr) / float64(g+1))
	return blocked.Size(per, p)
}

// Name returns the window's name: the Redis key that records its
// parameters.
func (w *Window[K]) Name() string { return w.f.name }

// NumBlocks returns the number of 64-byte blocks of one generation.
func (w *Window[K]) NumBlocks() uint64 { return w.f.g.blocks }

// NumBits returns the size in bits of the g+1 generations a window spans
// (the g of WithGenerations), as bloom.Window's NumBits: Redis holds at
// most that many at once (each expires g+1 generations after it starts,
// plus the clock skew).
func (w *Window[K]) NumBits() uint64 { return uint64(w.gens+1) * w.f.g.blocks * 512 }

// generation returns the number of the generation t falls in.
func (w *Window[K]) generation(t time.Time) int64 {
	d, s := t.UnixNano(), int64(w.span)
	e := d / s
	if d%s < 0 {
		e--
	}
	return e
}

// expireAt returns when Redis deletes generation e, in Unix milliseconds
// rounded up: the end of generation e + g, when every key in e is older
// than the window, plus the skew.
func (w *Window[K]) expireAt(e int64) int64 {
	ns := (e+w.gens+1)*int64(w.span) + int64(w.skew)
	return ns/1e6 + min(ns%1e6, 1)
}

// shardKey returns the key of shard i of generation e; its marker is the
// same with ":m" appended. The '.' keeps it apart from every key of a
// Filter, whose shard keys end in ":<digits>}".
func (w *Window[K]) shardKey(e int64, i int) string {
	return "{" + w.f.name + ":" + strconv.FormatInt(e, 10) + "." + strconv.Itoa(i) + "}"
}

// prefix returns what shard i of a generation begins with, as a Filter's
// shard i (geometry.prefix).
func (w *Window[K]) prefix(i int) string {
	if w.header != "" {
		return w.header
	}
	return w.f.g.prefix(i)
}

func (w *Window[K]) mustBeMade(op string) {
	if w == nil || w.f.c == nil {
		panic("sbredis: " + op + " on a zero Window: make one with NewWindow")
	}
}

// Add adds k to the generation of the clock's time: one script call that
// makes the generation's shard if no add made it yet (with its marker and
// expiry) and sets k's bits. It returns an error, and k may not be added,
// if Redis failed or ctx is done; an error wrapping ErrShard if the shard
// or its marker is missing or changed (Add never recreates a shard that
// was made); with WithWaitReplicas, ErrNotReplicated. Adding again is
// harmless.
func (w *Window[K]) Add(ctx context.Context, k K) error {
	w.mustBeMade("Add")
	return w.addHashes(ctx, "Add", []uint64{bloom.Hash(k)}, w.generation(w.clock()))
}

// AddAll adds every key of keys to the generation of the clock's time (read
// once), in pipelines of batches of keys as Filter.AddAll. On error (as for
// Add) some keys may be added and others not: adding them again is
// harmless.
func (w *Window[K]) AddAll(ctx context.Context, keys []K) error {
	w.mustBeMade("AddAll")
	e := w.generation(w.clock())
	hs := make([]uint64, min(len(keys), batchKeys))
	for i := 0; i < len(keys); i += batchKeys {
		chunk := keys[i:min(i+batchKeys, len(keys))]
		for j, k := range chunk {
			hs[j] = bloom.Hash(k)
		}
		if err := w.addHashes(ctx, "AddAll", hs[:len(chunk)], e); err != nil {
			return err
		}
	}
	return nil
}

// maxScriptBits is the most bits one add script call sets: Redis' Lua
// slows down far more than linearly with thousands of arguments.
const maxScriptBits = 1024

// addHashes adds up to batchKeys hashes to generation e in one pipeline,
// at most maxScriptBits to a script call (whole keys: each key's add stays
// atomic).
func (w *Window[K]) addHashes(ctx context.Context, op string, hs []uint64, e int64) error {
	g := &w.f.g
	slot := make([]uint64, len(hs))
	_, offs, starts := g.addOffsets(hs, slot, nil, make([]int64, 0, len(hs)*g.k), make([]int, 0, len(hs)))
	expire := w.expireAt(e)
	open := map[int]int{} // shard -> its step being filled
	var steps []step
	for i, h := range hs {
		s := int(blockOf(h, g.blocks) / g.shardBlocks)
		end := len(offs)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		kb := offs[starts[i]:end]
		j, ok := open[s]
		if !ok || len(steps[j].args)-3+len(kb) > maxScriptBits {
			j = len(steps)
			open[s] = j
			key := w.shardKey(e, s)
			steps = append(steps, step{script: windowAddScript, keys: []string{key, key + ":m"},
				args: append(make([]any, 0, maxScriptBits+3), g.shardLen(s), expire, w.prefix(s)), route: key})
		}
		for _, o := range kb {
			steps[j].args = append(steps[j].args, o)
		}
	}
	err := w.f.write(ctx, op, steps)
	if err != nil && strings.Contains(err.Error(), "SBCLOCK") {
		return fmt.Errorf("sbredis: %s %q: the clocks disagree by more than the skew (%v): %v", op, w.f.name, w.skew, err)
	}
	return err
}

// Has reports whether k may have been added within the window: false
// means certainly not (or longer ago than the window). It is one round
// trip, pipelining a GETRANGE of k's block in each generation a lookup
// reads (g+2 of them), their shards' lengths and markers, and name's key.
// It returns false and an error if it could not look (Redis failed, ctx
// done), an error wrapping ErrShard if a generation that was made is
// missing or changed, or the window's record at name is gone; never false
// and nil for a key it did not check. The zero Window answers false.
func (w *Window[K]) Has(ctx context.Context, k K) (bool, error) {
	var out [1]bool
	n, err := w.HasAll(ctx, []K{k}, out[:])
	return n == 1, err
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true,
// reading the clock once and pipelining batches of keys: per generation
// read, one GETRANGE per key and one STRLEN and EXISTS (of the marker) per
// shard, then the library's batch probe over the fetched blocks. It
// panics, before touching anything, if out is shorter than keys. On error
// (as for Has) it returns 0 and the error, and out is not to be read.
func (w *Window[K]) HasAll(ctx context.Context, keys []K, out []bool) (int, error) {
	if len(out) < len(keys) {
		panic(fmt.Sprintf("sbredis: Window.HasAll: out has %d elements for %d keys", len(out), len(keys)))
	}
	clear(out[:len(keys)])
	if w == nil || w.f.c == nil || len(keys) == 0 {
		return 0, nil
	}
	g := &w.f.g
	last := w.generation(w.clock()) + 1 // the next generation: clocks a little ahead add there
	nb := min(len(keys), batchKeys)
	buf, err := blocked.AppendFilter(nil, uint64(nb), g.k, nil, blocked.BuildOptions{NoPayloadCRC: true})
	if err != nil {
		panic("sbredis: " + err.Error())
	}
	var view blocked.FilterView
	if err := view.Reset(buf); err != nil {
		panic("sbredis: " + err.Error())
	}
	ngen := int(w.gens) + 2
	hs := make([]uint64, nb)
	shard := make([]int, nb)
	tmp := make([]bool, nb)
	gets := make([]*redis.StringCmd, ngen*nb)
	type state struct {
		key      string
		s        int
		len, has *redis.IntCmd // the shard's STRLEN, and EXISTS of its marker
	}
	total := 0
	for i := 0; i < len(keys); i += batchKeys {
		if err := ctx.Err(); err != nil {
			return 0, w.f.wrap("HasAll", err)
		}
		chunk := keys[i:min(i+batchKeys, len(keys))]
		states := map[[2]int64]*state{}
		p := w.f.c.Pipeline()
		meta := p.Get(ctx, w.f.name)
		// Blocks first, then the lengths and markers: a shard made or
		// expiring meanwhile is then read as empty or found whole (see
		// below), and one lost is seen by its marker.
		for gi := range ngen {
			e := last - int64(ngen-1-gi)
			for j, k := range chunk {
				if gi == 0 {
					h := bloom.Hash(k)
					blk := blockOf(h, g.blocks)
					shard[j] = int(blk / g.shardBlocks)
					hs[j] = h
				}
				s := shard[j]
				st := states[[2]int64{e, int64(s)}]
				if st == nil {
					st = &state{key: w.shardKey(e, s), s: s}
					states[[2]int64{e, int64(s)}] = st
				}
				blk := blockOf(hs[j], g.blocks)
				off := int64(g.dataOff() + (blk-uint64(s)*g.shardBlocks)*64)
				gets[gi*nb+j] = p.GetRange(ctx, st.key, off, off+63)
			}
		}
		for _, st := range states {
			st.len = p.StrLen(ctx, st.key)
			st.has = p.Exists(ctx, st.key+":m")
		}
		if _, err := p.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return 0, w.f.wrap("HasAll", err)
		}
		if v, err := meta.Result(); v != w.meta {
			return 0, fmt.Errorf("sbredis: HasAll %q: %w: the window's record at %q is gone or changed (%v): its generations cannot be trusted", w.f.name, ErrShard, w.f.name, err)
		}
		// A shard is whole (read it), or absent with its marker (no add
		// made it, or it expired: read as empty); anything else is lost.
		live := map[*state]bool{}
		for _, st := range states {
			n, m := st.len.Val(), st.has.Val()
			switch {
			case uint64(n) == g.shardLen(st.s):
				live[st] = true
			case n == 0 && m == 0:
			case n == 0:
				return 0, fmt.Errorf("sbredis: HasAll %q: %w: %s is missing but its marker remains", w.f.name, ErrShard, st.key)
			default:
				return 0, fmt.Errorf("sbredis: HasAll %q: %w: %s holds %d bytes, not %d", w.f.name, ErrShard, st.key, n, g.shardLen(st.s))
			}
		}
		for j := range chunk {
			hs[j] = slotHash(hs[j], uint64(j), uint64(nb))
		}
		o := out[i : i+len(chunk)]
		for gi := range ngen {
			e := last - int64(ngen-1-gi)
			read := false
			for j := range chunk {
				blk := buf[64+64*j : 128+64*j]
				b := gets[gi*nb+j].Val()
				// A block read before its shard was made is "" (empty).
				if len(b) == 64 && live[states[[2]int64{e, int64(shard[j])}]] {
					copy(blk, b)
					read = true
				} else {
					clear(blk)
				}
			}
			if !read {
				continue
			}
			view.HasHashes(hs[:len(chunk)], tmp[:len(chunk)])
			for j, t := range tmp[:len(chunk)] {
				o[j] = o[j] || t
			}
		}
		for _, t := range o {
			total += int(b2i(t))
		}
	}
	return total, nil
}

func b2i(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
