package sbredis

import (
	"context"
	"fmt"
	"strings"

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
// was not. It is one round trip: a GETRANGE of k's 64-byte block and the
// shard's check (queueCheck), pipelined, and no script. It returns false
// and an error if it could not look (Redis failed, ctx done), an error
// wrapping ErrShard if the shard is missing or changed; never false and
// nil for a key it did not check. The zero Filter answers false.
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
	chk := f.queueCheck(ctx, p, s)
	if _, err := p.Exec(ctx); err != nil {
		return false, f.wrap("Has", err)
	}
	if err := f.checkShard("Has", s, chk.Val(), get.Val(), 64); err != nil {
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

// checkBytes is how many of a shard's first bytes adds and lookups check
// against its prefix: all of a shard's prefix, the start of a one-shard
// filter's header (magic, version, variant and k).
const checkBytes = 8

// queueCheck queues the command that checks shard s, pipelined after the
// shard's reads: a GETRANGE of checkBytes counted from the end of a shard
// of its length L (from -L), which returns the shard's first checkBytes
// only if the shard is a string of L bytes. A missing or shorter shard
// gives fewer bytes (Redis clamps the start to 0 and the end below
// checkBytes), a longer one bytes from further in, and a shard that
// vanished and was recreated by an add (BITFIELD makes the missing bytes
// zero) zero bytes: all differ from the prefix (checkShard). It costs what
// a STRLEN does, and checks both the length and the prefix.
func (f *Filter[K]) queueCheck(ctx context.Context, p redis.Pipeliner, s int) *redis.StringCmd {
	l := int64(f.g.shardLen(s))
	return p.GetRange(ctx, f.shardKeys[s], -l, -l+checkBytes-1)
}

// checkShard returns an error wrapping ErrShard, naming the shard, unless
// check (what queueCheck's command returned) is the start of shard s's
// prefix and read (bytes read from the shard) has the length want.
func (f *Filter[K]) checkShard(op string, s int, check, read string, want int) error {
	prefix := f.prefixes[s][:checkBytes]
	if check == prefix && len(read) == want {
		return nil
	}
	var why string
	switch {
	case check == prefix:
		why = fmt.Sprintf("a read of %d bytes returned %d", want, len(read))
	case len(check) < checkBytes:
		why = fmt.Sprintf("it is missing or shorter than %d bytes", f.g.shardLen(s))
	case strings.Trim(check, "\x00") == "":
		why = "it begins with zero bytes, not its prefix: it vanished and an add recreated part of it"
	default:
		why = fmt.Sprintf("it is longer than %d bytes or does not begin with its prefix", f.g.shardLen(s))
	}
	return fmt.Errorf("sbredis: %s %q: %w: %s: %s", op, f.name, ErrShard, f.shardKeys[s], why)
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true,
// pipelining batches of keys: one GETRANGE per key, then one check per
// shard and batch (as Has), then the library's batch probe over the
// fetched blocks. It panics, before touching anything, if out is shorter
// than keys. On error (as for Has) it returns 0 and the error, and out is
// not to be read.
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
	shard := make([]int, nb)
	gets := make([]*redis.StringCmd, nb)
	checks := map[int]*redis.StringCmd{}
	total := 0
	for i := 0; i < len(keys); i += batchKeys {
		if err := ctx.Err(); err != nil {
			return 0, f.wrap("HasAll", err)
		}
		chunk := keys[i:min(i+batchKeys, len(keys))]
		clear(checks)
		p := f.c.Pipeline()
		for j, k := range chunk {
			h := bloom.Hash(k)
			blk := blockOf(h, f.g.blocks)
			s := int(blk / f.g.shardBlocks)
			off := int64(f.g.dataOff() + (blk-uint64(s)*f.g.shardBlocks)*64)
			gets[j] = p.GetRange(ctx, f.shardKeys[s], off, off+63)
			checks[s] = nil
			shard[j] = s
			hs[j] = slotHash(h, uint64(j), uint64(nb))
		}
		for s := range checks {
			checks[s] = f.queueCheck(ctx, p, s)
		}
		if _, err := p.Exec(ctx); err != nil {
			return 0, f.wrap("HasAll", err)
		}
		for j, g := range gets[:len(chunk)] {
			b := g.Val()
			if err := f.checkShard("HasAll", shard[j], checks[shard[j]].Val(), b, 64); err != nil {
				return 0, err
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
// filter's blocks), in GETRANGEs of readChunk bytes, each shard checked
// after its reads (queueCheck), pipelined up to 16 MiB a round trip. It
// returns the bytes read.
func (f *Filter[K]) readShards(ctx context.Context, op string, payload []byte, shards []int) (int64, error) {
	var read int64
	for len(shards) > 0 {
		if err := ctx.Err(); err != nil {
			return read, f.wrap(op, err)
		}
		p := f.c.Pipeline()
		type part struct {
			s          int
			dst        []byte
			get, check *redis.StringCmd
		}
		var parts []part
		size := 0
		for len(shards) > 0 && size < 16<<20 {
			s := shards[0]
			shards = shards[1:]
			first, n := f.g.shardBlockRange(s)
			dst := payload[first*64 : (first+n)*64]
			start := len(parts)
			for c := 0; c < len(dst); c += readChunk {
				end := min(c+readChunk, len(dst))
				off := int64(f.g.dataOff()) + int64(c)
				parts = append(parts, part{s: s, dst: dst[c:end], get: p.GetRange(ctx, f.shardKeys[s], off, off+int64(end-c)-1)})
			}
			check := f.queueCheck(ctx, p, s)
			for j := start; j < len(parts); j++ {
				parts[j].check = check
			}
			size += len(dst)
		}
		if _, err := p.Exec(ctx); err != nil {
			return read, f.wrap(op, err)
		}
		for _, pt := range parts {
			b := pt.get.Val()
			if err := f.checkShard(op, pt.s, pt.check.Val(), b, len(pt.dst)); err != nil {
				return read, err
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
