package bloom

import (
	"io"

	"github.com/simdbloom/bloom/blocked"
)

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
	ch := keyChunks[K]{kind: c.kind, keys: keys}
	for hs, _ := ch.next(); len(hs) > 0; hs, _ = ch.next() {
		e.AddHashes(hs)
	}
}

// RemoveAll calls Remove for every key of keys, in order, and returns how
// many were removed (the others were certainly absent when their turn came).
func (c *Counting[K]) RemoveAll(keys []K) int {
	e := c.mustEngine("RemoveAll")
	removed := 0
	ch := keyChunks[K]{kind: c.kind, keys: keys}
	for hs, _ := ch.next(); len(hs) > 0; hs, _ = ch.next() {
		removed += e.RemoveHashes(hs)
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
	found := 0
	ch := keyChunks[K]{kind: c.kind, keys: keys}
	for hs, at := ch.next(); len(hs) > 0; hs, at = ch.next() {
		found += c.c.HasHashes(hs, out[at:])
	}
	return found
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

// EstimatedCount returns the number of keys added and not removed: exact
// while no counter is saturated (Saturated returns 0), a lower bound after.
func (c *Counting[K]) EstimatedCount() float64 {
	if c.c == nil {
		return 0
	}
	return c.c.EstimatedCount()
}

// FillRatio returns the fraction of counters that are non-zero.
func (c *Counting[K]) FillRatio() float64 {
	if c.c == nil {
		return 0
	}
	return c.c.FillRatio()
}

// Clear sets every counter to zero. On the zero Counting it does nothing.
func (c *Counting[K]) Clear() {
	if c.c != nil {
		c.c.Clear()
	}
}

// clone returns an independent copy (a zero Counting for the zero Counting).
func (c *Counting[K]) clone() *Counting[K] {
	if c.c == nil {
		return &Counting[K]{}
	}
	return &Counting[K]{c: c.c.Clone(), kind: c.kind}
}

// equal reports whether c and o hold the same counters in the same
// geometry; two zero Countings are equal.
func (c *Counting[K]) equal(o *Counting[K]) bool {
	if o == nil {
		return false
	}
	if c.c == nil || o.c == nil {
		return c.c == nil && o.c == nil
	}
	return c.c.Equal(o.c)
}

// MarshalBinary returns the encoding of c (a blocked.Counting encoding with
// key hash xxh3). It returns an error wrapping ErrGeometry for the zero
// Counting, and one wrapping ErrTooLarge for an encoding larger than this
// process can allocate.
func (c *Counting[K]) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the encoding of c to b, as MarshalBinary. On error
// (ErrTooLarge only when b lacks the room) it returns b unchanged.
func (c *Counting[K]) AppendBinary(b []byte) ([]byte, error) {
	if c.c == nil {
		return b, zeroEncode("Counting", "NewCounting")
	}
	return c.c.AppendBinary(b)
}

// WriteTo writes the encoding of c to w, streaming the counters without a
// copy, and returns the number of bytes written.
func (c *Counting[K]) WriteTo(w io.Writer) (int64, error) {
	if c.c == nil {
		return 0, zeroEncode("Counting", "NewCounting")
	}
	return c.c.WriteTo(w)
}

// UnmarshalBinary replaces c with the filter encoded in b (by MarshalBinary
// or WriteTo; key hash xxh3, else an error wrapping ErrHashMismatch). On
// error c is unchanged. It copies b; the zero Counting may be the receiver.
func (c *Counting[K]) UnmarshalBinary(b []byte) error {
	g := new(blocked.Counting)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	if err := requireXXH3(g.KeyHash(), "Counting", "blocked.Counting"); err != nil {
		return err
	}
	if err := checkFamily[K](g.KeyFamily(), "Counting"); err != nil {
		return err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.c, c.kind = g, kindOf[K]()
	return nil
}

// ReadFrom replaces c with the filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read. On error c is
// unchanged. Memory grows with the bytes read, whatever the header
// announces. At the end of r (no byte read) it returns 0, io.EOF, so
// concatenated encodings are read in a loop until io.EOF.
func (c *Counting[K]) ReadFrom(r io.Reader) (int64, error) {
	g := new(blocked.Counting)
	n, err := g.ReadFrom(r)
	if err != nil {
		return n, err
	}
	if err := requireXXH3(g.KeyHash(), "Counting", "blocked.Counting"); err != nil {
		return n, err
	}
	if err := checkFamily[K](g.KeyFamily(), "Counting"); err != nil {
		return n, err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.c, c.kind = g, kindOf[K]()
	return n, nil
}
