package bloom

import (
	"github.com/simdbloom/bloom/blocked"
	"unsafe"
)

// Filter is a Bloom filter of keys of type K. Create one with New, or
// decode one with UnmarshalBinary or ReadFrom.
//
// The zero value is an empty filter ready for UnmarshalBinary or ReadFrom:
// Has and HasAll answer false, the read-only methods 0, Clear does nothing,
// MarshalBinary, AppendBinary and WriteTo return an error wrapping
// ErrGeometry, and Add, AddAll, Union and Intersect panic.
//
// Has and HasAll are safe for concurrent use; Add, AddAll, Union, Intersect
// and Clear are not safe concurrently with anything else on the same filter.
type Filter[K Key] struct {
	typedFilter // the typed kernels' argument: see typed.go
}

// typedFilter is a Filter[K] without its K: what Has and Add hand to the
// typed kernels, which read its fields at the offsets asm/ took from this
// declaration (kernels_amd64.go pins them).
type typedFilter struct {
	f    *blocked.Filter // nil in the zero Filter
	kind keyKind         // kindInvalid in the zero Filter, and only there
}

// zeroFilter ends the panic message of a mutation of a zero Filter.
const zeroFilter = " on a zero Filter; use bloom.New"

// zero reports whether f is the zero Filter (no engine).
func (f *Filter[K]) zero() bool { return f.kind == kindInvalid }

// New returns a filter sized for n keys with a false-positive rate of at most
// fpr (exact formula, see package blocked), or an error naming the bad input:
// ErrKeys for n = 0, ErrFPR for fpr outside (0, 1) or NaN, ErrTooLarge for a
// filter too large to make. blocked.Size(n, fpr) gives its size.
func New[K Key](n uint64, fpr float64) (*Filter[K], error) {
	f, err := blocked.New(n, fpr)
	if err != nil {
		return nil, err
	}
	f.SetKeyHash(blocked.HashXXH3)
	f.SetKeyFamily(keyFamily[K]())
	return &Filter[K]{typedFilter{f: f, kind: kindOf[K]()}}, nil
}

// FromEngine returns a typed filter over an existing hash-level filter (the
// inverse of Engine); both share the bits. The keys added through either
// must be hashed with Hash, so FromEngine records blocked.HashXXH3 on f (SetKeyHash) when f records no hash yet, and
// K's key family (SetKeyFamily) when f records none; a filter recording
// another hash or family keeps it, and its encodings are then refused by the
// typed decoders.
func FromEngine[K Key](f *blocked.Filter) *Filter[K] {
	if f.KeyHash() == blocked.HashUnspecified {
		f.SetKeyHash(blocked.HashXXH3)
	}
	if f.KeyFamily() == blocked.KeysUnrecorded {
		f.SetKeyFamily(keyFamily[K]())
	}
	return &Filter[K]{typedFilter{f: f, kind: kindOf[K]()}}
}

// Engine returns the hash-level filter underneath, for AddHash/HasHash with
// hashes computed by Hash, and for the methods this type does not repeat;
// nil for the zero Filter.
func (f *Filter[K]) Engine() *blocked.Filter { return f.f }

// Add adds key k. It panics on the zero Filter.
func (f *Filter[K]) Add(k K) {
	// One call, so that Go inlines Add (and Has) for every K: see typed.go.
	addTyped(&f.typedFilter, (*uint64)(unsafe.Pointer(&k)))
}

// Has reports whether k may have been added: false means certainly not.
// The zero Filter answers false.
func (f *Filter[K]) Has(k K) bool {
	return hasTyped(&f.typedFilter, (*uint64)(unsafe.Pointer(&k)))
}

// AddAll adds every key of keys. It panics on the zero Filter.
func (f *Filter[K]) AddAll(keys []K) {
	if f.zero() {
		panic("bloom: AddAll" + zeroFilter)
	}
	c := keyChunks[K]{kind: f.kind, keys: keys}
	for hs, _ := c.next(); len(hs) > 0; hs, _ = c.next() {
		f.f.AddHashes(hs)
	}
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true. It panics,
// before touching anything, if out is shorter than keys.
func (f *Filter[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: HasAll: out is shorter than keys")
	}
	if f.zero() {
		clear(out[:len(keys)])
		return 0
	}
	found := 0
	c := keyChunks[K]{kind: f.kind, keys: keys}
	for hs, at := c.next(); len(hs) > 0; hs, at = c.next() {
		found += f.f.HasHashes(hs, out[at:])
	}
	return found
}

// engine returns the hash-level filter of f, or a zero one for the zero
// Filter, for the read-only methods.
func (f *Filter[K]) engine() *blocked.Filter {
	if f.f == nil {
		return &blocked.Filter{}
	}
	return f.f
}

// NumBits returns the size of the filter in bits.
func (f *Filter[K]) NumBits() uint64 { return f.engine().NumBits() }

// FillRatio returns the fraction of bits set. At the keys the filter was
// sized for it depends on the rate (about 0.55 at fpr 0.01, 0.74 at 0.1;
// blocked.Fill gives it for any size): far above that, the filter is
// overfull and its EstimatedFPR higher than planned.
func (f *Filter[K]) FillRatio() float64 { return f.engine().FillRatio() }

// EstimatedCount estimates the number of distinct keys added.
func (f *Filter[K]) EstimatedCount() float64 { return f.engine().EstimatedCount() }

// EstimatedFPR returns the false-positive rate of the filter as it is now.
func (f *Filter[K]) EstimatedFPR() float64 { return f.engine().EstimatedFPR() }

// Union adds every key of o to f; both must have the same k, and o the
// size of f, or that size times or divided by a power of two (else
// ErrGeometry, as for a nil or zero o): a larger o is folded to f's size
// in the same pass (see Fold), a smaller one spread over f, its keys found
// at its own false-positive rate (see blocked.Filter.Union); o is left
// unchanged. It panics on the zero Filter.
func (f *Filter[K]) Union(o *Filter[K]) error {
	if f.zero() {
		panic("bloom: Union" + zeroFilter)
	}
	return f.f.Union(o.blocked())
}

// Intersect keeps only the bits set in both f and o; both must have the
// same size and k (else ErrGeometry, as for a nil or zero o). It panics on
// the zero Filter.
func (f *Filter[K]) Intersect(o *Filter[K]) error {
	if f.zero() {
		panic("bloom: Intersect" + zeroFilter)
	}
	return f.f.Intersect(o.blocked())
}

// blocked returns the engine of f, or nil for a nil or zero filter (so that
// Union and Intersect report ErrGeometry instead of panicking).
func (f *Filter[K]) blocked() *blocked.Filter {
	if f == nil {
		return nil
	}
	return f.f
}

// Clear removes every key. On the zero Filter it does nothing.
func (f *Filter[K]) Clear() {
	if !f.zero() {
		f.f.Clear()
	}
}

// clone returns an independent copy (the zero Filter for the zero Filter).
func (f *Filter[K]) clone() *Filter[K] {
	if f.zero() {
		return &Filter[K]{}
	}
	return &Filter[K]{typedFilter{f: f.f.Clone(), kind: f.kind}}
}

// equal reports whether f and o hold the same bits in the same geometry;
// two zero Filters are equal.
func (f *Filter[K]) equal(o *Filter[K]) bool {
	return o != nil && f.engine().Equal(o.engine())
}
