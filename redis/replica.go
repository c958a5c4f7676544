package sbredis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
)

// Replica is a local copy of a Filter for lookups at local speed (the
// library's SIMD probe, no round trip), kept fresh by Refresh. Has and
// HasAll may run from any number of goroutines, alongside Refresh.
//
// The zero Replica holds nothing: Has answers false, HasAll 0, and Refresh
// panics naming Filter.Replica.
type Replica[K bloom.Key] struct {
	f   *Filter[K]
	mu  sync.Mutex // serializes Refresh
	cur atomic.Pointer[replicaState[K]]
}

// replicaState is one immutable copy: Refresh builds a new one.
type replicaState[K bloom.Key] struct {
	enc      []byte // the filter's encoding, payload 64-byte aligned
	view     bloom.FilterView[K]
	counters []int64
}

// Replica reads the whole filter (as Snapshot does) into a local replica,
// with Snapshot's errors.
func (f *Filter[K]) Replica(ctx context.Context) (*Replica[K], error) {
	f.mustBeMade("Replica")
	r := &Replica[K]{f: f}
	if _, err := r.Refresh(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Refresh brings the replica up to date: it reads every shard's change
// counter (one round trip), then re-reads only the shards whose counter
// moved since the last read, and returns how many it read. Every add
// acknowledged before Refresh started is then in the replica. Lookups
// running meanwhile see the old copy until Refresh swaps in the new one,
// which costs a copy of the filter in memory. On error the replica is
// unchanged (and an error wrapping ErrShard means the shared filter lost a
// shard).
func (r *Replica[K]) Refresh(ctx context.Context) (shardsRead int, err error) {
	if r == nil || r.f == nil {
		panic("sbredis: Refresh on a zero Replica: make one with Filter.Replica")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.f
	if err := ctx.Err(); err != nil {
		return 0, f.wrap("Refresh", err)
	}
	// The counters first: a script bumps a shard's counter with its bits,
	// so the bits read after a counter hold every add it counts.
	p := f.c.Pipeline()
	gets := make([]*redis.StringCmd, f.g.shards)
	for i := range gets {
		gets[i] = p.Get(ctx, f.counterKeys[i])
	}
	if _, err := p.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return 0, f.wrap("Refresh", err)
	}
	counters := make([]int64, f.g.shards)
	for i, g := range gets {
		n, err := strconv.ParseInt(g.Val(), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("sbredis: Refresh %q: %w: counter %s holds %q", f.name, ErrShard, f.counterKeys[i], g.Val())
		}
		counters[i] = n
	}
	old := r.cur.Load()
	var changed []int
	for i, n := range counters {
		if old == nil || old.counters[i] != n {
			changed = append(changed, i)
		}
	}
	if len(changed) == 0 {
		return 0, nil
	}
	st := &replicaState[K]{enc: alignedEncoding(f.g), counters: counters}
	if old != nil {
		copy(st.enc, old.enc)
	}
	if _, err := f.readShards(ctx, "Refresh", st.enc[64:], changed); err != nil {
		return 0, err
	}
	if err := st.view.Reset(st.enc); err != nil {
		panic("sbredis: " + err.Error())
	}
	r.cur.Store(st)
	return len(changed), nil
}

// alignedEncoding returns an empty encoding of g whose payload starts at a
// 64-byte boundary, so that every block is one cache line.
func alignedEncoding(g geometry) []byte {
	size := 64 + 64*g.blocks
	raw := make([]byte, size+63)
	skip := (64 - uintptr(unsafe.Pointer(unsafe.SliceData(raw)))%64) % 64
	return g.encoding(raw[skip : skip : skip+uintptr(size)])
}

// Has reports whether k may have been added, as of the last Refresh:
// false means it certainly was not.
func (r *Replica[K]) Has(k K) bool {
	if r == nil {
		return false
	}
	st := r.cur.Load()
	if st == nil {
		return false
	}
	return st.view.Has(k)
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true, with
// the library's batch probe. It panics, before touching anything, if out is
// shorter than keys.
func (r *Replica[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic(fmt.Sprintf("sbredis: Replica.HasAll: out has %d elements for %d keys", len(out), len(keys)))
	}
	var st *replicaState[K]
	if r != nil {
		st = r.cur.Load()
	}
	if st == nil {
		clear(out[:len(keys)])
		return 0
	}
	return st.view.HasAll(keys, out)
}
