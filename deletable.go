package bloom

import (
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
)

// Cuckoo is a cuckoo filter of keys of type K: like a Bloom filter, but keys
// can be removed. It stores a short fingerprint of each key in one of two
// buckets; see package cuckoo.
//
// Unlike a Bloom filter it can be full: Add returns an error (and changes
// nothing) when no room can be made. Remove only keys that were added:
// removing a key that was never added can erase another key's fingerprint.
// Has is safe for concurrent use; Add and Remove are not.
type Cuckoo[K Key] struct {
	f    *cuckoo.Filter
	kind keyKind
}

// NewCuckoo returns a cuckoo filter sized for n keys at false-positive rate
// fpr; cuckoo.Size(n, fpr) gives its size. It returns ErrKeys for n = 0,
// ErrFPR for fpr outside (0, 1) or below what cuckoo filters reach (about
// 9.3e-10), and ErrTooLarge for a table too large to make.
//
// The zero Cuckoo is empty: its lookups answer false and 0, its mutations
// panic, and UnmarshalBinary or ReadFrom fill it.
func NewCuckoo[K Key](n uint64, fpr float64) (*Cuckoo[K], error) {
	f, err := cuckoo.New(n, fpr)
	if err != nil {
		return nil, err
	}
	f.SetKeyHash(blocked.HashXXH3)
	f.SetKeyFamily(keyFamily[K]())
	return &Cuckoo[K]{f: f, kind: kindOf[K]()}, nil
}

// Engine returns the hash-level cuckoo filter underneath, for AddHash,
// HasHash and RemoveHash with hashes computed by Hash, and for the methods
// this type does not repeat; nil for the zero Cuckoo.
func (c *Cuckoo[K]) Engine() *cuckoo.Filter { return c.f }

// mustEngine panics, naming the constructor, when c is the zero Cuckoo.
func (c *Cuckoo[K]) mustEngine(op string) *cuckoo.Filter {
	if c.f == nil {
		panic("bloom: " + op + " on a zero Cuckoo; use bloom.NewCuckoo")
	}
	return c.f
}

// Add adds k, or returns an error wrapping ErrFull (leaving the filter
// unchanged).
func (c *Cuckoo[K]) Add(k K) error { return c.mustEngine("Add").AddHash(hashKind(c.kind, &k)) }

// Has reports whether k may have been added: false means certainly not.
func (c *Cuckoo[K]) Has(k K) bool {
	if c.f == nil {
		return false
	}
	return c.f.HasHash(hashKind(c.kind, &k))
}

// Remove removes one copy of k and reports whether a fingerprint was found.
func (c *Cuckoo[K]) Remove(k K) bool { return c.mustEngine("Remove").RemoveHash(hashKind(c.kind, &k)) }

// AddAll adds the keys in order, hashing them in chunks, until one does not
// fit: it returns how many were added and, if one did not fit, an error
// wrapping ErrFull. The keys before the failed one stay added; the failed
// one changes nothing and the ones after it are not tried.
func (c *Cuckoo[K]) AddAll(keys []K) (int, error) {
	f := c.mustEngine("AddAll")
	var buf [chunk]uint64
	for i := 0; i < len(keys); i += chunk {
		n := min(len(keys)-i, chunk)
		hashKeys(c.kind, buf[:n], keys[i:i+n])
		for j, h := range buf[:n] {
			if err := f.AddHash(h); err != nil {
				return i + j, err
			}
		}
	}
	return len(keys), nil
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true. It
// panics, before touching anything, if out is shorter than keys.
func (c *Cuckoo[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: Cuckoo.HasAll: out is shorter than keys")
	}
	if c.f == nil {
		clear(out[:len(keys)])
		return 0
	}
	return hasAllChunked(c.kind, keys, out, c.f)
}

// Len returns the number of fingerprints stored.
func (c *Cuckoo[K]) Len() uint64 {
	if c.f == nil {
		return 0
	}
	return c.f.Len()
}

// LoadFactor returns the fraction of slots in use.
func (c *Cuckoo[K]) LoadFactor() float64 {
	if c.f == nil {
		return 0
	}
	return c.f.LoadFactor()
}

// NumBits returns the size of the table in bits.
func (c *Cuckoo[K]) NumBits() uint64 {
	if c.f == nil {
		return 0
	}
	return c.f.NumBits()
}

// EstimatedFPR returns the false-positive rate at the current load.
func (c *Cuckoo[K]) EstimatedFPR() float64 {
	if c.f == nil {
		return 0
	}
	return c.f.EstimatedFPR()
}

// Counting is a counting Bloom filter of keys of type K: 4-bit counters
// instead of bits, so keys can be removed. See blocked.Counting for the
// layout and the rules: counters saturate at 15 and then never decrease, and
// removing a key that was never added can cause false negatives.
// Has and HasAll are safe for concurrent use; Add and Remove are not.
//
// The zero Counting is empty: its lookups answer false and 0, its mutations
// panic, and UnmarshalBinary or ReadFrom fill it.
type Counting[K Key] struct {
	c    *blocked.Counting
	kind keyKind
}

// NewCounting returns a counting filter sized for n keys at false-positive
// rate fpr; blocked.SizeCounting(n, fpr) gives its size. It returns ErrKeys
// for n = 0, ErrFPR for fpr outside (0, 1) or NaN, and ErrTooLarge for a
// filter too large to make.
func NewCounting[K Key](n uint64, fpr float64) (*Counting[K], error) {
	c, err := blocked.NewCounting(n, fpr)
	if err != nil {
		return nil, err
	}
	c.SetKeyHash(blocked.HashXXH3)
	c.SetKeyFamily(keyFamily[K]())
	return &Counting[K]{c: c, kind: kindOf[K]()}, nil
}

// Engine returns the hash-level counting filter underneath, for AddHash,
// HasHash and RemoveHash with hashes computed by Hash, and for the methods
// this type does not repeat; nil for the zero Counting.
func (c *Counting[K]) Engine() *blocked.Counting { return c.c }

// mustEngine panics, naming the constructor, when c is the zero Counting.
func (c *Counting[K]) mustEngine(op string) *blocked.Counting {
	if c.c == nil {
		panic("bloom: " + op + " on a zero Counting; use bloom.NewCounting")
	}
	return c.c
}

// Add adds k.
func (c *Counting[K]) Add(k K) { c.mustEngine("Add").AddHash(hashKind(c.kind, &k)) }

// Has reports whether k may have been added: false means certainly not.
func (c *Counting[K]) Has(k K) bool {
	if c.c == nil {
		return false
	}
	return c.c.HasHash(hashKind(c.kind, &k))
}

// Remove removes k; it returns false, changing nothing, if k is certainly absent.
func (c *Counting[K]) Remove(k K) bool {
	return c.mustEngine("Remove").RemoveHash(hashKind(c.kind, &k))
}

// AddAll adds every key of keys, hashing them in chunks for the batch
// kernel; the counters end as after Add of each key in order.
func (c *Counting[K]) AddAll(keys []K) {
	e := c.mustEngine("AddAll")
	var buf [chunk]uint64
	for i := 0; i < len(keys); i += chunk {
		n := min(len(keys)-i, chunk)
		hashKeys(c.kind, buf[:n], keys[i:i+n])
		e.AddHashes(buf[:n])
	}
}

// RemoveAll calls Remove for every key of keys, in order, and returns how
// many were removed (the others were certainly absent when their turn came).
func (c *Counting[K]) RemoveAll(keys []K) int {
	e := c.mustEngine("RemoveAll")
	var buf [chunk]uint64
	removed := 0
	for i := 0; i < len(keys); i += chunk {
		n := min(len(keys)-i, chunk)
		hashKeys(c.kind, buf[:n], keys[i:i+n])
		removed += e.RemoveHashes(buf[:n])
	}
	return removed
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true. It
// panics, before touching anything, if out is shorter than keys.
func (c *Counting[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: Counting.HasAll: out is shorter than keys")
	}
	if c.c == nil {
		clear(out[:len(keys)])
		return 0
	}
	return hasAllChunked(c.kind, keys, out, c.c)
}

// NumBits returns the size in bits (4 per counter).
func (c *Counting[K]) NumBits() uint64 {
	if c.c == nil {
		return 0
	}
	return c.c.NumBits()
}

// Saturated returns how many counters are stuck at 15.
func (c *Counting[K]) Saturated() uint64 {
	if c.c == nil {
		return 0
	}
	return c.c.Saturated()
}

// EstimatedFPR returns the false-positive rate of the filter as it is now.
func (c *Counting[K]) EstimatedFPR() float64 {
	if c.c == nil {
		return 0
	}
	return c.c.EstimatedFPR()
}

// hasAllChunked hashes keys in chunks and runs engine's batch lookup on each;
// len(out) >= len(keys). engine is one of the engine types below; the type
// switch makes each call static, so buf stays on the stack (a method value
// or a type-parameter method call would move it to the heap on every call).
func hasAllChunked[K Key](kind keyKind, keys []K, out []bool, engine any) int {
	var buf [chunk]uint64
	found := 0
	for i := 0; i < len(keys); i += chunk {
		n := min(len(keys)-i, chunk)
		hs, o := buf[:n], out[i:i+n]
		hashKeys(kind, hs, keys[i:i+n])
		switch e := engine.(type) {
		case *blocked.Filter:
			found += e.HasHashes(hs, o)
		case *blocked.FilterView:
			found += e.HasHashes(hs, o)
		case *blocked.Counting:
			found += e.HasHashes(hs, o)
		case *cuckoo.Filter:
			found += e.HasHashes(hs, o)
		default:
			panic("bloom: hasAllChunked: unknown engine type")
		}
	}
	return found
}
