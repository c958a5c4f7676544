package bloom

import (
	"fmt"
	"io"
	"runtime"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// The typed filter's binary format is blocked.Filter's (FORMAT.md), with the
// key-hash identifier blocked.HashXXH3, which every typed filter records
// when it is made: the hashes this package's Hash computes. Decoding refuses any other identifier with an error wrapping
// blocked.ErrHashMismatch, so a filter built over other hashes (Parquet's
// XXH64, or raw hashes) is never queried with xxh3 ones. The encoding also
// records the key family (byte strings or integers, keyfamily.go), and the
// decoders refuse the other family the same way, after the key hash: a
// Filter[string] file never loads as a Filter[uint64]. Integer types of
// different widths share a family, and an encoding that records no family
// (written before the field) loads as any key type.

// MarshalBinary returns the encoding of f, with the key hash it records
// (blocked.HashXXH3 for a filter made by New). The zero Filter has no
// encoding: an error wrapping ErrGeometry.
func (f *Filter[K]) MarshalBinary() ([]byte, error) { return f.engine().MarshalBinary() }

// AppendBinary appends the encoding of f to b, as MarshalBinary.
func (f *Filter[K]) AppendBinary(b []byte) ([]byte, error) { return f.engine().AppendBinary(b) }

// WriteTo writes the encoding of f to w, streaming the bits without a copy
// (see blocked.Filter.WriteTo), and returns the number of bytes written
// (an error wrapping ErrGeometry for the zero Filter).
func (f *Filter[K]) WriteTo(w io.Writer) (int64, error) { return f.engine().WriteTo(w) }

// checkHash refuses a filter whose keys were not hashed with Hash.
func checkHash(id blocked.HashID) error {
	if id != blocked.HashXXH3 {
		return fmt.Errorf("%w: the encoding's key hash is %v, bloom.Filter reads only %v (for other hashes use blocked.Filter and FromEngine)",
			blocked.ErrHashMismatch, id, blocked.HashXXH3)
	}
	return nil
}

// UnmarshalBinary replaces f with the filter encoded in b, which must have
// been written by MarshalBinary or WriteTo (key hash xxh3, else an error
// wrapping blocked.ErrHashMismatch, checked after the rest of the encoding);
// on error f is unchanged. It copies b; see View to use b in place.
func (f *Filter[K]) UnmarshalBinary(b []byte) error {
	g := new(blocked.Filter)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	if err := checkHash(g.KeyHash()); err != nil {
		return err
	}
	if err := checkFamily[K](g.KeyFamily(), "Filter"); err != nil {
		return err
	}
	g.SetKeyFamily(keyFamily[K]())
	f.f, f.kind = g, kindOf[K]()
	return nil
}

// ReadFrom replaces f with the filter encoded at the start of r (written by
// WriteTo or MarshalBinary, key hash xxh3), reading exactly its bytes, and
// returns the number of bytes read. On error f is unchanged. Memory grows
// with the bytes read, whatever the header announces. At the end of r (no
// byte read) it returns 0, io.EOF, so concatenated encodings are read in a
// loop until io.EOF.
func (f *Filter[K]) ReadFrom(r io.Reader) (int64, error) {
	g := new(blocked.Filter)
	n, err := g.ReadFrom(r)
	if err != nil {
		return n, err
	}
	if err := checkHash(g.KeyHash()); err != nil {
		return n, err
	}
	if err := checkFamily[K](g.KeyFamily(), "Filter"); err != nil {
		return n, err
	}
	g.SetKeyFamily(keyFamily[K]())
	f.f, f.kind = g, kindOf[K]()
	return n, nil
}

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

// Lookup reports whether key may have been added to the Filter encoded in
// b, as Reset on a FilterView[K] of its own then Has would, without
// allocating: the checks are Reset's (neither checksum, see
// blocked.Verify), and a b that fails them gives false and Reset's error.
func Lookup[K Key](b []byte, key K) (bool, error) {
	// blocked.LookupHash's checks on the header's words, with the key hash
	// and family, then the one-key kernel on an engine made on the stack.
	// Byte strings and 64-bit integers are hashed here and probed with
	// blocked.Filter.HasHash (xxh3.Hash then the kernel measured faster
	// than the fused hash-and-probe kernel of Filter[K].Has on 13-byte
	// keys); smaller integers take the fused kernel. Anything else (an
	// error, a platform that needs aligned words) goes to lookupSlow.
	//
	// The size of K tells the kinds apart, and Go folds it for each key
	// shape, so the tests cost nothing: on the 64-bit platforms of
	// lookupDirect, 24 bytes is a ~[]byte, 16 a ~string, 8 a 64-bit
	// integer (hashed as Hash widens it), less a smaller integer.
	if lookupDirect && len(b) >= blocked.HeaderSize+blocked.BlockBits/8 {
		size := unsafe.Sizeof(key)
		want := uint64(blocked.KeysIntegers)
		if size == unsafe.Sizeof([]byte(nil)) || size == unsafe.Sizeof("") {
			want = uint64(blocked.KeysBytes)
		}
		p := unsafe.Pointer(unsafe.SliceData(b))
		w0 := *(*uint64)(p) // magic, version, variant, k
		nb := *(*uint64)(unsafe.Add(p, hdrBlocks))
		n := uint64(len(b)) - blocked.HeaderSize
		fam := uint64(*(*uint32)(unsafe.Add(p, hdrCompat)) & format.CompatKeyMask)
		// w0 less the head and k = 8: zero but for k-8 (0 or 8) in the
		// top byte. A recorded family (fam != 0) must be K's, which is 1
		// or 2: fam&(fam^want) is zero only then.
		bad := (w0-(filterHead|8<<56))&^(8<<56) |
			(nb-1)>>32 | // 1 <= nb <= MaxBlocks, so nb<<6 cannot wrap
			(nb<<6 ^ n) |
			(*(*uint64)(unsafe.Add(p, hdrPayloadLen)) ^ n) |
			uint64(*(*uint32)(unsafe.Add(p, hdrIncompat))&^format.KnownIncompat) |
			uint64(*(*uint8)(unsafe.Add(p, hdrHash))^uint8(blocked.HashXXH3)) |
			fam&(fam^want)
		if bad == 0 {
			e := engineWords{p: unsafe.Add(p, blocked.HeaderSize), nb: uint(nb), c: uint(nb), k: int(w0 >> 56), tail: 0}
			eng := (*blocked.Filter)(unsafe.Pointer(&e))
			switch {
			case size == unsafe.Sizeof([]byte(nil)):
				return eng.HasHash(xxh3.Hash(*(*[]byte)(unsafe.Pointer(&key)))), nil
			case size == unsafe.Sizeof(""):
				return eng.HasHash(xxh3.HashString(*(*string)(unsafe.Pointer(&key)))), nil
			case size == 8:
				return eng.HasHash(HashUint64(*(*uint64)(unsafe.Pointer(&key)))), nil
			}
			t := Filter[K]{f: eng, kind: kindFast[K]()}
			return hasTyped((*[2]uint64)(unsafe.Pointer(&t)), (*uint64)(unsafe.Pointer(&key))), nil
		}
	}
	return lookupSlow(b, key)
}

// lookupDirect is true where Lookup may use an encoding's payload in
// place at any address (little-endian machines that load unaligned words)
// and tell its key kinds apart by their size (64-bit words).
const lookupDirect = (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") && unsafe.Sizeof(uintptr(0)) == 8

// The header's fields Lookup reads (FORMAT.md).
const (
	hdrBlocks     = 8  // uint64
	hdrHash       = 16 // uint8
	hdrPayloadLen = 24 // uint64
	hdrCompat     = 36 // uint32
	hdrIncompat   = 40 // uint32
)

// filterHead is the first seven bytes of a Filter encoding as a
// little-endian word: the magic "SBLM", the version and the variant.
const filterHead = 'S' | 'B'<<8 | 'L'<<16 | 'M'<<24 | uint64(blocked.FormatVersion)<<32 | uint64(blocked.VariantFilter)<<48

// engineWords has the layout of a blocked.Filter (its blocks, k, then key
// hash and family), for Lookup's engine on the stack, every field set so
// that nothing is zeroed first; the kernels and blocked.Filter's Go
// lookups read no more than that.
type engineWords struct {
	p     unsafe.Pointer
	nb, c uint // the blocks' slice's length and capacity
	k     int
	tail  uint // key hash and family (unread by lookups), padding
}

// This fails to compile if engineWords is no longer a blocked.Filter's size.
const _ = uint(unsafe.Sizeof(engineWords{})-unsafe.Sizeof(blocked.Filter{})) +
	uint(unsafe.Sizeof(blocked.Filter{})-unsafe.Sizeof(engineWords{}))

// lookupSlow is Lookup through a FilterView: where the payload cannot be
// used in place as Lookup does, or for a b that fails the checks (whose
// error it returns).
//
//go:noinline
func lookupSlow[K Key](b []byte, key K) (bool, error) {
	var v blocked.FilterView
	if err := v.Reset(b); err != nil {
		return false, err
	}
	if id := v.KeyHash(); id != blocked.HashXXH3 {
		return false, checkHash(id)
	}
	if keys := v.KeyFamily(); keys != blocked.KeysUnrecorded && keys != keyFamily[K]() {
		return false, checkFamily[K](keys, "FilterView") // Reset's error
	}
	t := Filter[K]{f: (*blocked.Filter)(unsafe.Pointer(&v)), kind: kindFast[K]()} // as FilterView.Has
	return t.Has(key), nil
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

// Counting[K] encodes as a blocked.Counting (FORMAT.md variant 3) and
// Cuckoo[K] as a cuckoo.Filter (variant 4), each with the key-hash
// identifier blocked.HashXXH3. Their decoders refuse any other identifier
// with an error wrapping ErrHashMismatch, after every other check, and an
// encoding of the other key family (see keyfamily.go) the same way, and
// leave the receiver unchanged on any error.

// requireXXH3 refuses an encoding whose keys were not hashed with Hash.
func requireXXH3(id blocked.HashID, typ, engine string) error {
	if id != blocked.HashXXH3 {
		return fmt.Errorf("%w: the encoding's key hash is %v, bloom.%s reads only %v (for other hashes use %s)",
			ErrHashMismatch, id, typ, blocked.HashXXH3, engine)
	}
	return nil
}

// zeroEncode is the error of encoding a zero value.
func zeroEncode(typ, ctor string) error {
	return fmt.Errorf("%w: cannot encode a zero %s; use bloom.%s", ErrGeometry, typ, ctor)
}
