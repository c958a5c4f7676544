package sbredis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
)

// testRecreatedShard deletes a shard, then lets a write recreate part of
// it as BITFIELD does for a missing key (zero bytes, but for the bits it
// sets): the add that recreated it fails with ErrShard naming the shard,
// and every reader of the shard fails with ErrShard from then on, never
// false with nil. "lastByte" recreates the shard at exactly its length (an
// add of a key with a bit in the shard's last byte); "setbit" simulates
// that with SETBIT of the last bit and INCR of the counter.
func testRecreatedShard(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	for _, shardBytes := range []uint64{DefaultShardBytes, 4096} {
		for _, how := range []string{"add", "lastByte", "setbit"} {
			t.Run(fmt.Sprint(how, shardBytes), func(t *testing.T) {
				f, err := New[string](ctx, c, uniqueName(t), 20000, 0.01, WithShardBytes(shardBytes))
				if err != nil {
					t.Fatal(err)
				}
				ks := keys("rec", 2000)
				if err := f.AddAll(ctx, ks); err != nil {
					t.Fatal(err)
				}
				r, err := f.Replica(ctx)
				if err != nil {
					t.Fatal(err)
				}
				shardOf := func(k string) int { return int(blockOf(bloom.Hash(k), f.NumBlocks()) / f.g.shardBlocks) }
				s := shardOf(ks[0])
				victim := f.ShardKeys()[s]
				var inShard []string // added keys of the victim shard
				for _, k := range ks {
					if shardOf(k) == s {
						inShard = append(inShard, k)
					}
				}
				c.Del(ctx, victim)
				var err1 error
				switch how {
				case "add":
					err1 = f.Add(ctx, inShard[0])
				case "lastByte":
					err1 = f.Add(ctx, lastByteKey(t, f, s))
					if n, _ := c.StrLen(ctx, victim).Result(); uint64(n) != f.g.shardLen(s) {
						t.Fatalf("the add recreated %s at %d bytes, not its length %d", victim, n, f.g.shardLen(s))
					}
				case "setbit":
					c.SetBit(ctx, victim, int64(f.g.shardLen(s))*8-1, 1)
					c.Incr(ctx, f.counterKeys[s])
				}
				if how != "setbit" && (!errors.Is(err1, ErrShard) || !strings.Contains(err1.Error(), victim)) {
					t.Errorf("the add that recreated the shard: %v, want ErrShard naming %s", err1, victim)
				}
				for _, k := range inShard[:min(len(inShard), 20)] {
					if ok, err := f.Has(ctx, k); ok || !errors.Is(err, ErrShard) {
						t.Fatalf("Has(%q) after the shard was recreated: %v, %v; want false and ErrShard", k, ok, err)
					}
				}
				if _, err := f.HasAll(ctx, inShard, make([]bool, len(inShard))); !errors.Is(err, ErrShard) {
					t.Errorf("HasAll: %v, want ErrShard", err)
				}
				if _, err := f.Snapshot(ctx); !errors.Is(err, ErrShard) {
					t.Errorf("Snapshot: %v, want ErrShard", err)
				}
				if _, err := r.Refresh(ctx); !errors.Is(err, ErrShard) {
					t.Errorf("Refresh: %v, want ErrShard", err)
				}
				if _, err := f.Replica(ctx); !errors.Is(err, ErrShard) {
					t.Errorf("Replica: %v, want ErrShard", err)
				}
				if _, err := Open[string](ctx, c, f.Name()); !errors.Is(err, ErrShard) {
					t.Errorf("Open: %v, want ErrShard", err)
				}
				if err := f.AddAll(ctx, inShard); !errors.Is(err, ErrShard) {
					t.Errorf("AddAll to the recreated shard: %v, want ErrShard", err)
				}
				local, _ := bloom.New[string](20000, 0.01)
				local.AddAll(ks)
				if err := f.Merge(ctx, local); !errors.Is(err, ErrShard) {
					t.Errorf("Merge: %v, want ErrShard", err)
				}
			})
		}
	}
}

// lastByteKey returns a key whose block is the last of shard s and which
// has a bit in its last byte: an add of it to the vanished shard recreates
// the shard at exactly its length.
func lastByteKey(t *testing.T, f *Filter[string], s int) string {
	last := int64(f.g.shardLen(s))*8 - 8
	for i := range 10_000_000 {
		k := fmt.Sprintf("last-%d", i)
		h := bloom.Hash(k)
		if int(blockOf(h, f.NumBlocks())/f.g.shardBlocks) != s {
			continue
		}
		_, offs, _ := f.g.addOffsets([]uint64{h}, make([]uint64, 1), nil, nil, nil)
		for _, o := range offs {
			if o >= last {
				return k
			}
		}
	}
	t.Fatal("no key with a bit in the shard's last byte")
	return ""
}

// TestShardPrefixes checks the prefixes shards begin with: a one-shard
// filter's is the encoding header g.encoding writes, the others name the
// format and their shard; each fills the bytes before the blocks and
// begins with nonzero bytes (what adds and lookups check).
func TestShardPrefixes(t *testing.T) {
	for _, k := range []int{8, 16} {
		for _, keys := range []blocked.KeyFamily{1, 2} {
			for _, blocks := range []uint64{1, 5, 3000, 1 << 20} {
				g := geometry{k: k, blocks: blocks, shardBlocks: blocks, shards: 1, keys: keys}
				if got, want := g.prefix(0), string(g.encoding(nil)[:64]); got != want {
					t.Fatalf("k=%d keys=%d blocks=%d: prefix %x, the encoding's header %x", k, keys, blocks, got, want)
				}
			}
		}
	}
	g := shardGeometry(blocked.Sizing{K: 8, Blocks: 1000}, 1, 64*10)
	seen := map[string]bool{}
	for i := range g.shards {
		p := g.prefix(i)
		if uint64(len(p)) != g.dataOff() || p[0] == 0 || seen[p] {
			t.Fatalf("shard %d: prefix %q (%d bytes before the blocks)", i, p, g.dataOff())
		}
		seen[p] = true
	}
}
