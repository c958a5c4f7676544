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
	// bitfield makes raw a BITFIELD command whose reply is read as
	// integers (*redis.IntSliceCmd).
	bitfield bool
	// check, if not nil, returns an error for a reply that says the write
	// failed.
	check func(redis.Cmder) error
}

func (s step) queue(ctx context.Context, p redis.Pipeliner, sha bool) redis.Cmder {
	switch {
	case s.bitfield:
		return p.BitField(ctx, s.raw[0].(string), s.raw[1:]...)
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
// checks the replies (step.check), and returns WAIT's count of replicas. A
// server that lost the scripts (restarted) gets their source.
func runPipeline(ctx context.Context, c redis.Cmdable, steps []step, w *waitConfig) (int64, error) {
	cmds := make([]redis.Cmder, len(steps))
	for _, sha := range []bool{true, false} {
		p := c.Pipeline()
		for i, s := range steps {
			cmds[i] = s.queue(ctx, p, sha)
		}
		var wait *redis.Cmd
		if w != nil {
			wait = p.Do(ctx, "WAIT", w.replicas, max(w.timeout.Milliseconds(), 1))
		}
		_, err := p.Exec(ctx)
		if err != nil && sha && isNoScript(err) {
			continue
		}
		for i := 0; err == nil && i < len(steps); i++ {
			if steps[i].check != nil {
				err = steps[i].check(cmds[i])
			}
		}
		if err != nil || wait == nil {
			return 0, err
		}
		return wait.Int64()
	}
	panic("unreachable")
}

// Add adds k to the filter: one BITFIELD that sets k's k bits in its block
// (atomic) and reads the shard's first bytes, then an INCR of the shard's
// change counter, pipelined; no script. It returns an error, and k may not
// be added, if Redis failed or ctx is done; with WithWaitReplicas,
// ErrNotReplicated. Adding again is harmless.
//
// If the shard vanished (see the package documentation, "Never a silent
// absent"), the BITFIELD recreates part of it, zero but for k's bits, and
// Add returns an error wrapping ErrShard that names the shard: its first
// bytes are not its prefix. Every lookup of that shard fails with ErrShard
// from then on, until the filter is rebuilt. Add also returns ErrShard if
// the shard holds something other than a string, or if its change counter
// was missing (the INCR made it again).
func (f *Filter[K]) Add(ctx context.Context, k K) error {
	f.mustBeMade("Add")
	return f.addHashes(ctx, "Add", []uint64{bloom.Hash(k)})
}

// AddAll adds every key of keys, in pipelines of batches of keys: per
// shard, BITFIELDs as Add's, each of the bits of many keys (each key's add
// is atomic), then one INCR per shard the batch touched. On error (as for Add) some keys may be added
// and others not: adding them again is harmless.
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

// addHashes adds up to batchKeys hashes in one pipeline: per shard, one
// BITFIELD of the bits of its keys (at most maxBitfieldBits, whole keys:
// each key's add stays atomic) that ends by reading the shard's first 8
// bytes, then an INCR per shard touched. The INCRs come after the shard's
// BITFIELDs on the same connection (the shard's keys share a node), so a
// Replica that reads a counter then reads every bit it counts.
func (f *Filter[K]) addHashes(ctx context.Context, op string, hs []uint64) error {
	slot := make([]uint64, len(hs))
	_, offs, starts := f.g.addOffsets(hs, slot, nil, make([]int64, 0, len(hs)*f.g.k), make([]int, 0, len(hs)))
	open := map[int]int{} // shard -> its step being filled
	var steps []step
	var touched []int
	for i, h := range hs {
		s := int(blockOf(h, f.g.blocks) / f.g.shardBlocks)
		end := len(offs)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		kb := offs[starts[i]:end]
		j, ok := open[s]
		if !ok {
			touched = append(touched, s)
		}
		if !ok || (len(steps[j].raw)-1)/4+len(kb) > maxBitfieldBits {
			j = len(steps)
			open[s] = j
			n := min(maxBitfieldBits, len(offs)) // bits it will hold, at most
			steps = append(steps, step{raw: append(make([]any, 0, 1+4*n+3), f.shardKeys[s]), bitfield: true,
				route: f.shardKeys[s], check: f.checkPrefix(op, s)})
		}
		for _, o := range kb {
			steps[j].raw = append(steps[j].raw, "SET", "u1", o, 1)
		}
	}
	for j := range steps {
		steps[j].raw = append(steps[j].raw, "GET", "i64", 0)
	}
	for _, s := range touched {
		steps = append(steps, step{raw: []any{"INCR", f.counterKeys[s]}, route: f.shardKeys[s], check: f.checkCounter(op, s)})
	}
	return f.write(ctx, op, steps)
}

// maxBitfieldBits is the most bits one BITFIELD of AddAll sets: about
// 0.15 ms of Redis' time (PERF.md).
const maxBitfieldBits = 1024

// checkPrefix checks the reply of an add's BITFIELD to shard s, whose
// last value is the shard's first 8 bytes (GET i64 0).
func (f *Filter[K]) checkPrefix(op string, s int) func(redis.Cmder) error {
	want := int64(binary.BigEndian.Uint64([]byte(f.prefixes[s][:checkBytes])))
	return func(c redis.Cmder) error {
		v, err := c.(*redis.IntSliceCmd).Result()
		if err != nil {
			return err
		}
		if len(v) == 0 || v[len(v)-1] != want {
			return fmt.Errorf("sbredis: %s %q: %w: %s does not begin with its prefix: it vanished and this add recreated part of it; lookups in it fail until the filter is rebuilt", op, f.name, ErrShard, f.shardKeys[s])
		}
		return nil
	}
}

// checkCounter checks the reply of an add's INCR of shard s's counter:
// counters start above 0 (create), so 1 means INCR made a missing counter.
func (f *Filter[K]) checkCounter(op string, s int) func(redis.Cmder) error {
	return func(c redis.Cmder) error {
		v, err := c.(*redis.Cmd).Int64()
		if err != nil {
			return err
		}
		if v == 1 {
			return fmt.Errorf("sbredis: %s %q: %w: counter %s was missing (the add made it again)", op, f.name, ErrShard, f.counterKeys[s])
		}
		return nil
	}
}

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
		steps = append(steps, step{script: mergeScript, keys: []string{f.shardKeys[i], f.counterKeys[i], tmp}, args: []any{f.g.shardLen(i), f.prefixes[i]}, route: tmp})
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
