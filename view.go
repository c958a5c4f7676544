package bloom

import (
	"unsafe"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// FilterView is a read-only Filter over an encoding in memory the caller
// owns, for example a memory-mapped file: Reset checks the encoding and
// points the view at it without copying, then Has and HasAll look keys up
// in place. It has no method that changes a filter, so code that would
// write into a read-only mapping does not compile; to get a Filter you may
// change, UnmarshalBinary the same bytes. Its zero value is an empty view
// whose lookups answer false.
//
//	var v bloom.FilterView[string]
//	if err := v.Reset(b); err != nil { // b: a Filter[string]'s encoding
//		return err
//	}
//	v.Has("alice")
type FilterView[K Key] struct {
	v    blocked.FilterView
	kind keyKind // kindInvalid in the zero view, and only there
}

// Reset makes f a view of the Filter encoded in b, in O(1), without copying
// and without allocating, with the light checks of blocked.FilterView.Reset
// (length, magic, version, variant, flags, k, blocks against the length;
// no checksum: call blocked.Verify for that), the key hash (xxh3, else an
// error wrapping ErrHashMismatch) and the key family. On error f is the
// zero view, whose lookups answer false. b must stay valid and unchanged
// until the next Reset; reuse one FilterView for buffers that come and go.
// The payload may start at any address; an encoding placed at a 64-byte
// boundary (a memory-mapped file is) keeps every block in one cache line,
// otherwise each lookup may touch two.
func (f *FilterView[K]) Reset(b []byte) error {
	if err := f.v.Reset(b); err != nil {
		f.kind = kindInvalid
		return err
	}
	id, keys := encodedKeys(b)
	if id != blocked.HashXXH3 {
		f.v, f.kind = blocked.FilterView{}, kindInvalid
		return checkHash(id)
	}
	if keys != blocked.KeysUnrecorded && keys != keyFamily[K]() {
		f.v, f.kind = blocked.FilterView{}, kindInvalid
		return checkFamily[K](keys, "FilterView")
	}
	if f.kind == kindInvalid {
		f.kind = kindFast[K]()
	}
	return nil
}

// encodedKeys returns the key hash and the key family recorded in the
// header of the encoding b, which a view's Reset has checked.
func encodedKeys(b []byte) (blocked.HashID, blocked.KeyFamily) {
	return blocked.HashID(b[format.OffHash]), blocked.KeyFamily(b[format.OffCompat] & uint8(format.CompatKeyMask))
}

// wordKey reports whether keys are 64-bit integers, which Has hashes in place.
func (f *FilterView[K]) wordKey() bool { return f.kind == kindUint64 || f.kind == kindInt64 }

// Has reports whether k may have been added: false means certainly not.
func (f *FilterView[K]) Has(k K) bool {
	// The fused hash-and-probe kernel of Filter[K].Has, on a Filter[K]
	// made on the stack over the view's engine: a blocked.FilterView is
	// its blocked.Filter (its only field, at offset 0: blocked's
	// view_layout.go pins that), and a read changes nothing.
	t := Filter[K]{typedFilter{f: (*blocked.Filter)(unsafe.Pointer(&f.v)), kind: f.kind}}
	return t.Has(k)
}

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

// CountingView is a read-only Counting filter of keys of type K over an
// encoding that the caller owns, as FilterView is for a Filter: Reset, then
// Has and HasAll. Its zero value is an empty view whose lookups answer
// false.
type CountingView[K Key] struct {
	v    blocked.CountingView
	kind keyKind // kindInvalid in the zero view, and only there
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
	id, keys := encodedKeys(b)
	if err := requireXXH3(id, "CountingView", "blocked.CountingView"); err != nil {
		c.v, c.kind = blocked.CountingView{}, kindInvalid
		return err
	}
	if err := checkFamily[K](keys, "CountingView"); err != nil {
		c.v, c.kind = blocked.CountingView{}, kindInvalid
		return err
	}
	if c.kind == kindInvalid {
		c.kind = kindFast[K]()
	}
	return nil
}

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
