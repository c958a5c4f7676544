package sbredis

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
)

// DefaultShardBytes is the shard size New uses without WithShardBytes:
// 4 MiB (see the package documentation for why).
const DefaultShardBytes = 4 << 20

// MaxShardBytes is the largest shard WithShardBytes accepts: Redis' string
// limit (512 MiB) less the 64-byte header of a one-shard filter.
const MaxShardBytes = 512<<20 - 64

// Filter is a Bloom filter of keys of type K kept in Redis. Make one with
// New or Open. Its methods may be called from any number of goroutines and
// processes at once; adds from all of them are kept.
//
// The zero Filter holds nothing: Has and HasAll answer false, and the other
// methods panic naming New.
type Filter[K bloom.Key] struct {
	c    redis.UniversalClient
	name string
	g    geometry
	// shardKeys and counterKeys are the Redis keys of the shards and
	// their change counters.
	shardKeys, counterKeys []string
	// prefixes are what each shard's string begins with (geometry.prefix).
	prefixes []string
	wait     waitConfig
}

// Option configures New.
type Option struct {
	apply func(*config)
}

type config struct {
	shardBytes uint64
	wait       waitConfig
	// For NewWindow only: windowOpt names the first such option given,
	// which New and Configure refuse.
	windowOpt string
	gens      int
	clock     func() time.Time
	skew      time.Duration
	skewSet   bool
}

type waitConfig struct {
	replicas int
	timeout  time.Duration
}

// WithShardBytes sets the largest size of a shard, rounded down to a whole
// number of 64-byte blocks: a filter larger than b bytes is split into
// shards of b bytes (the last one smaller). b must be in [64,
// MaxShardBytes], else New returns an error wrapping bloom.ErrOption.
// It matters only when the filter is made: Open and New on an existing
// filter keep the shards it has.
func WithShardBytes(b uint64) Option {
	return Option{func(c *config) { c.shardBytes = b }}
}

// WithWaitReplicas makes every add (Add, AddAll, Merge) wait until at least
// n replicas of each master it wrote to acknowledged the write, for at most
// timeout (Redis' WAIT), and return an error wrapping ErrNotReplicated if
// fewer did. It needs a *redis.Client (a single server or Sentinel) or a
// *redis.ClusterClient; n must be at least 1 and timeout positive, else
// New or Configure returns an error wrapping bloom.ErrOption.
func WithWaitReplicas(n int, timeout time.Duration) Option {
	return Option{func(c *config) { c.wait = waitConfig{n, timeout} }}
}

// Configure applies options that do not change the filter's geometry
// (WithWaitReplicas) to f, for a filter obtained with Open. It must not run
// at the same time as other methods of f. WithShardBytes is refused with
// an error wrapping bloom.ErrOption.
func (f *Filter[K]) Configure(opts ...Option) error {
	f.mustBeMade("Configure")
	cfg := config{wait: f.wait}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cfg)
		}
	}
	if cfg.shardBytes != 0 {
		return fmt.Errorf("sbredis: Configure: %w: WithShardBytes applies only when a filter is made", bloom.ErrOption)
	}
	if cfg.windowOpt != "" {
		return fmt.Errorf("sbredis: Configure: %w: %s applies only to NewWindow", bloom.ErrOption, cfg.windowOpt)
	}
	if err := checkWait(f.c, cfg.wait); err != nil {
		return err
	}
	f.wait = cfg.wait
	return nil
}

func checkWait(c redis.UniversalClient, w waitConfig) error {
	if w == (waitConfig{}) {
		return nil
	}
	if w.replicas < 1 || w.timeout <= 0 {
		return fmt.Errorf("sbredis: %w: WithWaitReplicas(%d, %v): need n >= 1 and a positive timeout", bloom.ErrOption, w.replicas, w.timeout)
	}
	switch c.(type) {
	case *redis.Client, *redis.ClusterClient:
		return nil
	}
	return fmt.Errorf("sbredis: %w: WithWaitReplicas needs a *redis.Client or *redis.ClusterClient, not %T", bloom.ErrOption, c)
}

// geometry is what the name's key records.
type geometry struct {
	k           int
	blocks      uint64 // 64-byte blocks of the whole filter
	shardBlocks uint64 // blocks per shard (the last may have fewer)
	shards      int
	keys        blocked.KeyFamily
}

const metaPrefix = "sbredis 1 "

func (g geometry) String() string {
	return fmt.Sprintf("%sk=%d blocks=%d shardblocks=%d shards=%d hash=%d keys=%d",
		metaPrefix, g.k, g.blocks, g.shardBlocks, g.shards, blocked.HashXXH3, g.keys)
}

// parseGeometry reads what geometry.String wrote, and nothing else.
func parseGeometry(s string) (geometry, error) {
	var g geometry
	var hash, keys int
	if !strings.HasPrefix(s, metaPrefix) {
		return g, errors.New("not a sbredis filter")
	}
	_, err := fmt.Sscanf(s[len(metaPrefix):], "k=%d blocks=%d shardblocks=%d shards=%d hash=%d keys=%d",
		&g.k, &g.blocks, &g.shardBlocks, &g.shards, &hash, &keys)
	if err != nil || hash != int(blocked.HashXXH3) || keys < 0 || keys > 2 {
		return g, fmt.Errorf("unreadable geometry %q", s)
	}
	g.keys = blocked.KeyFamily(keys)
	if g.String() != s || (g.k != 8 && g.k != 16) || g.blocks == 0 || g.blocks > blocked.MaxBlocks ||
		g.shardBlocks == 0 || g.shardBlocks*64 > MaxShardBytes || g.shards < 1 ||
		uint64(g.shards) != (g.blocks+g.shardBlocks-1)/g.shardBlocks {
		return g, fmt.Errorf("inconsistent geometry %q", s)
	}
	return g, nil
}

// shardGeometry returns the geometry of a filter of sz's blocks and k cut
// into shards of at most shardBytes (a multiple of 64 in [64,
// MaxShardBytes]).
func shardGeometry(sz blocked.Sizing, keys blocked.KeyFamily, shardBytes uint64) geometry {
	g := geometry{k: sz.K, blocks: sz.Blocks, keys: keys}
	if g.blocks*64 <= shardBytes {
		g.shardBlocks, g.shards = g.blocks, 1
	} else {
		g.shardBlocks = shardBytes / 64
		g.shards = int((g.blocks + g.shardBlocks - 1) / g.shardBlocks)
	}
	return g
}

// dataOff is where the blocks start in each shard: after its prefix.
func (g geometry) dataOff() uint64 {
	if g.shards == 1 {
		return 64
	}
	return uint64(len(shardMagic)) + 4
}

// shardMagic begins every shard of a filter of more than one shard.
const shardMagic = "SBRS"

// prefix returns the bytes shard i begins with, before its blocks: the
// encoding header of the whole filter when it has one shard, else
// shardMagic and i as a little-endian uint32. Both begin with nonzero
// bytes, which a shard that vanished and was recreated by an add (BITFIELD
// makes a missing key of zero bytes) cannot have: adds and lookups check
// the prefix.
func (g geometry) prefix(i int) string {
	if g.shards == 1 {
		return string(g.header())
	}
	b := binary.LittleEndian.AppendUint32([]byte(shardMagic), uint32(i))
	return string(b)
}

// header returns the 64-byte encoding header of an empty filter of g's
// geometry (g.encoding(nil)[:64]) without making its payload: the header
// of a one-block filter with the blocks, payload length and header CRC of
// g's (FORMAT.md).
func (g geometry) header() []byte {
	b, err := blocked.AppendFilter(nil, 1, g.k, nil, blocked.BuildOptions{Hash: blocked.HashXXH3, Keys: g.keys, NoPayloadCRC: true})
	if err != nil {
		panic("sbredis: " + err.Error()) // the geometry was checked
	}
	h := b[:64]
	binary.LittleEndian.PutUint64(h[8:], g.blocks)
	binary.LittleEndian.PutUint64(h[24:], 64*g.blocks)
	binary.LittleEndian.PutUint32(h[60:], crc32.Checksum(h[:60], crc32.MakeTable(crc32.Castagnoli)))
	return h
}

// shardBlockRange returns the first block of shard i and its number of blocks.
func (g geometry) shardBlockRange(i int) (first, n uint64) {
	first = uint64(i) * g.shardBlocks
	return first, min(g.shardBlocks, g.blocks-first)
}

// shardLen is the length in bytes of shard i's string.
func (g geometry) shardLen(i int) uint64 {
	_, n := g.shardBlockRange(i)
	return g.dataOff() + 64*n
}

// keyFamily returns the key family bloom records for keys of type K.
func keyFamily[K bloom.Key]() blocked.KeyFamily {
	f, err := bloom.New[K](1, 0.5)
	if err != nil {
		panic("sbredis: " + err.Error())
	}
	return f.Engine().KeyFamily()
}

func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("sbredis: %w: empty filter name", bloom.ErrOption)
	}
	if strings.ContainsAny(name, "{}") {
		return fmt.Errorf("sbredis: %w: filter name %q contains '{' or '}' (the shard keys' hash tags)", bloom.ErrOption, name)
	}
	return nil
}

// New returns the filter named name in Redis, sized for n keys at
// false-positive rate fpr as bloom.New[K](n, fpr) sizes it. If no filter
// exists at name it makes one (the name's key, every shard and counter,
// none of which may exist yet); if one exists with the same geometry
// (blocks, k, key family) it opens it, as any number of processes calling
// New at once do; else it returns an error wrapping bloom.ErrGeometry
// (another size) or bloom.ErrHashMismatch (another key type).
//
// Bad input gives bloom.New's errors: ErrKeys for n = 0, ErrFPR for fpr
// outside (0, 1), ErrTooLarge; an empty name or one with '{' or '}', or a bad
// option, gives ErrOption. A key at name that is not a filter of this
// package gives an error wrapping bloom.ErrMagic, and is left as it is.
func New[K bloom.Key](ctx context.Context, c redis.UniversalClient, name string, n uint64, fpr float64, opts ...Option) (*Filter[K], error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	sz, err := blocked.Size(n, fpr)
	if err != nil {
		return nil, fmt.Errorf("sbredis: %w", err)
	}
	cfg := config{shardBytes: DefaultShardBytes}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cfg)
		}
	}
	if cfg.windowOpt != "" {
		return nil, fmt.Errorf("sbredis: New: %w: %s applies only to NewWindow", bloom.ErrOption, cfg.windowOpt)
	}
	if cfg.shardBytes < 64 || cfg.shardBytes > MaxShardBytes {
		return nil, fmt.Errorf("sbredis: %w: WithShardBytes(%d) outside [64, %d]", bloom.ErrOption, cfg.shardBytes, MaxShardBytes)
	}
	if err := checkWait(c, cfg.wait); err != nil {
		return nil, err
	}
	g := shardGeometry(sz, keyFamily[K](), cfg.shardBytes)
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sbredis: New: %w", err)
		}
		f, err := open[K](ctx, c, name)
		if err == nil {
			if f.g != g {
				return nil, fmt.Errorf("sbredis: New: %w: %q holds a filter of %d blocks (k = %d, %d shards, key family %d), not %d blocks (k = %d, %d shards, key family %d)",
					bloom.ErrGeometry, name, f.g.blocks, f.g.k, f.g.shards, f.g.keys, g.blocks, g.k, g.shards, g.keys)
			}
			f.wait = cfg.wait
			return f, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		f = newFilter[K](c, name, g)
		f.wait = cfg.wait
		made, err := f.create(ctx)
		if err != nil {
			return nil, err
		}
		if made {
			return f, nil
		}
		// Another process made the name's key first: open its filter.
	}
}

func newFilter[K bloom.Key](c redis.UniversalClient, name string, g geometry) *Filter[K] {
	f := &Filter[K]{c: c, name: name, g: g}
	for i := range g.shards {
		s := "{" + name + ":" + strconv.Itoa(i) + "}"
		f.shardKeys = append(f.shardKeys, s)
		f.counterKeys = append(f.counterKeys, s+":n")
		f.prefixes = append(f.prefixes, g.prefix(i))
	}
	return f
}

// encoding returns the encoding of an empty filter of g's geometry, key
// hash xxh3, without a payload CRC, in dst's spare room if it has enough:
// the header Snapshot, Replica and a one-shard filter's key use.
func (g geometry) encoding(dst []byte) []byte {
	b, err := blocked.AppendFilter(dst[:0], g.blocks, g.k, nil, blocked.BuildOptions{Hash: blocked.HashXXH3, Keys: g.keys, NoPayloadCRC: true})
	if err != nil {
		panic("sbredis: " + err.Error()) // the geometry was checked
	}
	return b
}

func (f *Filter[K]) mustBeMade(op string) {
	if f == nil || f.c == nil {
		panic("sbredis: " + op + " on a zero Filter: make one with New or Open")
	}
}

// Name returns the filter's name: the Redis key that records its geometry.
func (f *Filter[K]) Name() string { return f.name }

// ShardKeys returns the Redis keys that hold the filter's bits, shard 0
// first. With one shard, GET of ShardKeys()[0] is the filter's encoding,
// which bloom.FilterView[K] reads in place.
func (f *Filter[K]) ShardKeys() []string { return append([]string(nil), f.shardKeys...) }

// NumBlocks returns the number of 64-byte blocks of the filter.
func (f *Filter[K]) NumBlocks() uint64 { return f.g.blocks }

// NumBits returns the size of the filter in bits, as bloom.Filter's
// NumBits: NumBlocks()*512.
func (f *Filter[K]) NumBits() uint64 { return f.g.blocks * 512 }
