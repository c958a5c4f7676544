package blocked

import (
	"fmt"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

// BuildOptions say how AppendFilter encodes the filter it builds. The zero
// value records HashUnspecified and a payload CRC.
type BuildOptions struct {
	// Hash is the key-hash identifier the encoding records (KeyHash).
	Hash HashID
	// Keys is the key family the encoding records (KeysUnrecorded unless
	// set), as Filter.SetKeyFamily would.
	Keys KeyFamily
	// NoPayloadCRC leaves the payload CRC out, for a container that
	// checksums its blocks itself (a storage engine's block format): the
	// encoding then sets the no-payload-CRC flag of FORMAT.md, which every
	// reader of this package honours (Verify and the decoders check the
	// header CRC only) and which a reader that predates it refuses with
	// bloom.ErrVersion, never mistaking the missing checksum for a damaged
	// payload. header.HasPayloadCRC tells which kind an encoding is.
	NoPayloadCRC bool
}

// AppendFilter appends to dst the encoding of a Filter of nblocks 64-byte
// blocks setting k bits per key (8 or 16) that holds every hash of hs: the
// bytes New-then-AddHashes-then-AppendBinary would give, but built in place
// in dst, so it allocates at most once, when dst lacks the 64-byte header +
// 64*nblocks bytes of room (the payload is never copied; with a payload CRC
// it is read once more for the checksum). Size gives nblocks and k
// for a number of keys and a false-positive rate.
//
// hs may lie anywhere, dst's spare capacity included: if it lies in the
// bytes the encoding takes, the filter is built in new memory (one
// allocation, as when dst lacks room) and hs is left as it was.
//
// The payload lands wherever dst puts it; the views read it at any
// address, and at a 64-byte boundary every block is one cache line. On a
// big-endian machine, or one that needs aligned words when dst's payload is
// not aligned, the filter is built in memory of its own and copied (a
// second allocation). It returns dst unchanged and an error wrapping
// bloom.ErrGeometry if k is not 8 or 16 or nblocks is 0, or bloom.ErrTooLarge if
// nblocks is above MaxBlocks or the encoding would not fit in memory.
func AppendFilter(dst []byte, nblocks uint64, k int, hs []uint64, o BuildOptions) ([]byte, error) {
	if k != 8 && k != 16 {
		return dst, fmt.Errorf("%w: k must be 8 or 16, got %d", errs.ErrGeometry, k)
	}
	if nblocks == 0 {
		return dst, fmt.Errorf("%w: a Filter needs at least one block", errs.ErrGeometry)
	}
	if nblocks > MaxBlocks {
		return dst, fmt.Errorf("%w: %d blocks, the most is %d", errs.ErrTooLarge, nblocks, uint64(MaxBlocks))
	}
	size := headerSize + nblocks*64
	start := len(dst)
	// Hashes staged in the bytes about to be written (dst's spare capacity
	// used as scratch) would be cleared and overwritten before they are
	// read: build into new memory then, as when dst lacks room.
	fresh := uint64(cap(dst)-start) < size ||
		overlaps(bytesOf(hs), dst[start:start+int(size)])
	orig := dst
	if fresh {
		// One allocation, zeroed, checked against the memory limits as
		// every encoder's is; dst[:start:start] has no room, so it is new
		// even when the hashes made dst's room unusable.
		grown, err := alloc.Grow(dst[:start:start], size, func() string {
			return "the Filter encoding's " + errs.Count(nblocks, "block")
		})
		if err != nil {
			return dst, err
		}
		dst = grown
	}
	n := int(size) - headerSize // size fits an int: it is in dst's capacity
	dst = dst[:start+headerSize+n]
	p := dst[start+headerSize:]
	if littleEndian && (unalignedOK || uintptr(unsafe.Pointer(unsafe.SliceData(p)))%8 == 0) {
		if !fresh {
			clear(p) // dst's spare capacity may hold anything
		}
		f := Filter{blocks: blocksOver[block](p), k: k}
		if len(hs) > 0 {
			addHashes(&f, hs)
		}
	} else {
		if err := checkAlloc(nblocks, 64, nil); err != nil {
			return orig, err
		}
		f := newFilter(nblocks, k)
		f.AddHashes(hs)
		if littleEndian {
			copy(p, f.mem())
		} else {
			toLE(p, f.mem(), 8)
		}
	}
	h := toFormat(variantFilter, k, o.Hash, o.Keys, n)
	if o.NoPayloadCRC {
		h.Incompat |= format.IncompatNoPayloadCRC
	} else {
		h.PayloadCRC = format.CRC(p)
	}
	h.Put(dst[start:])
	return dst, nil
}

// overlaps reports whether a and b share a byte of memory.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}
