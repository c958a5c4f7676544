// Package sbredis keeps one simdbloom Bloom filter in Redis, shared by any
// number of processes and machines, with a local replica for lookups at SIMD
// speed. It works with any server that speaks Redis' protocol (Redis, Valkey),
// alone, behind Sentinel or as a Redis Cluster, through a go-redis
// redis.UniversalClient.
//
//	f, err := sbredis.New[string](ctx, client, "seen-urls", 10_000_000, 0.01)
//	err = f.AddAll(ctx, urls)              // adds, from any process
//	n, err := f.HasAll(ctx, urls, found)   // lookups in Redis
//	r, err := f.Replica(ctx)               // a local copy...
//	r.Has(url)                             // ...looked up in memory
//	_, err = r.Refresh(ctx)                // re-reads only the shards that changed
//
// Window, made by NewWindow, is the same for keys that expire (a
// bloom.Window): its generations are keys that Redis expires by itself, so
// a fleet shares one window; see Window for its keys and guarantees.
//
// # The bits
//
// The filter is a bloom.Filter[K] of the same n and fpr: the same blocks,
// the same k, keys hashed with bloom.Hash, so Snapshot gives exactly the
// filter bloom.New and Add would have built, bit for bit, and Merge ORs in a
// filter built locally. A key's bits lie in one 64-byte block, so a lookup
// is one GETRANGE of 64 bytes (tested here with the library's probe) and an
// add sets the key's k bits of that block with one BITFIELD; neither runs a
// script.
//
// # Keys in Redis
//
// A filter named name uses these keys:
//
//   - name: a short string recording the geometry (k, blocks, shards, key
//     hash and key family). New writes it once; Open reads it.
//   - {name:i} for shard i = 0, 1, ...: a prefix, then the bits of a range
//     of blocks. Each shard key has its own hash tag, so a Redis Cluster
//     spreads the shards over its masters. A filter that fits one shard is
//     stored as exactly the simdbloom encoding of FORMAT.md (with the
//     no-payload-CRC flag: a checksum cannot follow concurrent adds), so GET
//     {name:0} gives bytes that bloom.FilterView reads in place: its prefix
//     is the 64-byte encoding header. Each shard of a larger filter begins
//     with an 8-byte prefix, "SBRS" and the shard's number i as a
//     little-endian uint32, then holds its blocks. Both prefixes begin with
//     nonzero bytes, which a shard recreated by an add cannot have (see
//     below).
//   - {name:i}:n: shard i's change counter, which every add to the shard
//     increments (after setting its bits) and Replica.Refresh reads.
//
// A name may not contain '{' or '}'. ShardKeys lists the shard keys.
//
// # Never a silent "absent"
//
// Every method that talks to Redis returns an error when it could not
// check or add every key (server unreachable, timeout, a connection killed
// mid-batch, ctx done); it never reports a key absent with a nil error.
// Every method checks ctx before each round trip; for ctx to also cut a
// command already sent (a server that stopped answering), create the
// client with ContextTimeoutEnabled, else go-redis waits for its own
// ReadTimeout.
//
// A shard that disappeared (DEL, FLUSHALL, eviction, a failover to a replica
// that had not received it) or whose type, length or prefix changed makes
// lookups fail with an error wrapping ErrShard (itself wrapping
// bloom.ErrCorrupt): every reader (Has, HasAll, Snapshot, Replica, Refresh,
// Open) checks, in the same round trip as its reads, that each shard it
// reads is a string of its length whose first 8 bytes are its prefix's
// (one GETRANGE per shard, counted from the shard's end, which checks
// both).
//
// Adds run no script, so they cannot look before they write: a BITFIELD to
// a vanished shard recreates part of it, zero bytes but for the bits it
// sets, at most the shard's length. Such a shard would turn every key in it
// absent; it never does, because it lacks the prefix. The add that
// recreated it reads the shard's first 8 bytes in the same BITFIELD (GET
// i64 0) and fails with ErrShard naming the shard, and from then on every
// lookup of that shard, and every add to it, fails with ErrShard, until
// the filter is rebuilt (Delete, which removes the recreated part too,
// then New, and Merge of a local copy or AddAll of the keys). An add also fails with
// ErrShard if the shard's change counter was missing (its INCR made it
// again). Merge runs a script that checks the shard first, and never
// recreates it.
//
// New refuses a name or shard key that holds something else. A shard key
// that another program overwrote with a string gets the bits of later adds
// set in it (adds cannot check first), and those adds fail with ErrShard;
// one of another type is never written.
//
// # Redis settings
//
// maxmemory-policy must not evict the filter's keys: noeviction (the
// default) is safe, as are the volatile-* policies (volatile-lru,
// volatile-lfu, volatile-random, volatile-ttl), which evict only keys with
// an expiry, and a Filter's keys have none. A Window's generations have
// an expiry: windows need noeviction. The allkeys-* policies may
// evict a shard; the filter then fails with ErrShard until it is rebuilt
// (Delete, New, Merge of a local copy), never silently.
//
// Durability is Redis': an add acknowledged by a server that then crashes
// survives only if it was written to its append-only file first, that is
// with appendonly yes and appendfsync always (appendfsync everysec may lose
// the last second of adds; RDB snapshots alone lose everything since the
// last one). A failover promotes a replica that may lack the last adds;
// WithWaitReplicas makes every add wait until that many replicas
// acknowledged it (Redis' WAIT), returning ErrNotReplicated otherwise.
//
// # Shard size
//
// WithShardBytes sets the largest shard; the default, DefaultShardBytes
// (4 MiB), keeps every command short: Merge ORs a whole shard with one
// BITOP, which takes Redis' single thread about 1.2 ms per MiB, so 4 MiB
// shards hold it about 5 ms at a time (Redis' string limit, 512 MiB, would
// block it for most of a second); Snapshot and Replica read shards in 1 MiB
// GETRANGEs; and Refresh re-reads whole shards, so smaller shards re-read
// less after a few adds. A filter of up to about 3.3 million keys at 1% fits
// one shard and is stored as one encoding. In a cluster, more shards spread
// better.
//
// This module is separate from github.com/simdbloom/bloom so that go-redis
// enters only the dependency graph of programs that import it.
package sbredis
