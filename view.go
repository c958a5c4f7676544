package bloom

import (
	"io"

	"github.com/simdbloom/bloom/blocked"
)

// CountingView is a read-only Counting filter of keys of type K over an
// encoding that the caller owns, as ViewCounting returns it: the lookups and
// read-only methods of a Counting, none that changes it. Clone returns a
// Counting you may change. Its zero value is an empty view whose lookups
// answer false; Reset makes it a view without allocating.
type CountingView[K Key] struct {
	v    blocked.CountingView
	kind keyKind // kindInvalid in the zero view, and only there
}

// ViewCounting returns a read-only counting filter over the encoding b (of a
// Counting[K], by MarshalBinary or WriteTo) without copying it, in O(1); b
// must stay unchanged while the view is used. The checks and the alignment
// rules are View's; blocked.Verify checks the payload's checksum too.
func ViewCounting[K Key](b []byte) (*CountingView[K], error) {
	v := new(CountingView[K])
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}

// Reset makes c a view of the Counting encoded in b, without copying and
// without allocating, with the checks of blocked.CountingView.Reset, the key
// hash (xxh3, else an error wrapping ErrHashMismatch) and the key family. On
// error c is the zero view. b must stay valid and unchanged until the next
// Reset.
func (c *CountingView[K]) Reset(b []byte) error {
	if err := c.v.Reset(b); err != nil {
		c.kind = kindInvalid
		return err
	}
	if err := requireXXH3(c.v.KeyHash(), "CountingView", "blocked.CountingView"); err != nil {
		c.v, c.kind = blocked.CountingView{}, kindInvalid
		return err
	}
	if err := checkFamily[K](c.v.KeyFamily(), "CountingView"); err != nil {
		c.v, c.kind = blocked.CountingView{}, kindInvalid
		return err
	}
	if c.kind == kindInvalid {
		c.kind = kindFast[K]()
	}
	return nil
}

// Engine returns the hash-level view underneath, for HasHash/HasHashes with
// hashes computed by Hash.
func (c *CountingView[K]) Engine() *blocked.CountingView { return &c.v }

// Has reports whether k may have been added: false means certainly not.
func (c *CountingView[K]) Has(k K) bool {
	if c.kind == kindInvalid {
		return false
	}
	return c.v.HasHash(hashKind(c.kind, &k))
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true. It
// panics, before touching anything, if out is shorter than keys.
func (c *CountingView[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: CountingView.HasAll: out is shorter than keys")
	}
	if c.kind == kindInvalid {
		clear(out[:len(keys)])
		return 0
	}
	found := 0
	ch := keyChunks[K]{kind: c.kind, keys: keys}
	for hs, at := ch.next(); len(hs) > 0; hs, at = ch.next() {
		found += c.v.HasHashes(hs, out[at:])
	}
	return found
}

// NumBits returns the size in bits (4 per counter).
func (c *CountingView[K]) NumBits() uint64 { return c.v.NumBits() }

// Saturated returns how many counters are stuck at 15.
func (c *CountingView[K]) Saturated() uint64 { return c.v.Saturated() }

// FillRatio returns the fraction of counters that are non-zero.
func (c *CountingView[K]) FillRatio() float64 { return c.v.FillRatio() }

// EstimatedCount returns the number of keys added and not removed, as
// Counting.EstimatedCount.
func (c *CountingView[K]) EstimatedCount() float64 { return c.v.EstimatedCount() }

// EstimatedFPR returns the false-positive rate of the filter as it is now.
func (c *CountingView[K]) EstimatedFPR() float64 { return c.v.EstimatedFPR() }

// Equal reports whether c and o view the same counters in the same
// geometry; two zero views are equal.
func (c *CountingView[K]) Equal(o *CountingView[K]) bool { return o != nil && c.v.Equal(&o.v) }

// Clone returns a Counting with a copy of the counters, which may be
// changed (the zero Counting for the zero view).
func (c *CountingView[K]) Clone() *Counting[K] {
	if c.kind == kindInvalid {
		return &Counting[K]{}
	}
	return &Counting[K]{c: c.v.Clone(), kind: c.kind}
}

// MarshalBinary returns a copy of the viewed encoding (with key hash xxh3);
// an error wrapping ErrGeometry for the zero view.
func (c *CountingView[K]) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the viewed encoding to b, as MarshalBinary.
func (c *CountingView[K]) AppendBinary(b []byte) ([]byte, error) {
	if c.kind == kindInvalid {
		return b, zeroEncode("CountingView", "ViewCounting")
	}
	return c.v.AppendBinary(b)
}

// WriteTo writes the viewed encoding to w and returns the number of bytes
// written.
func (c *CountingView[K]) WriteTo(w io.Writer) (int64, error) {
	if c.kind == kindInvalid {
		return 0, zeroEncode("CountingView", "ViewCounting")
	}
	return c.v.WriteTo(w)
}
