package blocked

import (
	"fmt"
	"unsafe"
)

// Zero-copy views: a filter whose blocks are the caller's bytes, for example
// a memory-mapped file. A view costs O(1): it checks the header (magic,
// version, header checksum, flags, variant, fields), the length and the alignment, but not
// the payload checksum; call Verify(b) first if the bytes may be damaged
// (damaged payload bits give wrong answers, never a crash).
//
// A view records the encoding's key hash (KeyHash). It is an ordinary
// *Filter (or *SplitBlock, *Counting), so every read
// method, the batch kernels, Clone, Equal and the typed front end work on it
// unchanged. It must be treated as read-only: the methods that change a
// filter (AddHash, AddHashes, the atomic adds, Union, Intersect, Clear, and
// ReadFrom/UnmarshalBinary on the view's bits) would write into b, which
// faults if b is read-only memory (a PROT_READ mapping) and corrupts b's
// checksum otherwise. They are not checked at run time, because a check
// would cost every AddHash; Clone a view to get a filter you may change.
//
// b must stay valid and unchanged while the view is in use. The payload must
// start at a 64-byte boundary (b itself 64-byte aligned, as mmap returns
// it), else ErrAlignment. Views need a little-endian machine, else
// ErrByteOrder: use UnmarshalBinary there.

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
	if a := uintptr(unsafe.Pointer(unsafe.SliceData(p))) % 64; a != 0 {
		return Header{}, nil, fmt.Errorf("%w: the payload starts %d bytes past a 64-byte boundary (the encoding must start at one)", ErrAlignment, a)
	}
	return h, p, nil
}

// View returns a read-only Filter over the encoding b, without copying and
// in O(1); see the rules above (notably: never mutate a view).
func View(b []byte) (*Filter, error) {
	h, p, err := viewMem(b, VariantFilter)
	if err != nil {
		return nil, err
	}
	return &Filter{blocks: blocksOver[block](p), k: h.K, hash: h.Hash}, nil
}

// ViewSplitBlock returns a read-only SplitBlock over the encoding b, without
// copying and in O(1); the rules of View apply.
func ViewSplitBlock(b []byte) (*SplitBlock, error) {
	h, p, err := viewMem(b, VariantSplitBlock)
	if err != nil {
		return nil, err
	}
	return &SplitBlock{blocks: blocksOver[splitBlock](p), hash: h.Hash}, nil
}

// ViewCounting returns a read-only Counting filter over the encoding b,
// without copying and in O(1); the rules of View apply (RemoveHash writes).
func ViewCounting(b []byte) (*Counting, error) {
	h, p, err := viewMem(b, VariantCounting)
	if err != nil {
		return nil, err
	}
	return &Counting{blocks: blocksOver[block](p), hash: h.Hash}, nil
}
