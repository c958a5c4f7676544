package blocked

import (
	"fmt"
	"io"
	"unsafe"

	"github.com/simdbloom/bloom/internal/errs"
)

// Zero-copy views: read-only filters whose blocks are the caller's bytes,
// for example a memory-mapped file. View, ViewSplitBlock and ViewCounting
// cost O(1): they check the header (magic, version, header checksum, flags,
// variant, fields), the length and the alignment, but not the payload
// checksum; call Verify(b) first if the bytes may be damaged (damaged
// payload bits give wrong answers, never a crash).
//
// A view has the lookups and the read-only methods of its filter but no
// method that changes it, so code that would write into the bytes (and
// fault on a read-only mapping) does not compile. Clone returns a filter
// you may change. A view records the encoding's key hash (KeyHash).
//
// b must stay valid and unchanged while the view is in use, and its payload
// must start at an 8-byte boundary (ErrAlignment otherwise); an encoding
// placed at a 64-byte boundary (as a memory-mapped file is) keeps every
// block in one cache line, otherwise each lookup may touch two. Views need a
// little-endian machine, else ErrByteOrder: use UnmarshalBinary there.

// viewAlign is the alignment a view requires of its payload: the words'.
// Every kernel loads unaligned, so more only saves the second cache line
// that a block straddling two costs (PERF.md).
const viewAlign = 8

// viewMem checks that b is exactly one encoding of variant v that can be
// used in place, and returns its header and payload.
func viewMem(b []byte, v Variant) (Header, []byte, error) {
	if !littleEndian {
		return Header{}, nil, ErrByteOrder
	}
	h, p, err := framePayload(b, v)
	if err != nil {
		return Header{}, nil, err
	}
	if a := uintptr(unsafe.Pointer(unsafe.SliceData(p))) % viewAlign; a != 0 {
		return Header{}, nil, fmt.Errorf("%w: the payload starts %s past an 8-byte boundary (the encoding must start at one)", ErrAlignment, errs.Count(uint64(a), "byte"))
	}
	return h, p, nil
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
// and the length but not the payload's checksum: call Verify(b) first if the
// bytes may be damaged (damaged bits give wrong answers, never a crash).
// b must stay valid and unchanged while the view is in use. The payload must
// start at an 8-byte boundary, else ErrAlignment; an encoding placed at a
// 64-byte boundary (a memory-mapped file is) keeps every block in one cache
// line, otherwise each lookup may touch two. On a big-endian machine View
// returns ErrByteOrder: use UnmarshalBinary there.
func View(b []byte) (*FilterView, error) {
	h, p, err := viewMem(b, VariantFilter)
	if err != nil {
		return nil, err
	}
	return &FilterView{Filter{blocks: blocksOver[block](p), k: h.K, hash: h.Hash, keys: h.Keys}}, nil
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
// copying and in O(1); the rules of View apply.
func ViewSplitBlock(b []byte) (*SplitBlockView, error) {
	h, p, err := viewMem(b, VariantSplitBlock)
	if err != nil {
		return nil, err
	}
	return &SplitBlockView{SplitBlock{blocks: blocksOver[splitBlock](p), hash: h.Hash}}, nil
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
// without copying and in O(1); the rules of View apply.
func ViewCounting(b []byte) (*CountingView, error) {
	h, p, err := viewMem(b, VariantCounting)
	if err != nil {
		return nil, err
	}
	return &CountingView{Counting{blocks: blocksOver[block](p), hash: h.Hash, keys: h.Keys}}, nil
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
