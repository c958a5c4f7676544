package bloom

import (
	"io"

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
	ch := keyChunks[K]{kind: c.kind, keys: keys}
	for hs, at := ch.next(); len(hs) > 0; hs, at = ch.next() {
		if n, err := f.AddHashes(hs); err != nil {
			return at + n, err
		}
	}
	return len(keys), nil
}

// RemoveAll calls Remove for every key of keys, in order, and returns how
// many were removed (the others were not found when their turn came).
func (c *Cuckoo[K]) RemoveAll(keys []K) int {
	f := c.mustEngine("RemoveAll")
	removed := 0
	ch := keyChunks[K]{kind: c.kind, keys: keys}
	for hs, _ := ch.next(); len(hs) > 0; hs, _ = ch.next() {
		removed += f.RemoveHashes(hs)
	}
	return removed
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
	found := 0
	ch := keyChunks[K]{kind: c.kind, keys: keys}
	for hs, at := ch.next(); len(hs) > 0; hs, at = ch.next() {
		found += c.f.HasHashes(hs, out[at:])
	}
	return found
}

// EstimatedCount returns the number of keys stored: successful adds minus
// successful removes, exactly (each stores one fingerprint), so a key added
// twice counts twice.
func (c *Cuckoo[K]) EstimatedCount() float64 {
	if c.f == nil {
		return 0
	}
	return c.f.EstimatedCount()
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

// Clear removes every key. On the zero Cuckoo it does nothing.
func (c *Cuckoo[K]) Clear() {
	if c.f != nil {
		c.f.Clear()
	}
}

// clone returns an independent copy (a zero Cuckoo for the zero Cuckoo).
func (c *Cuckoo[K]) clone() *Cuckoo[K] {
	if c.f == nil {
		return &Cuckoo[K]{}
	}
	return &Cuckoo[K]{f: c.f.Clone(), kind: c.kind}
}

// equal reports whether c and o hold the same fingerprints in the same
// slots of the same geometry; two zero Cuckoos are equal.
func (c *Cuckoo[K]) equal(o *Cuckoo[K]) bool {
	if o == nil {
		return false
	}
	if c.f == nil || o.f == nil {
		return c.f == nil && o.f == nil
	}
	return c.f.Equal(o.f)
}

// MarshalBinary returns the encoding of c (a cuckoo.Filter encoding with key
// hash xxh3). It returns an error wrapping ErrGeometry for the zero Cuckoo,
// and one wrapping ErrTooLarge for an encoding larger than this process can
// allocate.
func (c *Cuckoo[K]) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the encoding of c to b, as MarshalBinary. On error
// (ErrTooLarge only when b lacks the room) it returns b unchanged.
func (c *Cuckoo[K]) AppendBinary(b []byte) ([]byte, error) {
	if c.f == nil {
		return b, zeroEncode("Cuckoo", "NewCuckoo")
	}
	return c.f.AppendBinary(b)
}

// WriteTo writes the encoding of c to w, streaming the table without a copy,
// and returns the number of bytes written.
func (c *Cuckoo[K]) WriteTo(w io.Writer) (int64, error) {
	if c.f == nil {
		return 0, zeroEncode("Cuckoo", "NewCuckoo")
	}
	return c.f.WriteTo(w)
}

// UnmarshalBinary replaces c with the filter encoded in b (by MarshalBinary
// or WriteTo; key hash xxh3, else an error wrapping ErrHashMismatch). On
// error c is unchanged. It copies b; the zero Cuckoo may be the receiver.
// The decoded filter continues exactly as the encoded one would have.
func (c *Cuckoo[K]) UnmarshalBinary(b []byte) error {
	g := new(cuckoo.Filter)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	if err := requireXXH3(g.KeyHash(), "Cuckoo", "cuckoo.Filter"); err != nil {
		return err
	}
	if err := checkFamily[K](g.KeyFamily(), "Cuckoo"); err != nil {
		return err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.f, c.kind = g, kindOf[K]()
	return nil
}

// ReadFrom replaces c with the filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read. On error c is
// unchanged. Memory grows with the bytes read, whatever the header
// announces. At the end of r (no byte read) it returns 0, io.EOF, so
// concatenated encodings are read in a loop until io.EOF.
func (c *Cuckoo[K]) ReadFrom(r io.Reader) (int64, error) {
	g := new(cuckoo.Filter)
	n, err := g.ReadFrom(r)
	if err != nil {
		return n, err
	}
	if err := requireXXH3(g.KeyHash(), "Cuckoo", "cuckoo.Filter"); err != nil {
		return n, err
	}
	if err := checkFamily[K](g.KeyFamily(), "Cuckoo"); err != nil {
		return n, err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.f, c.kind = g, kindOf[K]()
	return n, nil
}
