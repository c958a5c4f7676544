package blocked

import (
	"fmt"
	"io"
	"unsafe"

	"github.com/simdbloom/bloom/internal/format"
)

// Zero-copy views: read-only filters whose blocks are the caller's bytes,
// for example a memory-mapped file or a block cache's buffer. Two ways in:
//
//   - View, ViewSplitBlock and ViewCounting return a new view after checking
//     the header as the decoders do (magic, version, header checksum, flags,
//     variant, reserved bytes, fields) and the length, in O(1);
//   - Reset, on a view value the caller keeps (var v FilterView; err :=
//     v.Reset(b)), makes it a view of b without allocating, checking only
//     what reading b safely and meaningfully needs: the length, the magic,
//     version, variant and incompatible flags, k, and the number of blocks
//     against the payload length and the length of b. It skips the header
//     checksum and the reserved bytes, so it costs a few loads and compares;
//     a view can then be re-pointed at each buffer as it arrives (LookupHash
//     is Reset and HasHash in one call).
//
// Neither checks the payload checksum: call Verify(b) first if the bytes
// may be damaged. Hostile or damaged bytes give wrong answers or an error,
// never a read outside b or a crash.
//
// A view has the lookups and the read-only methods of its filter but no
// method that changes it, so code that would write into the bytes (and
// fault on a read-only mapping) does not compile. Clone returns a filter
// you may change. A view records the encoding's key hash (KeyHash).
//
// b must stay valid and unchanged while the view is in use. The payload may
// start at any address: the kernels load unaligned. An encoding placed at a
// 64-byte boundary (as a memory-mapped file is) keeps every block in one
// cache line, otherwise a lookup may touch two (PERF.md has the cost). On
// the few platforms that fault on unaligned words (not amd64, arm64, 386,
// ppc64le or wasm) an unaligned payload is copied into aligned memory, so
// that view costs an allocation. Views need a little-endian machine, else
// ErrByteOrder: use UnmarshalBinary there.

// viewMem checks that b is exactly one encoding of variant v that can be
// used in place, with the full header checks, and returns its header and
// payload (copied where the platform needs the words aligned: viewPayload).
func viewMem(b []byte, v Variant) (Header, []byte, error) {
	if !littleEndian {
		return Header{}, nil, ErrByteOrder
	}
	h, p, err := framePayload(b, v)
	if err != nil {
		return Header{}, nil, err
	}
	return h, viewPayload(p, v), nil
}

// viewPayload returns p, or a copy of p in aligned memory on a platform
// that needs aligned words (unalignedOK false) when p is not at a multiple
// of the variant's word size.
func viewPayload(p []byte, v Variant) []byte {
	if unalignedOK || uintptr(unsafe.Pointer(unsafe.SliceData(p)))%uintptr(v.wordBytes()) == 0 {
		return p
	}
	m := alignedMem(uint64(len(p)))
	copy(m, p)
	return m
}

// viewHead is the first seven bytes of an encoding of variant v, read as a
// little-endian word: the magic, the version and the variant.
func viewHead(v Variant) uint64 {
	return uint64(magic[0]) | uint64(magic[1])<<8 | uint64(magic[2])<<16 | uint64(magic[3])<<24 |
		FormatVersion<<32 | uint64(v)<<48
}

// Reset's checks on b, an encoding of variant v whose blocks are
// 1<<shift bytes and whose first word is w0 (the magic, version, variant
// and k): enough bytes for the header and one block, the magic, version
// and variant, no incompatible flag this package does not know, k = 8 (or
// 16 for a Filter), 1 to MaxBlocks blocks, and a payload length that is
// the blocks' and what b holds after the header. lightHead and lightSize
// each give a word that is zero if their checks pass; they are small
// enough to inline, so a Reset or a lookup tests all of them with one
// branch and no call.

// lightHead checks w0: the head of variant v and k = 8, or 16 for a
// Filter. w0 less the head with k = 8 is zero but for k-8 (0 or 8) in the
// top byte.
func lightHead(w0 uint64, v Variant) uint64 {
	var k16 uint64
	if v == VariantFilter {
		k16 = 8 << 56
	}
	return (w0 - (viewHead(v) | 8<<56)) &^ k16
}

// lightSize reads the number of blocks of the header at p, whose encoding
// has n bytes after the header, and checks it, the payload length and the
// incompatible flags.
func lightSize(p unsafe.Pointer, n uint64, shift uint) (nb, bad uint64) {
	nb = *(*uint64)(unsafe.Add(p, offBlocks))
	return nb, (nb-1)>>32 | // 1 <= nb <= MaxBlocks, so nb<<shift cannot wrap
		(nb<<shift ^ n) |
		(*(*uint64)(unsafe.Add(p, offPayloadLen)) ^ n) |
		uint64(*(*uint32)(unsafe.Add(p, offIncompat))&^format.KnownIncompat)
}

// sliceHeader is the layout of a slice, for viewSlice.
type sliceHeader struct {
	p    unsafe.Pointer
	n, c uint64
}

// viewSlice returns the nb blocks of T in the payload of b, an encoding of
// variant v that passed Reset's checks: in place, without unsafe.Slice's
// checks (Reset's imply them), or copied where viewPayload needs to.
func viewSlice[T any](b []byte, v Variant, nb uint64) (s []T) {
	if !unalignedOK {
		return viewBlocks[T](b, v)[:nb]
	}
	*(*sliceHeader)(unsafe.Pointer(&s)) = sliceHeader{unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), HeaderSize), nb, nb}
	return s
}

// viewErr returns the error of an encoding that failed Reset's checks: the
// first failed check in FORMAT.md's order (the header checksum among them,
// when it is what fails first).
func viewErr(b []byte, v Variant) error {
	if !littleEndian {
		return ErrByteOrder
	}
	if _, _, err := framePayload(b, v); err != nil {
		return err
	}
	return fmt.Errorf("%w: the header does not describe a %v of this length", ErrCorrupt, v) // not reached: Reset checks a subset
}

// viewBlocks returns the blocks of T in the payload of b (which passed
// Reset's checks), in place or copied as viewPayload decides.
func viewBlocks[T any](b []byte, v Variant) []T {
	return blocksOver[T](viewPayload(b[HeaderSize:], v))
}

// FilterView is a read-only Filter over an encoding in memory the caller
// owns, as View returns it. Its zero value is an empty view whose lookups
// answer false.
type FilterView struct {
	// A Filter value, not a pointer: the one-key assembly reads a
	// *FilterView as the *Filter it starts with.
	f Filter
}

// View returns a read-only view of the Filter encoded in b, without copying
// and in O(1), for example over a memory-mapped file. It checks the header
// (its checksum included) and the length but not the payload's checksum:
// call Verify(b) first if the bytes may be damaged (damaged bits give wrong
// answers, never a crash). b must stay valid and unchanged while the view
// is in use. The payload may start at any address; an encoding placed at a
// 64-byte boundary (a memory-mapped file is) keeps every block in one cache
// line, otherwise each lookup may touch two. On a big-endian machine View
// returns ErrByteOrder: use UnmarshalBinary there. To look up keys in
// buffers that come and go without allocating, keep a FilterView and Reset
// it instead.
func View(b []byte) (*FilterView, error) {
	h, p, err := viewMem(b, VariantFilter)
	if err != nil {
		return nil, err
	}
	return &FilterView{Filter{blocks: blocksOver[block](p), k: h.K, hash: h.Hash, keys: h.Keys}}, nil
}

// Reset makes v a view of the Filter encoded in b, without copying and
// without allocating, checking only what reading b safely needs (see the
// package's notes on views): the length, magic, version, variant,
// incompatible flags, k and the number of blocks against the payload length
// and len(b), but neither checksum (call Verify for those). On error v is
// the zero view, whose lookups answer false, and the error is the one View
// would return. Reuse one FilterView for buffers that come and go (a block
// cache's): b must stay valid and unchanged until the next Reset.
func (v *FilterView) Reset(b []byte) error {
	if littleEndian && len(b) >= HeaderSize+64 {
		p := unsafe.Pointer(unsafe.SliceData(b))
		w0 := *(*uint64)(p)
		nb, bad := lightSize(p, uint64(len(b))-HeaderSize, 6)
		if bad|lightHead(w0, VariantFilter) == 0 {
			// Field by field: a struct literal is built on the stack and
			// copied with 16-byte moves, which cannot forward from its
			// 8-byte stores.
			v.f.blocks = viewSlice[block](b, VariantFilter, nb)
			v.f.k = int(w0 >> 56)
			v.f.hash = HashID(b[offHash])
			v.f.keys = KeyFamily(b[offCompat] & uint8(format.CompatKeyMask))
			return nil
		}
	}
	v.f = Filter{}
	return viewErr(b, VariantFilter)
}

// LookupHash reports whether h may have been added to the Filter encoded in
// b, as Reset on a FilterView of its own then HasHash would, without
// allocating: the checks are Reset's (neither checksum, see Verify), and a
// b that fails them gives false and Reset's error.
func LookupHash(b []byte, h uint64) (bool, error) {
	// Reset's checks (lightSize, lightHead, inlined) tested with one
	// branch, then the one-key kernel on a Filter-shaped value made on the
	// stack: no FilterView to zero, no slice to make. Go does not inline
	// this (too large), so a lookup is this call and the kernel's;
	// anything else (an error, a platform without the kernel) goes to
	// lookupHashSlow.
	if oneKeyAsm && len(b) >= HeaderSize+64 {
		p := unsafe.Pointer(unsafe.SliceData(b))
		w0 := *(*uint64)(p)
		nb, bad := lightSize(p, uint64(len(b))-HeaderSize, 6)
		if bad|lightHead(w0, VariantFilter) == 0 {
			f := oneFilter{p: unsafe.Add(p, HeaderSize), nb: uint(nb), k: int(w0 >> 56)}
			return filterHasOne((*Filter)(unsafe.Pointer(&f)), h), nil
		}
	}
	return lookupHashSlow(b, h)
}

// oneFilter has the layout of a Filter's first four words, as the one-key
// kernel reads them (the blocks' data pointer at 0, their number at 8, k
// at 24), its pointer one the garbage collector sees.
type oneFilter struct {
	p     unsafe.Pointer
	nb, _ uint // a slice's length and capacity
	k     int
}

// These fail to compile if oneFilter no longer matches a Filter's layout.
const (
	_ = uint(unsafe.Offsetof(Filter{}.k) - unsafe.Offsetof(oneFilter{}.k))
	_ = uint(unsafe.Offsetof(oneFilter{}.k) - unsafe.Offsetof(Filter{}.k))
)

// lookupHashSlow is LookupHash without the one-key kernel, or for a b that
// fails the checks (whose error it returns).
//
//go:noinline
func lookupHashSlow(b []byte, h uint64) (bool, error) {
	var v FilterView
	if err := v.Reset(b); err != nil {
		return false, err
	}
	return v.HasHash(h), nil
}

// HasHash reports whether h may have been added, as Filter.HasHash does.
func (v *FilterView) HasHash(h uint64) bool { return v.f.HasHash(h) }

// HasHashes sets out[i] to HasHash(hs[i]) for every i and returns how many
// are true, as Filter.HasHashes does. It panics if out is shorter than hs.
func (v *FilterView) HasHashes(hs []uint64, out []bool) int { return v.f.HasHashes(hs, out) }

// K returns the number of bits set per key: 8 or 16 (0 for a zero view).
func (v *FilterView) K() int { return v.f.K() }

// NumBlocks returns the number of 64-byte blocks.
func (v *FilterView) NumBlocks() uint64 { return v.f.NumBlocks() }

// NumBits returns the size of the filter in bits.
func (v *FilterView) NumBits() uint64 { return v.f.NumBits() }

// SizeBytes returns the size of the bit array in bytes.
func (v *FilterView) SizeBytes() uint64 { return v.f.SizeBytes() }

// FillRatio returns the fraction of bits that are set, as Filter.FillRatio.
func (v *FilterView) FillRatio() float64 { return v.f.FillRatio() }

// EstimatedCount estimates how many distinct keys were added, as
// Filter.EstimatedCount.
func (v *FilterView) EstimatedCount() float64 { return v.f.EstimatedCount() }

// EstimatedFPR returns the false-positive rate of the filter as it is now,
// as Filter.EstimatedFPR.
func (v *FilterView) EstimatedFPR() float64 { return v.f.EstimatedFPR() }

// KeyHash returns the key-hash identifier the encoding records.
func (v *FilterView) KeyHash() HashID { return v.f.KeyHash() }

// KeyFamily returns the key family the encoding records.
func (v *FilterView) KeyFamily() KeyFamily { return v.f.KeyFamily() }

// Equal reports whether v and o have the same geometry, key hash and bits,
// as Filter.Equal does. To compare a view with a Filter, compare its Clone.
func (v *FilterView) Equal(o *FilterView) bool { return o != nil && v.f.Equal(&o.f) }

// Clone returns a Filter holding a copy of the view's bits and key hash,
// which may be changed.
func (v *FilterView) Clone() *Filter { return v.f.Clone() }

// MarshalBinary returns the encoding of the view's filter, as
// Filter.MarshalBinary does.
func (v *FilterView) MarshalBinary() ([]byte, error) { return v.f.MarshalBinary() }

// AppendBinary appends the encoding of the view's filter to b, as
// Filter.AppendBinary does.
func (v *FilterView) AppendBinary(b []byte) ([]byte, error) { return v.f.AppendBinary(b) }

// WriteTo writes the encoding of the view's filter to w, as Filter.WriteTo
// does.
func (v *FilterView) WriteTo(w io.Writer) (int64, error) { return v.f.WriteTo(w) }

// SplitBlockView is a read-only SplitBlock over an encoding in memory the
// caller owns, as ViewSplitBlock returns it. Its zero value is an empty view
// whose lookups answer false.
type SplitBlockView struct {
	s SplitBlock // a value: the one-key assembly reads it at fixed offsets
}

// ViewSplitBlock returns a read-only SplitBlock over the encoding b, without
// copying and in O(1); the rules of View apply. SplitBlockView.Reset is
// the allocation-free alternative.
func ViewSplitBlock(b []byte) (*SplitBlockView, error) {
	h, p, err := viewMem(b, VariantSplitBlock)
	if err != nil {
		return nil, err
	}
	return &SplitBlockView{SplitBlock{blocks: blocksOver[splitBlock](p), hash: h.Hash}}, nil
}

// Reset makes v a view of the SplitBlock encoded in b, without copying and
// without allocating, with the checks of FilterView.Reset; on error v is
// the zero view.
func (v *SplitBlockView) Reset(b []byte) error {
	if littleEndian && len(b) >= HeaderSize+SplitBlockBytes {
		p := unsafe.Pointer(unsafe.SliceData(b))
		nb, bad := lightSize(p, uint64(len(b))-HeaderSize, 5)
		if bad|lightHead(*(*uint64)(p), VariantSplitBlock) == 0 {
			v.s.blocks = viewSlice[splitBlock](b, VariantSplitBlock, nb) // field by field, as in FilterView.Reset
			v.s.hash = HashID(b[offHash])
			return nil
		}
	}
	v.s = SplitBlock{}
	return viewErr(b, VariantSplitBlock)
}

// HasHash reports whether h may have been added, as SplitBlock.HasHash does.
func (v *SplitBlockView) HasHash(h uint64) bool { return v.s.HasHash(h) }

// HasHashes sets out[i] to HasHash(hs[i]) for every i and returns how many
// are true, as SplitBlock.HasHashes does. It panics if out is shorter than hs.
func (v *SplitBlockView) HasHashes(hs []uint64, out []bool) int { return v.s.HasHashes(hs, out) }

// NumBlocks returns the number of 32-byte blocks.
func (v *SplitBlockView) NumBlocks() uint64 { return v.s.NumBlocks() }

// NumBits returns the size of the filter in bits.
func (v *SplitBlockView) NumBits() uint64 { return v.s.NumBits() }

// SizeBytes returns the size of the bitset in bytes.
func (v *SplitBlockView) SizeBytes() uint64 { return v.s.SizeBytes() }

// FillRatio returns the fraction of bits that are set.
func (v *SplitBlockView) FillRatio() float64 { return v.s.FillRatio() }

// EstimatedCount estimates how many distinct keys were added, as
// SplitBlock.EstimatedCount.
func (v *SplitBlockView) EstimatedCount() float64 { return v.s.EstimatedCount() }

// EstimatedFPR returns the false-positive rate of the filter as it is now.
func (v *SplitBlockView) EstimatedFPR() float64 { return v.s.EstimatedFPR() }

// KeyHash returns the key-hash identifier the encoding records.
func (v *SplitBlockView) KeyHash() HashID { return v.s.KeyHash() }

// Equal reports whether v and o have the same number of blocks, key hash
// and bits. To compare a view with a SplitBlock, compare its Clone.
func (v *SplitBlockView) Equal(o *SplitBlockView) bool { return o != nil && v.s.Equal(&o.s) }

// Clone returns a SplitBlock holding a copy of the view's bits and key hash,
// which may be changed.
func (v *SplitBlockView) Clone() *SplitBlock { return v.s.Clone() }

// Bitset returns a copy of the serialized Parquet bitset, as
// SplitBlock.Bitset does.
func (v *SplitBlockView) Bitset() []byte { return v.s.Bitset() }

// WriteBitset writes the serialized Parquet bitset to w, as
// SplitBlock.WriteBitset does.
func (v *SplitBlockView) WriteBitset(w io.Writer) (int64, error) { return v.s.WriteBitset(w) }

// MarshalBinary returns the encoding of the view's filter.
func (v *SplitBlockView) MarshalBinary() ([]byte, error) { return v.s.MarshalBinary() }

// AppendBinary appends the encoding of the view's filter to b.
func (v *SplitBlockView) AppendBinary(b []byte) ([]byte, error) { return v.s.AppendBinary(b) }

// WriteTo writes the encoding of the view's filter to w.
func (v *SplitBlockView) WriteTo(w io.Writer) (int64, error) { return v.s.WriteTo(w) }

// CountingView is a read-only Counting filter over an encoding in memory the
// caller owns, as ViewCounting returns it: it can look keys up but not add
// or remove them. Its zero value is an empty view whose lookups answer false.
type CountingView struct {
	c Counting
}

// ViewCounting returns a read-only Counting filter over the encoding b,
// without copying and in O(1); the rules of View apply. CountingView.Reset
// is the allocation-free alternative.
func ViewCounting(b []byte) (*CountingView, error) {
	h, p, err := viewMem(b, VariantCounting)
	if err != nil {
		return nil, err
	}
	return &CountingView{Counting{blocks: blocksOver[block](p), hash: h.Hash, keys: h.Keys}}, nil
}

// Reset makes v a view of the Counting filter encoded in b, without copying
// and without allocating, with the checks of FilterView.Reset; on error v
// is the zero view.
func (v *CountingView) Reset(b []byte) error {
	if littleEndian && len(b) >= HeaderSize+64 {
		p := unsafe.Pointer(unsafe.SliceData(b))
		nb, bad := lightSize(p, uint64(len(b))-HeaderSize, 6)
		if bad|lightHead(*(*uint64)(p), VariantCounting) == 0 {
			v.c.blocks = viewSlice[block](b, VariantCounting, nb) // field by field, as in FilterView.Reset
			v.c.hash = HashID(b[offHash])
			v.c.keys = KeyFamily(b[offCompat] & uint8(format.CompatKeyMask))
			return nil
		}
	}
	v.c = Counting{}
	return viewErr(b, VariantCounting)
}

// HasHash reports whether h may have been added, as Counting.HasHash does.
func (v *CountingView) HasHash(h uint64) bool { return v.c.HasHash(h) }

// HasHashes sets out[i] to HasHash(hs[i]) for every i and returns how many
// are true, as Counting.HasHashes does. It panics if out is shorter than hs.
func (v *CountingView) HasHashes(hs []uint64, out []bool) int { return v.c.HasHashes(hs, out) }

// NumBlocks returns the number of 64-byte blocks.
func (v *CountingView) NumBlocks() uint64 { return v.c.NumBlocks() }

// NumBits returns the size of the counter array in bits (4 per counter).
func (v *CountingView) NumBits() uint64 { return v.c.NumBits() }

// SizeBytes returns the size of the counter array in bytes.
func (v *CountingView) SizeBytes() uint64 { return v.c.SizeBytes() }

// FillRatio returns the fraction of counters that are non-zero.
func (v *CountingView) FillRatio() float64 { return v.c.FillRatio() }

// EstimatedFPR returns the false-positive rate of the filter as it is now.
func (v *CountingView) EstimatedFPR() float64 { return v.c.EstimatedFPR() }

// EstimatedCount returns the number of keys added and not removed, as
// Counting.EstimatedCount.
func (v *CountingView) EstimatedCount() float64 { return v.c.EstimatedCount() }

// Saturated returns how many counters are stuck at 15, as
// Counting.Saturated does.
func (v *CountingView) Saturated() uint64 { return v.c.Saturated() }

// KeyHash returns the key-hash identifier the encoding records.
func (v *CountingView) KeyHash() HashID { return v.c.KeyHash() }

// KeyFamily returns the key family the encoding records.
func (v *CountingView) KeyFamily() KeyFamily { return v.c.KeyFamily() }

// Equal reports whether v and o have the same size, key hash and counters.
// To compare a view with a Counting filter, compare its Clone.
func (v *CountingView) Equal(o *CountingView) bool { return o != nil && v.c.Equal(&o.c) }

// Clone returns a Counting filter holding a copy of the view's counters and
// key hash, which may be changed.
func (v *CountingView) Clone() *Counting { return v.c.Clone() }

// MarshalBinary returns the encoding of the view's filter.
func (v *CountingView) MarshalBinary() ([]byte, error) { return v.c.MarshalBinary() }

// AppendBinary appends the encoding of the view's filter to b.
func (v *CountingView) AppendBinary(b []byte) ([]byte, error) { return v.c.AppendBinary(b) }

// WriteTo writes the encoding of the view's filter to w.
func (v *CountingView) WriteTo(w io.Writer) (int64, error) { return v.c.WriteTo(w) }
