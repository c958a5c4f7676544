// Package blocked is the engine under package bloom: Bloom filters over
// 64-bit hashes in which every key lives in one 64-byte cache line, with
// batch operations in SIMD assembly where the processor allows and a pure-Go
// path that gives the same bits everywhere.
//
// The filters take hashes, not keys, and assume the hashes are well mixed:
// the output of a good 64-bit hash such as xxh3. Package bloom hashes typed
// keys for you; use this package when you already have hashes, when one hash
// is checked against several filters, or for concurrent adds.
//
//	f, err := blocked.New(1_000_000, 0.01) // a million keys at 1%
//	f.AddHash(xxh3.HashString("alice"))
//	f.HasHash(xxh3.HashString("alice")) // true
//	n := f.HasHashes(hs, out)           // a batch: out[i] for hs[i]
//
// # Which filter?
//
//   - Filter (New, NewBytes): the fastest lookups, for sets of hashes. The
//     upper 32 bits of a hash choose a 64-byte block, the lower 32 bits one
//     bit in each of its eight 64-bit words (k = 8) or two (k = 16, chosen by
//     New for low rates).
//   - SplitBlock (NewSplitBlock): the Parquet split block filter, bit for
//     bit; package sbparquet sizes, hashes, reads and writes it as Parquet
//     files store it.
//   - Counting (NewCounting): 4-bit counters instead of bits, so hashes can
//     be removed (RemoveHash), at several times a Filter's memory.
//   - FilterView, SplitBlockView, CountingView: a filter over an encoding you
//     hold, such as a memory-mapped file, without copying it; read-only.
//     Reset points a view you keep at each buffer without allocating
//     (LookupHash and LookupHashFor do both in one call), for a storage
//     engine's block cache; AppendFilter builds an encoding in the caller's
//     buffer.
//
// Size, SizeSplitBlock and SizeCounting give the size each constructor
// makes, by the layout's exact false-positive formula (FPR, SplitBlockFPR,
// CountingFPR), without allocating.
//
// # Concurrency
//
// Lookups (HasHash, HasHashes and the read-only methods) may run from many
// goroutines at once. AddHash, AddHashes, RemoveHash, Union, Intersect,
// Clear, UnmarshalBinary and ReadFrom must not run at the same time as any
// other method on the same filter. Filter and SplitBlock also have
// AddHashAtomic and AddHashesAtomic, which may run from many goroutines at
// once, alongside HasHashAtomic and HasHashesAtomic; a lookup finds every
// hash whose add happened before it.
//
// # Saving and loading
//
// MarshalBinary, AppendBinary and WriteTo write a versioned, little-endian,
// checksummed encoding that records the key hash (KeyHash, SetKeyHash);
// UnmarshalBinary and ReadFrom read it back, and the views (FilterView.Reset)
// use it in place.
// Verify checks a whole encoding, both checksums included.
// The format is specified in FORMAT.md at the root of the repository.
// Decoding never panics on damaged or hostile input. Every error this
// package returns wraps one of package bloom's Err values (ErrFPR,
// ErrCorrupt, ...); test for them with errors.Is.
package blocked
