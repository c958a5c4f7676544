package bloom

import (
	"encoding/binary"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// ScalableView is a read-only Scalable of keys of type K over an encoding
// in memory the caller owns (a memory-mapped file, say), as Reset makes
// it: each stage is a view of the encoding's bytes, none is copied. It has
// Scalable's lookups and nothing that changes it. Its zero value is an
// empty view whose lookups answer false; declare one and Reset it, after
// blocked.Verify for bytes that may be damaged (Reset reads no payload):
//
//	if err := blocked.Verify(b); err != nil { ... } // every checksum, each stage's too
//	var v bloom.ScalableView[string]
//	if err := v.Reset(b); err != nil { ... }
//	found := v.Has("key")
//
// Has and HasAll are safe for concurrent use; Reset is not safe
// concurrently with anything.
type ScalableView[K Key] struct {
	stages []blocked.FilterView // oldest first; their memory is reused by the next Reset
	kind   keyKind              // kindInvalid in the zero view, and only there
}

// Reset makes v a view of the Scalable encoded in b (by Scalable's
// MarshalBinary, AppendBinary or WriteTo), without copying it. It checks b
// as Scalable.UnmarshalBinary does but for the payload checksums, b's and
// each stage's, which it does not read: the header, checksum included; the
// parameters; and each stage, a Filter encoding whose header and length
// are checked as blocked.FilterView.Reset does (its header checksum too),
// with key hash xxh3, no smaller than the one before and sized for the
// keys the parameters plan for it, the stages filling the payload exactly;
// then the key hash and key family. A stage whose payload is damaged, its
// own checksum wrong, passes Reset (even where b's checksum was made to
// match or b has none) and answers some added keys false: blocked.Verify
// checks every payload checksum, b's and every stage's, so call it first
// when the bytes may be damaged. Reset's cost grows with the stages it
// reads, not with their size nor with the number b's header claims. On
// error, which says what is wrong, v is the zero view; on a big-endian
// machine the error is ErrByteOrder (decode with Scalable.UnmarshalBinary
// there). b must stay valid and unchanged while v is used, until the next
// Reset. Reset allocates only to hold more stages than v has held: once v
// has held as many, it does not allocate.
func (v *ScalableView[K]) Reset(b []byte) error {
	clear(v.stages) // no view of the old bytes outlives the Reset
	v.stages = v.stages[:0]
	err := v.reset(b)
	if err != nil {
		clear(v.stages)
		v.stages, v.kind = v.stages[:0], kindInvalid
		return err
	}
	if v.kind == kindInvalid {
		v.kind = kindFast[K]()
	}
	return nil
}

// reset is Reset's checks and stage views: readChain's, each stage made a
// view by FilterView.Reset.
func (v *ScalableView[K]) reset(b []byte) error {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return ErrByteOrder
	}
	h, p, err := format.Frame(b, format.Scalable)
	if err != nil {
		return err
	}
	var g Scalable[K]
	_, err = g.readChain(h, p, func(b []byte) error {
		// Grown as the stages pass, not to the count the header claims.
		v.stages = append(v.stages, blocked.FilterView{})
		return v.stages[len(v.stages)-1].Reset(b)
	})
	return err
}

// Has reports whether k may have been added: false means certainly not.
func (v *ScalableView[K]) Has(k K) bool {
	if v.kind == kindInvalid {
		return false
	}
	h := hashKind(v.kind, &k)
	for i := range v.stages {
		if v.stages[i].HasHash(h) {
			return true
		}
	}
	return false
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true, hashing
// the keys in chunks and probing each stage with the batch kernels. It
// panics, before touching anything, if out is shorter than keys.
func (v *ScalableView[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: ScalableView.HasAll: out is shorter than keys")
	}
	if v.kind == kindInvalid {
		clear(out[:len(keys)])
		return 0
	}
	var tmp [chunk]bool
	found := 0
	c := keyChunks[K]{kind: v.kind, keys: keys}
	for hs, at := c.next(); len(hs) > 0; hs, at = c.next() {
		o := out[at : at+len(hs)]
		v.stages[0].HasHashes(hs, o)
		for i := range v.stages[1:] {
			v.stages[i+1].HasHashes(hs, tmp[:len(hs)])
			for j := range o {
				o[j] = o[j] || tmp[j]
			}
		}
		for _, b := range o {
			found += int(b2i(b))
		}
	}
	return found
}
