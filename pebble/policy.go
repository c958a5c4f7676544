// Package sbpebble is a Pebble (github.com/cockroachdb/pebble/v2) filter
// policy backed by simdbloom's cache-line blocked Bloom filter: one line
// per level of a Pebble user's options,
//
//	for i := range opts.Levels {
//		opts.Levels[i].FilterPolicy = sbpebble.FilterPolicy(10)
//	}
//
// The writer hashes each key (xxh3, seed 0, as bloom.Hash does) as it arrives,
// skipping a key whose hash equals the previous one (Pebble's bloom writer
// does the same for consecutive repeats), and builds the filter once, in
// Finish, straight into Pebble's buffer. The filter block is a simdbloom
// Filter encoding (FORMAT.md of the root module) without a payload CRC, as
// Pebble checksums its blocks itself. MayContain looks the key up in the
// block's bytes in place, without allocating.
//
// The filters are stored under Name, which never changes for this
// encoding: a database written with this policy keeps its filters across
// restarts. A reader configured with another policy (Pebble's bloom, say)
// ignores them, as this policy's reader ignores theirs: Pebble matches
// filters by name and never passes one of another name to MayContain.
//
// This module is separate from github.com/simdbloom/bloom so that Pebble
// enters only the dependency graph of programs that import it.
package sbpebble

import (
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/simdbloom/bloom/blocked"
	"github.com/zeebo/xxh3"
)

// Name is the name under which the policy's filters are stored in a
// table: it names the encoding (a simdbloom blocked Filter of xxh3 hashes,
// FORMAT.md version 1), not the bits per key, which each filter records.
// It is fixed forever; a different encoding would get a different name.
const Name = "simdbloom.BlockedBloom.xxh3.v1"

// FilterPolicy is a Pebble filter policy whose value is the number of
// bits of filter per key (10 gives about 1% false positives at 1.25 bytes
// per key, as Pebble's bloom.FilterPolicy(10) does). Values below 1 are
// taken as 1.
type FilterPolicy int

var _ pebble.FilterPolicy = FilterPolicy(0)

// Name returns Name, under which Pebble stores and finds the filters.
func (p FilterPolicy) Name() string { return Name }

// MayContain reports whether key may be in the table whose filter block is
// filter: false means certainly not. It reads filter in place and does not
// allocate. A filter it cannot read (damaged, or of another format)
// answers true, which costs a read but never loses a key; Pebble gives it
// only filters stored under Name, for tables it checksums.
func (p FilterPolicy) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	if ftype != pebble.TableFilter {
		return true
	}
	// blocked.LookupHashFor is one inlined call to its kernel, which also
	// refuses a filter of another key hash (or of integer keys); hashing
	// the short keys here instead of calling xxh3 measured only about 5%
	// faster (BenchmarkMayContainPaired), not worth a second xxh3.
	ok, err := blocked.LookupHashFor(filter, xxh3.Hash(key), blocked.HashXXH3, blocked.KeysBytes)
	return ok || err != nil
}

// NewWriter returns a writer that builds one table's filter.
func (p FilterPolicy) NewWriter(ftype pebble.FilterType) pebble.FilterWriter {
	return &writer{bitsPerKey: max(int(p), 1), hs: hashPool.Get().(*[]uint64)}
}

// hashPool recycles the writers' hash buffers between tables.
var hashPool = sync.Pool{New: func() any { return new([]uint64) }}

// writer collects the hashes of a table's keys.
type writer struct {
	bitsPerKey int
	hs         *[]uint64
}

// AddKey adds key's hash, unless it equals the previous key's.
func (w *writer) AddKey(key []byte) {
	h := xxh3.Hash(key) // bloom.Hash of a []byte
	hs := *w.hs
	if n := len(hs); n > 0 && hs[n-1] == h {
		return
	}
	*w.hs = append(hs, h)
}

// Finish appends the filter of the keys added to dst and returns it; the
// writer is then empty and its buffer goes back to a pool.
func (w *writer) Finish(dst []byte) []byte {
	hs := *w.hs
	nb, k := geometry(uint64(len(hs)), w.bitsPerKey)
	out, err := blocked.AppendFilter(dst, nb, k, hs, blocked.BuildOptions{Hash: blocked.HashXXH3, NoPayloadCRC: true})
	if err != nil {
		// Too many keys for one filter (beyond 2^32 blocks): no filter,
		// which MayContain answers true for.
		out = dst
	}
	*w.hs = hs[:0]
	hashPool.Put(w.hs)
	w.hs = new([]uint64)
	return out
}

// geometry returns the blocks and k of a filter of n keys at bitsPerKey:
// the blocks that hold n*bitsPerKey bits (at least one), and of k = 8 and
// k = 16 the one of lower false-positive rate in them.
func geometry(n uint64, bitsPerKey int) (nblocks uint64, k int) {
	nblocks = max((n*uint64(bitsPerKey)+512-1)/512, 1)
	k = 8
	if bitsPerKey > 12 && blocked.FPR(n, nblocks, 16) < blocked.FPR(n, nblocks, 8) {
		k = 16
	}
	return nblocks, k
}
