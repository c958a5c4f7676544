package sbredis

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
)

// oneBlockHeader is the header of a filter of one block (k = 8 or 16), in
// front of a fetched block for the library's probe.
var oneBlockHeader = map[int][]byte{}

func init() {
	for _, k := range []int{8, 16} {
		b, err := blocked.AppendFilter(nil, 1, k, nil, blocked.BuildOptions{NoPayloadCRC: true})
		if err != nil {
			panic(err)
		}
		oneBlockHeader[k] = b[:64]
	}
}

// Has reports whether k may have been added: false means it certainly
// was not. It is one round trip: a GETRANGE of k's 64-byte block and a
// STRLEN of its shard, pipelined, and no script. It returns false and an
// error if it could not look (Redis failed, ctx done), an error wrapping
// ErrShard if the shard is missing or changed; never false and nil for a key
// it did not check. The zero Filter answers false.
func (f *Filter[K]) Has(ctx context.Context, k K) (bool, error) {
	if f == nil || f.c == nil {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, f.wrap("Has", err)
	}
	h := bloom.Hash(k)
	blk := blockOf(h, f.g.blocks)
	s := int(blk / f.g.shardBlocks)
	off := int64(f.g.dataOff() + (blk-uint64(s)*f.g.shardBlocks)*64)
	p := f.c.Pipeline()
	get := p.GetRange(ctx, f.shardKeys[s], off, off+63)
	n := p.StrLen(ctx, f.shardKeys[s])
	if _, err := p.Exec(ctx); err != nil {
		return false, f.wrap("Has", err)
	}
	if err := f.checkLen(s, n.Val(), get.Val()); err != nil {
		return false, err
	}
	var buf [128]byte
	copy(buf[:], oneBlockHeader[f.g.k])
	copy(buf[64:], get.Val())
	ok, err := blocked.LookupHash(buf[:], h)
	if err != nil {
		panic("sbredis: " + err.Error())
	}
	return ok, nil
}

func (f *Filter[K]) checkLen(s int, n int64, block string) error {
	if uint64(n) != f.g.shardLen(s) || len(block) != 64 {
		return fmt.Errorf("sbredis: %q: %w: %s holds %d bytes, not %d", f.name, ErrShard, f.shardKeys[s], n, f.g.shardLen(s))
	}
	return nil
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true,
// pipelining batches of keys: one GETRANGE per key and one STRLEN per shard
// and batch, then the library's batch probe over the fetched blocks. It
// panics, before touching anything, if out is shorter than keys. On error
// (as for Has) it returns 0 and the error, and out is not to be read.
func (f *Filter[K]) HasAll(ctx context.Context, keys []K, out []bool) (int, error) {
	if len(out) < len(keys) {
		panic(fmt.Sprintf("sbredis: HasAll: out has %d elements for %d keys", len(out), len(keys)))
	}
	if f == nil || f.c == nil || len(keys) == 0 {
		clear(out[:len(keys)])
		return 0, nil
	}
	nb := min(len(keys), batchKeys)
	buf, err := blocked.AppendFilter(nil, uint64(nb), f.g.k, nil, blocked.BuildOptions{NoPayloadCRC: true})
	if err != nil {
		panic("sbredis: " + err.Error())
	}
	var view blocked.FilterView
	if err := view.Reset(buf); err != nil {
		panic("sbredis: " + err.Error())
	}
	hs := make([]uint64, nb)
	gets := make([]*redis.StringCmd, nb)
	seen := map[int]*redis.IntCmd{}
	total := 0
	for i := 0; i < len(keys); i += batchKeys {
		if err := ctx.Err(); err != nil {
			return 0, f.wrap("HasAll", err)
		}
		chunk := keys[i:min(i+batchKeys, len(keys))]
		clear(seen)
		p := f.c.Pipeline()
		for j, k := range chunk {
			h := bloom.Hash(k)
			blk := blockOf(h, f.g.blocks)
			s := int(blk / f.g.shardBlocks)
			off := int64(f.g.dataOff() + (blk-uint64(s)*f.g.shardBlocks)*64)
			gets[j] = p.GetRange(ctx, f.shardKeys[s], off, off+63)
			if _, ok := seen[s]; !ok {
				seen[s] = p.StrLen(ctx, f.shardKeys[s])
			}
			hs[j] = slotHash(h, uint64(j), uint64(nb))
		}
		if _, err := p.Exec(ctx); err != nil {
			return 0, f.wrap("HasAll", err)
		}
		for s, n := range seen {
			if uint64(n.Val()) != f.g.shardLen(s) {
				return 0, f.checkLen(s, n.Val(), "")
			}
		}
		for j, g := range gets[:len(chunk)] {
			b := g.Val()
			if len(b) != 64 {
				s := int(blockOf(bloom.Hash(chunk[j]), f.g.blocks) / f.g.shardBlocks)
				return 0, f.checkLen(s, -1, b)
			}
			copy(buf[64+64*j:], b)
		}
		total += view.HasHashes(hs[:len(chunk)], out[i:i+len(chunk)])
	}
	return total, nil
}

// readChunk is the size of the GETRANGEs that read shards.
const readChunk = 1 << 20

// readShards reads the blocks of the given shards into payload (the whole
// filter's blocks), in GETRANGEs of readChunk bytes, each shard's length
// checked, pipelined up to 16 MiB a round trip. It returns the bytes read.
func (f *Filter[K]) readShards(ctx context.Context, op string, payload []byte, shards []int) (int64, error) {
	var read int64
	for len(shards) > 0 {
		if err := ctx.Err(); err != nil {
			return read, f.wrap(op, err)
		}
		p := f.c.Pipeline()
		type part struct {
			s   int
			dst []byte
			get *redis.StringCmd
		}
		var parts []part
		lens := map[int]*redis.IntCmd{}
		size := 0
		for len(shards) > 0 && size < 16<<20 {
			s := shards[0]
			shards = shards[1:]
			first, n := f.g.shardBlockRange(s)
			dst := payload[first*64 : (first+n)*64]
			lens[s] = p.StrLen(ctx, f.shardKeys[s])
			for c := 0; c < len(dst); c += readChunk {
				end := min(c+readChunk, len(dst))
				off := int64(f.g.dataOff()) + int64(c)
				parts = append(parts, part{s, dst[c:end], p.GetRange(ctx, f.shardKeys[s], off, off+int64(end-c)-1)})
			}
			size += len(dst)
		}
		if _, err := p.Exec(ctx); err != nil {
			return read, f.wrap(op, err)
		}
		for s, n := range lens {
			if uint64(n.Val()) != f.g.shardLen(s) {
				return read, f.checkLen(s, n.Val(), "")
			}
		}
		for _, pt := range parts {
			b := pt.get.Val()
			if len(b) != len(pt.dst) {
				return read, f.checkLen(pt.s, -1, b)
			}
			copy(pt.dst, b)
			read += int64(len(b))
		}
	}
	return read, nil
}

// Snapshot reads the whole filter into a local bloom.Filter[K], shard by
// shard in 1 MiB GETRANGEs: the bits of every add acknowledged before it
// started, and perhaps of adds made while it ran (the reads are not one
// atomic read). It returns an error if Redis failed, ctx is done, or a
// shard is missing or changed (ErrShard).
func (f *Filter[K]) Snapshot(ctx context.Context) (*bloom.Filter[K], error) {
	f.mustBeMade("Snapshot")
	enc := f.g.encoding(nil)
	all := make([]int, f.g.shards)
	for i := range all {
		all[i] = i
	}
	if _, err := f.readShards(ctx, "Snapshot", enc[64:], all); err != nil {
		return nil, err
	}
	var out bloom.Filter[K]
	if err := out.UnmarshalBinary(enc); err != nil {
		return nil, fmt.Errorf("sbredis: Snapshot %q: %w", f.name, err)
	}
	return &out, nil
}
