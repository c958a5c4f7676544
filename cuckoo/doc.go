// Package cuckoo is a cuckoo filter over 64-bit hashes: an approximate set,
// like a Bloom filter, that can also remove keys. Package bloom wraps it for
// typed keys (bloom.NewCuckoo).
//
//	f, err := cuckoo.New(1_000_000, 0.001) // a million keys at 0.1%
//	err = f.AddHash(h)                      // bloom.ErrFull when no room is left
//	f.HasHash(h)                            // true
//	f.RemoveHash(h)                         // remove only what was added
//
// The filter stores a short fingerprint of each hash (4 to 32 bits, chosen
// by Size for the target rate) in one of two buckets of four slots that the
// hash chooses; a lookup compares the fingerprint with the slots of both
// buckets. The table may have any number of buckets. By default buckets are
// semi-sorted (Layout SemiSorted), one bit per slot smaller than Plain.
//
// # When to use it
//
// Use a cuckoo filter when keys must be removed: from a rate of about 2.3%
// down it is also smaller than a blocked Bloom filter of the same rate (see
// the README). A counting Bloom filter (bloom.NewCounting,
// blocked.NewCounting) deletes too and is never full, but is larger.
// Unlike a Bloom filter it can become full: AddHash returns an error wrapping
// bloom.ErrFull, and the filter is then exactly as before the call. New plans for
// n keys with room to spare, but check AddHash's error anyway. Adding a hash
// again stores another copy.
//
// Remove only hashes that were added: removing a hash that was never added
// but matches another key's fingerprint erases that key, a false negative.
//
// The filter takes hashes, not keys, and assumes they are well mixed (the
// output of a good 64-bit hash such as xxh3).
//
// # Concurrency
//
// Lookups (HasHash, HasHashes and the read-only methods) may run from many
// goroutines at once. AddHash, RemoveHash and Clear must not run at the same
// time as any other method on the same filter.
//
// Errors, bloom.ErrFull included, wrap package bloom's Err values; test for them
// with errors.Is. The binary format of this module's filters is
// specified in FORMAT.md at the root of the repository.
package cuckoo
