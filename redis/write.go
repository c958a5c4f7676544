package sbredis

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
)

// step is one command of a write: a script call, or a plain command.
type step struct {
	script *redis.Script
	keys   []string
	args   []any
	raw    []any
	route  string // a key of the shard, for WAIT's routing
}

func (s step) queue(ctx context.Context, p redis.Pipeliner, sha bool) redis.Cmder {
	switch {
	case s.script == nil:
		return p.Do(ctx, s.raw...)
	case sha:
		return s.script.EvalSha(ctx, p, s.keys, s.args...)
	default:
		return s.script.Eval(ctx, p, s.keys, s.args...)
	}
}

// write runs steps in pipelines, in order per shard. With WithWaitReplicas
// it pipelines them per master, each pipeline followed by WAIT on its
// connection.
func (f *Filter[K]) write(ctx context.Context, op string, steps []step) error {
	if err := ctx.Err(); err != nil {
		return f.wrap(op, err)
	}
	if f.wait.replicas == 0 {
		_, err := runPipeline(ctx, f.c, steps, nil)
		return f.wrap(op, err)
	}
	groups := map[*redis.Client][]step{}
	var order []*redis.Client
	for _, s := range steps {
		var node *redis.Client
		switch c := f.c.(type) {
		case *redis.ClusterClient:
			n, err := c.MasterForKey(ctx, s.route)
			if err != nil {
				return f.wrap(op, err)
			}
			node = n
		case *redis.Client:
			node = c
		}
		if _, ok := groups[node]; !ok {
			order = append(order, node)
		}
		groups[node] = append(groups[node], s)
	}
	for _, node := range order {
		acked, err := runPipeline(ctx, node, groups[node], &f.wait)
		if err != nil {
			return f.wrap(op, err)
		}
		if acked < int64(f.wait.replicas) {
			return f.wrap(op, fmt.Errorf("%w: %d of %d replicas within %v", ErrNotReplicated, acked, f.wait.replicas, f.wait.timeout))
		}
	}
	return nil
}

// runPipeline runs steps in one pipeline of c, then WAIT if w is not nil,
// and returns WAIT's count of replicas. A server that lost the scripts
// (restarted) gets their source.
func runPipeline(ctx context.Context, c redis.Cmdable, steps []step, w *waitConfig) (int64, error) {
	for _, sha := range []bool{true, false} {
		p := c.Pipeline()
		for _, s := range steps {
			s.queue(ctx, p, sha)
		}
		var wait *redis.Cmd
		if w != nil {
			wait = p.Do(ctx, "WAIT", w.replicas, max(w.timeout.Milliseconds(), 1))
		}
		_, err := p.Exec(ctx)
		if err != nil && sha && isNoScript(err) {
			continue
		}
		if err != nil || wait == nil {
			return 0, err
		}
		return wait.Int64()
	}
	panic("unreachable")
}

// Add adds k to the filter: one script call that sets k's bits in its
// block and increments the shard's counter, atomically. It returns an
// error, and k may not be added, if Redis failed or ctx is done; an error
// wrapping ErrShard if the shard is missing or changed (Add never recreates
// it); with WithWaitReplicas, ErrNotReplicated. Adding again is harmless.
func (f *Filter[K]) Add(ctx context.Context, k K) error {
	f.mustBeMade("Add")
	return f.addHashes(ctx, "Add", []uint64{bloom.Hash(k)})
}

// AddAll adds every key of keys, in pipelines of batches of keys, one
// script call per shard and batch (each key's add is atomic). On error
// (as for Add) some keys may be added and others not: adding them again
// is harmless.
func (f *Filter[K]) AddAll(ctx context.Context, keys []K) error {
	f.mustBeMade("AddAll")
	hs := make([]uint64, min(len(keys), batchKeys))
	for i := 0; i < len(keys); i += batchKeys {
		chunk := keys[i:min(i+batchKeys, len(keys))]
		for j, k := range chunk {
			hs[j] = bloom.Hash(k)
		}
		if err := f.addHashes(ctx, "AddAll", hs[:len(chunk)]); err != nil {
			return err
		}
	}
	return nil
}

// addHashes adds up to batchKeys hashes in one pipeline.
func (f *Filter[K]) addHashes(ctx context.Context, op string, hs []uint64) error {
	slot := make([]uint64, len(hs))
	_, offs, starts := f.g.addOffsets(hs, slot, nil, make([]int64, 0, len(hs)*f.g.k), make([]int, 0, len(hs)))
	// Group the offsets by shard, in the order shards first appear, at
	// most maxScriptBits to a script call (whole keys: each key's add
	// stays atomic): Redis' Lua slows down far more than linearly with
	// thousands of arguments.
	open := map[int]int{} // shard -> its step being filled
	var steps []step
	for i, h := range hs {
		s := int(blockOf(h, f.g.blocks) / f.g.shardBlocks)
		end := len(offs)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		kb := offs[starts[i]:end]
		j, ok := open[s]
		if !ok || len(steps[j].args)-1+len(kb) > maxScriptBits {
			j = len(steps)
			open[s] = j
			steps = append(steps, step{script: addScript, keys: []string{f.shardKeys[s], f.counterKeys[s]},
				args: append(make([]any, 0, maxScriptBits+1), f.g.shardLen(s)), route: f.shardKeys[s]})
		}
		for _, o := range kb {
			steps[j].args = append(steps[j].args, o)
		}
	}
	return f.write(ctx, op, steps)
}

// maxScriptBits is the most bits one add script call sets.
const maxScriptBits = 1024

// mergeChunk is the size of the SET and APPEND commands that carry a
// shard's bits to Redis in Merge.
const mergeChunk = 1 << 20

// Merge ORs g, a filter built locally with bloom.New[K] for the same n and
// fpr (the same blocks and k), into the filter: every key added to g is
// then in f. Each shard of g that has a bit set is sent to a temporary key
// beside its shard in 1 MiB commands, then ORed in by one BITOP (a script
// that also checks the shard and increments its counter), shard by shard.
// It returns an error wrapping bloom.ErrGeometry if g has another geometry
// (or is nil or zero), bloom.ErrHashMismatch for another key hash, and
// Add's errors; on error some shards may be merged and others not: merging
// again is harmless. Temporary keys left by a crash expire after an hour.
func (f *Filter[K]) Merge(ctx context.Context, g *bloom.Filter[K]) error {
	f.mustBeMade("Merge")
	if g == nil || g.Engine() == nil {
		return fmt.Errorf("sbredis: Merge %q: %w: nil or zero filter", f.name, bloom.ErrGeometry)
	}
	e := g.Engine()
	if e.NumBlocks() != f.g.blocks || e.K() != f.g.k {
		return fmt.Errorf("sbredis: Merge %q: %w: the local filter has %d blocks (k = %d), the shared one %d (k = %d)",
			f.name, bloom.ErrGeometry, e.NumBlocks(), e.K(), f.g.blocks, f.g.k)
	}
	if e.KeyHash() != blocked.HashXXH3 || e.KeyFamily() != f.g.keys && e.KeyFamily() != blocked.KeysUnrecorded {
		return fmt.Errorf("sbredis: Merge %q: %w: the local filter's key hash is %v (family %d), the shared one's xxh3 (family %d)", f.name, bloom.ErrHashMismatch, e.KeyHash(), e.KeyFamily(), f.g.keys)
	}
	enc, err := e.AppendBinary(nil)
	if err != nil {
		return fmt.Errorf("sbredis: Merge %q: %w", f.name, err)
	}
	payload := enc[64:]
	var tag [8]byte
	if _, err := rand.Read(tag[:]); err != nil {
		return fmt.Errorf("sbredis: Merge %q: %w", f.name, err)
	}
	for i := range f.g.shards {
		first, n := f.g.shardBlockRange(i)
		bits := payload[first*64 : (first+n)*64]
		if allZero(bits) {
			continue
		}
		tmp := f.shardKeys[i] + ":merge:" + hex.EncodeToString(tag[:])
		off := f.g.dataOff()
		head := make([]byte, off+uint64(min(len(bits), mergeChunk)))
		copy(head[off:], bits)
		steps := []step{{raw: []any{"SET", tmp, head, "PX", time.Hour.Milliseconds()}, route: tmp}}
		for c := mergeChunk; c < len(bits); c += mergeChunk {
			steps = append(steps, step{raw: []any{"APPEND", tmp, bits[c:min(c+mergeChunk, len(bits))]}, route: tmp})
		}
		steps = append(steps, step{script: mergeScript, keys: []string{f.shardKeys[i], f.counterKeys[i], tmp}, args: []any{f.g.shardLen(i)}, route: tmp})
		if err := f.write(ctx, "Merge", steps); err != nil {
			return err
		}
	}
	return nil
}

func allZero(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b) != 0 {
			return false
		}
		b = b[8:]
	}
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}
