package bloom

import (
	"io"
	"unsafe"

	"github.com/simdbloom/bloom/blocked"
)

// FilterView is a read-only Filter over an encoding in memory the caller
// owns, as View returns it: it has the lookups and read-only methods of a
// Filter but none that changes it, so code that would write into a
// read-only mapping does not compile. Clone returns a Filter you may change.
// Its zero value is an empty view whose lookups answer false.
type FilterView[K Key] struct {
	v    blocked.FilterView
	kind keyKind // kindInvalid in the zero view, and only there
}

// View returns a read-only filter over the encoding b without copying it,
// in O(1), for example over a memory-mapped file; b must stay unchanged
// while the view is used. The payload may start at any address; an
// encoding placed at a 64-byte boundary (a memory-mapped file is) keeps
// every block in one cache line, otherwise each lookup may touch two. See
// blocked.View for the checks made and blocked.Verify to check the
// payload's checksum too. To look keys up in buffers that come and go
// without allocating, keep a FilterView and Reset it instead.
func View[K Key](b []byte) (*FilterView[K], error) {
	g, err := blocked.View(b)
	if err != nil {
		return nil, err
	}
	if err := checkHash(g.KeyHash()); err != nil {
		return nil, err
	}
	if err := checkFamily[K](g.KeyFamily(), "Filter"); err != nil {
		return nil, err
	}
	return &FilterView[K]{v: *g, kind: kindOf[K]()}, nil
}

// Reset makes f a view of the Filter encoded in b, without copying and
// without allocating, with the light checks of blocked.FilterView.Reset
// (length, magic, version, variant, flags, k, blocks against the length;
// no checksum: see blocked.Verify), the key hash (xxh3, else an error
// wrapping ErrHashMismatch) and the key family, as View. On error f is the
// zero view, whose lookups
// answer false. Reuse one FilterView for buffers that come and go: b must
// stay valid and unchanged until the next Reset.
func (f *FilterView[K]) Reset(b []byte) error {
	if err := f.v.Reset(b); err != nil {
		f.kind = kindInvalid
		return err
	}
	if id := f.v.KeyHash(); id != blocked.HashXXH3 {
		f.v, f.kind = blocked.FilterView{}, kindInvalid
		return checkHash(id)
	}
	if keys := f.v.KeyFamily(); keys != blocked.KeysUnrecorded && keys != keyFamily[K]() {
		f.v, f.kind = blocked.FilterView{}, kindInvalid
		return checkFamily[K](keys, "FilterView")
	}
	if f.kind == kindInvalid {
		f.kind = kindFast[K]()
	}
	return nil
}

// Engine returns the hash-level view underneath, for HasHash/HasHashes with
// hashes computed by Hash.
func (f *FilterView[K]) Engine() *blocked.FilterView { return &f.v }

// wordKey reports whether keys are 64-bit integers, which Has hashes in place.
func (f *FilterView[K]) wordKey() bool { return f.kind == kindUint64 || f.kind == kindInt64 }

// Has reports whether k may have been added: false means certainly not.
func (f *FilterView[K]) Has(k K) bool {
	// The fused hash-and-probe kernel of Filter[K].Has, on a Filter[K]
	// made on the stack over the view's engine: a blocked.FilterView is
	// its blocked.Filter (its only field, read by the one-key assembly
	// too; viewLayout checks the size), and a read changes nothing.
	t := Filter[K]{f: (*blocked.Filter)(unsafe.Pointer(&f.v)), kind: f.kind}
	return t.Has(k)
}

// viewLayout fails to compile if a blocked.FilterView is no longer the size
// of the blocked.Filter it starts with (FilterView.Has reads one as the other).
const viewLayout = uint(unsafe.Sizeof(blocked.FilterView{})-unsafe.Sizeof(blocked.Filter{})) +
	uint(unsafe.Sizeof(blocked.Filter{})-unsafe.Sizeof(blocked.FilterView{}))

// kindFast is kindOf without reflection for the common key types, for
// Lookup, which cannot keep it between calls.
func kindFast[K Key]() keyKind {
	var z K
	switch any(z).(type) {
	case string:
		return kindString
	case []byte:
		return kindBytes
	case uint64:
		return kindUint64
	case int64:
		return kindInt64
	case uint32:
		return kindUint32
	case int32:
		return kindInt32
	}
	return kindOf[K]()
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true. It
// panics, before touching anything, if out is shorter than keys.
func (f *FilterView[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: HasAll: out is shorter than keys")
	}
	if f.kind == kindInvalid {
		clear(out[:len(keys)])
		return 0
	}
	found := 0
	c := keyChunks[K]{kind: f.kind, keys: keys}
	for hs, at := c.next(); len(hs) > 0; hs, at = c.next() {
		found += f.v.HasHashes(hs, out[at:])
	}
	return found
}

// NumBits returns the size of the filter in bits.
func (f *FilterView[K]) NumBits() uint64 { return f.v.NumBits() }

// K returns the number of bits set per key (8 or 16; 0 for the zero view).
func (f *FilterView[K]) K() int { return f.v.K() }

// FillRatio returns the fraction of bits set.
func (f *FilterView[K]) FillRatio() float64 { return f.v.FillRatio() }

// EstimatedCount estimates the number of distinct keys added.
func (f *FilterView[K]) EstimatedCount() float64 { return f.v.EstimatedCount() }

// EstimatedFPR returns the false-positive rate of the filter as it is now.
func (f *FilterView[K]) EstimatedFPR() float64 { return f.v.EstimatedFPR() }

// Equal reports whether f and o hold the same bits in the same geometry.
// To compare a view with a Filter, compare its Clone.
func (f *FilterView[K]) Equal(o *FilterView[K]) bool { return o != nil && f.v.Equal(&o.v) }

// Clone returns a Filter holding a copy of the view's bits, which may be
// changed (the zero Filter for the zero view).
func (f *FilterView[K]) Clone() *Filter[K] {
	if f.kind == kindInvalid {
		return &Filter[K]{}
	}
	c := f.v.Clone()
	c.SetKeyFamily(familyOf(f.kind)) // as a decoded Filter[K] does
	return &Filter[K]{f: c, kind: f.kind}
}

// MarshalBinary returns the encoding of the view's filter, as
// Filter.MarshalBinary does.
func (f *FilterView[K]) MarshalBinary() ([]byte, error) { return f.v.MarshalBinary() }

// AppendBinary appends the encoding of the view's filter to b.
func (f *FilterView[K]) AppendBinary(b []byte) ([]byte, error) { return f.v.AppendBinary(b) }

// WriteTo writes the encoding of the view's filter to w.
func (f *FilterView[K]) WriteTo(w io.Writer) (int64, error) { return f.v.WriteTo(w) }

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
