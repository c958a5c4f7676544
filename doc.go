// Package bloom provides Bloom filters and other approximate sets over
// strings, byte slices and integers: a filter answers "maybe present" or
// "certainly absent" for a key, in a fraction of the memory of a set.
//
// A Bloom filter never answers "no" for a key that was added (no false
// negatives). It answers "yes" for a key that was not added with about the
// false-positive rate it was sized for, as long as no more keys are added
// than planned:
//
//	f, err := bloom.New[string](1_000_000, 0.01) // a million keys, 1% false positives
//	if err != nil {
//		// ErrKeys, ErrFPR or ErrTooLarge
//	}
//	f.Add("https://example.com/")
//	f.Has("https://example.com/") // true
//
// Keys are hashed with xxh3 (see Hash) and stored in the cache-line blocked
// filters of package blocked. The batch forms (AddAll, HasAll) hash keys in
// chunks and run SIMD kernels: use them on hot paths.
//
// # Which filter?
//
//   - A set of keys, size known in advance: Filter, made by New.
//   - Number of keys unknown: Scalable (NewScalable) adds larger stages as
//     keys arrive and keeps the total false-positive rate under the target.
//   - Keys that expire ("seen in the last hour"): Window (NewWindow) forgets
//     a key a window after it was added, rotating generations by its clock
//     inside Add, with no goroutine.
//   - A filter to shrink before sending it, or filters of different sizes to
//     OR: Filter.Fold and FoldTo return the filter built at 1/2^t the size
//     (bit for bit), and Union takes a filter 2^t times larger or smaller.
//     Filter (and blocked.Filter) fold; the other filters do not.
//   - Keys must also be removed: Cuckoo (NewCuckoo) is the smaller (below
//     about 2.3% smaller than a Filter too), but it can become full (Add
//     returns ErrFull); Counting (NewCounting) never becomes full,
//     at several times a Filter's memory. Remove only keys that were added.
//   - Hashes you compute yourself, or adds from many goroutines at once
//     (AddHashAtomic): package blocked, the engine under every Filter (see
//     Filter.Engine and FromEngine).
//   - Parquet files: package sbparquet (blocked.SplitBlock underneath).
//   - A saved filter used in place, for example from a memory-mapped file:
//     FilterView (and CountingView, ScalableView), whose Reset neither copies
//     nor decodes the bits; the view is read-only: UnmarshalBinary the same
//     bytes for a filter you may change.
//   - Sizes only, without making a filter: blocked.Size (and SizeCounting,
//     SizeSplitBlock), cuckoo.Size and sbparquet.Size.
//
// # Watching for overflow
//
// A filter given many more keys than planned answers "maybe" to almost
// everything, silently. FillRatio (against blocked.Fill at the planned
// load: 0.55 at fpr 0.01, more at higher rates) and EstimatedFPR tell how
// full a filter is; Scalable grows instead.
//
// # Concurrency
//
// Lookups (Has, HasAll and the read-only methods) may run from any number of
// goroutines at once. Methods that change a filter (Add, AddAll, Remove,
// Union, Intersect, Clear, UnmarshalBinary, ReadFrom) must not run at the
// same time as any other method on the same filter. For concurrent adds, use
// AddHashAtomic on the engine (package blocked).
//
// # Saving and loading
//
// MarshalBinary, AppendBinary and WriteTo write a versioned, little-endian,
// checksummed encoding, the same on every platform; UnmarshalBinary and
// ReadFrom read it back into any Filter, a zero one included. The encoding
// records the key hash, so a typed filter refuses a file whose keys were
// hashed differently (ErrHashMismatch). The format is specified byte by byte
// in FORMAT.md at the root of the repository. Decoding never panics on
// damaged or hostile input; every error matches one of the Err values below
// with errors.Is, whichever package of this module returned it.
//
// # Names
//
// Every package of this module spells one meaning one way. For a filter
// type T of a package (the package's main type is its plain names: New,
// Size, FPR; a second type adds its name, as NewCounting, SizeCounting,
// CountingFPR):
//
//	meaning                      spelling                      examples
//	make one for n keys at fpr   New, NewT(n, fpr)             bloom.New, blocked.NewSplitBlock, cuckoo.New, sbparquet.New
//	make one of a given size     NewTBytes, NewBuckets         blocked.NewBytes, blocked.NewCountingBytes, cuckoo.NewBuckets
//	its size without making it   Size, SizeT(n, fpr)           blocked.Size, blocked.SizeCounting, cuckoo.Size, sbparquet.Size
//	the exact rate formula       FPR, TFPR(n, shape)           blocked.FPR(n, nblocks, k), blocked.SplitBlockFPR, cuckoo.FPR(n, buckets, fpBits)
//	read-only, over a buffer     a TView's Reset               bloom.FilterView, bloom.ScalableView, blocked.SplitBlockView
//	how many keys it holds       EstimatedCount()              exact for Cuckoo and (unsaturated) Counting
//	the rate as it is now        EstimatedFPR()
//	fraction of bits in use      FillRatio()                   LoadFactor() for cuckoo slots
//	its size                     NumBits()                     on every filter and engine, sbredis's too; bytes are NumBits()/8
//	one key by hash / by key     HasHash, AddHash / Has, Add   RemoveHash / Remove where keys can go
//	a batch                      HasHashes, AddHashes / HasAll, AddAll; RemoveHashes / RemoveAll where keys can go
//	copy, compare, empty         Clone, Equal, Clear           Clear on every filter; Clone, Equal on engines
//	the engine under a Filter    Filter.Engine(), and back: FromEngine
//	what the keys were           KeyHash, KeyFamily (and Set…) on every engine
//	saving                       MarshalBinary, AppendBinary, WriteTo / UnmarshalBinary, ReadFrom
//	hashes of many values        sbparquet.HashInt64s(dst, src) appends to dst and returns it
//
// Typed filters (this package) take keys; engines (packages blocked, cuckoo
// and sbparquet) take 64-bit hashes, and their method names end in Hash or
// Hashes.
//
// The conventions a new type follows, one decision per question:
//
//   - Size: NumBits, in bits (the unit of bits per key, of the FPR formulas
//     and of Sizing.Bits; exact for cuckoo slots, which need not fill
//     bytes). NumBlocks (NumBuckets for cuckoo) is the shape, as the FPR
//     formulas and the constructors of a given size take it.
//   - Batches: a type with a one-key method has its batch form (HasHash and
//     HasHashes, AddHash and AddHashes, RemoveHash and RemoveHashes; Has and
//     HasAll, Add and AddAll, Remove and RemoveAll).
//   - Copy and compare: engines have Clone and Equal; a typed filter is
//     copied by its encoding (MarshalBinary, then UnmarshalBinary into a
//     zero one) and compared by it (bytes.Equal of the two encodings), or,
//     for a Filter, through its engine (FromEngine(f.Engine().Clone())).
//   - Engines: a typed filter exposes its engine (Engine, FromEngine) only
//     when the engine does what the typed filter cannot: Filter (atomic adds,
//     lookups by hash). Counting and Cuckoo reach their engines through the
//     encoding, which is the same bytes (MarshalBinary of one, UnmarshalBinary
//     of the other); Scalable and Window are several engines and have none.
//   - Views answer lookups and nothing else: Has and HasAll (typed), HasHash
//     and HasHashes (engines), and Reset (sbredis.Replica, a read-only copy
//     of a shared filter, likewise answers Has and HasAll, and Refresh). Statistics (FillRatio,
//     EstimatedFPR, EstimatedCount) come from the filter decoded from the
//     same bytes. A view exists for the filters served read-only from a
//     saved file (Filter, Counting, Scalable, SplitBlock); a cuckoo filter is
//     chosen to remove keys, which a view cannot, so it has none.
//   - Key metadata: every engine records KeyHash and KeyFamily (SetKeyHash,
//     SetKeyFamily) and its encoding carries them.
//   - Errors: the Err values live in this package only, for every package of
//     the module (an engine's user imports bloom for errors.Is; it adds no
//     dependency: same module), and every error of the module wraps one, its
//     text starting "bloom:". A nested module (sbpebble, sbredis) starts its
//     errors with its own name and the operation ("sbredis: Merge ...") and
//     wraps bloom's Err values (adding its own only for what only it can
//     fail at, as sbredis.ErrShard). A panic (a caller's programming error)
//     starts with the name of the package whose function was misused
//     ("bloom:", "blocked:", "cuckoo:", "sbparquet:", "sbredis:") and names
//     the method.
//   - Package names: the directory's name; an integration whose directory
//     names another project, which users import alongside it, adds "sb":
//     sbparquet (parquet/), sbpebble (pebble/), sbredis (redis/).
//   - dst: a function taking dst appends to it and returns the result, as
//     append and AppendBinary do; it never panics on a short dst.
//   - FPR: the rate formulas take the number of keys first, then the shape as
//     the constructor of a given size takes it: blocked.FPR(n, nblocks, k),
//     blocked.SplitBlockFPR(n, nblocks), cuckoo.FPR(n, buckets, fpBits).
package bloom
