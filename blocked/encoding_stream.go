package blocked

import (
	"bytes"
	"encoding/binary"
	"io"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/format"
)

// The variant-independent machinery of the binary format: a filter's memory
// is a byte slice of native-endian words (8 or 4 bytes); the payload is the
// same words little-endian. On little-endian machines the two are the same
// bytes and nothing is converted.

// chunkBytes is how much payload is converted, checksummed or read at a time.
const chunkBytes = format.ChunkBytes

// alignedMem returns n zeroed bytes (n a multiple of 8) from the allocator
// of New: at a 64-byte boundary, laid out for huge pages from
// alloc.HugeFrom bytes, holding no pointers.
func alignedMem(n uint64) []byte { return alloc.Bytes(n) }

// bytesOf returns the memory of a slice of words or blocks as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(s[0]))
}

// blocksOver returns mem (64-byte aligned, a multiple of the block size) as blocks.
func blocksOver[T any](mem []byte) []T {
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(mem))), uintptr(len(mem))/unsafe.Sizeof(zero))
}

// toLE writes the native-endian words of src into dst (as long as src)
// little-endian, and returns dst; on little-endian machines it returns src
// itself and does not touch dst.
func toLE(dst, src []byte, word int) []byte {
	if littleEndian {
		return src
	}
	dst = dst[:len(src)]
	if word == 8 {
		for i := 0; i < len(src); i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], binary.NativeEndian.Uint64(src[i:]))
		}
	} else {
		for i := 0; i < len(src); i += 4 {
			binary.LittleEndian.PutUint32(dst[i:], binary.NativeEndian.Uint32(src[i:]))
		}
	}
	return dst
}

// fromLE turns the little-endian words of b into native-endian words, in
// place (a no-op on little-endian machines).
func fromLE(b []byte, word int) {
	if littleEndian {
		return
	}
	if word == 8 {
		for i := 0; i < len(b); i += 8 {
			binary.NativeEndian.PutUint64(b[i:], binary.LittleEndian.Uint64(b[i:]))
		}
	} else {
		for i := 0; i < len(b); i += 4 {
			binary.NativeEndian.PutUint32(b[i:], binary.LittleEndian.Uint32(b[i:]))
		}
	}
}

// appendEncoded appends the encoding of a filter to dst, or returns dst
// and an error wrapping bloom.ErrTooLarge if dst lacks the room and the
// memory limits refuse a new array that has it (format.Append).
func appendEncoded(dst []byte, v variant, k int, id HashID, keys KeyFamily, mem []byte) ([]byte, error) {
	return format.Append(dst, toFormat(v, k, id, keys, len(mem)), func(p []byte) {
		switch {
		case littleEndian:
			copy(p, mem) // a memmove: right however p and mem overlap
		case overlaps(p, mem):
			// A view of dst's spare capacity: converting word by word
			// would overwrite words of mem before reading them.
			toLE(p, bytes.Clone(mem), v.wordBytes())
		default:
			toLE(p, mem, v.wordBytes())
		}
	})
}

// writeEncoded writes the encoding of a filter to w: the header, then the
// payload in chunks straight from mem (converted chunk by chunk on
// big-endian machines), so no second copy of the filter is made.
func writeEncoded(w io.Writer, v variant, k int, id HashID, keys KeyFamily, mem []byte) (int64, error) {
	var buf []byte
	if !littleEndian {
		buf = make([]byte, min(len(mem), chunkBytes))
	}
	return format.Write(w, toFormat(v, k, id, keys, len(mem)), func(yield func([]byte) bool) {
		for off := 0; off < len(mem); off += chunkBytes {
			if !yield(toLE(buf, mem[off:min(off+chunkBytes, len(mem))], v.wordBytes())) {
				return
			}
		}
	})
}

// framePayload checks the header of b and that b is exactly one encoding of
// variant v, and returns the header and the payload, unverified.
func framePayload(b []byte, v variant) (header, []byte, error) {
	h, p, err := format.Frame(b, format.Variant(v))
	return fromFormat(h), p, err
}

// decodeCopy decodes b (variant v, payload CRC checked) into new native
// memory from alignedMem, as New's.
func decodeCopy(b []byte, v variant) (header, []byte, error) {
	h, p, err := format.Decode(b, format.Variant(v))
	if err != nil {
		return header{}, nil, err
	}
	if err := format.CheckMemory(h); err != nil {
		return header{}, nil, err
	}
	mem := alignedMem(h.PayloadBytes)
	copy(mem, p)
	fromLE(mem, v.wordBytes())
	return fromFormat(h), mem, nil
}

// readEncoded reads one encoding of variant v from r, exactly its bytes and
// no more, and returns its header, its payload as native memory from
// alloc.Bytes (as New's: format.Read), and the number of bytes read. It returns io.EOF alone when r is
// at its end before the first byte (see format.Read for the memory bound).
func readEncoded(r io.Reader, v variant) (header, []byte, int64, error) {
	h, mem, n, err := format.Read(r, format.Variant(v))
	if err != nil {
		return header{}, nil, n, err
	}
	fromLE(mem, v.wordBytes())
	return fromFormat(h), mem, n, nil
}

// Verify checks a whole encoding of any variant: the header, the length and
// both checksums (the header's alone for an encoding written without a
// payload CRC: header.HasPayloadCRC), and for a bloom.Scalable every stage
// the same way (its header, its length and both its checksums, the stages
// filling the payload exactly), so that a damaged stage fails even where
// the outer checksum describes the damage or the outer encoding has none.
// It reads every byte (O(size)) and allocates nothing but an error; View
// checks only the header (O(1)) and Reset less (bloom.ScalableView.Reset
// no payload), so call Verify first when the bytes might be damaged.
// Verify does not check what only a decoder knows (a Scalable's parameters
// or the sizes of its stages, say): UnmarshalBinary and the views' Reset do.
func Verify(b []byte) error {
	return format.Verify(b)
}
