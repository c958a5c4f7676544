package blocked

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"unsafe"
)

// The variant-independent machinery of the binary format: a filter's memory
// is a byte slice of native-endian words (8 or 4 bytes); the payload is the
// same words little-endian. On little-endian machines the two are the same
// bytes and nothing is converted.

// chunkBytes is how much payload is converted, checksummed or read at a time.
const chunkBytes = 1 << 20

// alignedMem returns n zeroed bytes (n a multiple of 8) at a 64-byte
// boundary, allocated as words so the memory holds no pointers.
func alignedMem(n uint64) []byte {
	raw := make([]uint64, n/8+8)
	off := (64 - uintptr(unsafe.Pointer(&raw[0]))%64) % 64
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&raw[0]), off)), n)
}

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

// newHeader returns the header of a filter of variant v whose memory is mem,
// with the payload's CRC (one pass over mem).
func newHeader(v Variant, k int, id HashID, mem []byte) Header {
	h := baseHeader(v, k, id, len(mem))
	if littleEndian {
		h.PayloadCRC = crc32.Checksum(mem, castagnoli)
		return h
	}
	buf := make([]byte, min(len(mem), chunkBytes))
	for off := 0; off < len(mem); off += chunkBytes {
		c := toLE(buf, mem[off:min(off+chunkBytes, len(mem))], v.wordBytes())
		h.PayloadCRC = crc32.Update(h.PayloadCRC, castagnoli, c)
	}
	return h
}

// baseHeader returns the header of a filter of variant v with n bytes of
// memory, without the payload CRC.
func baseHeader(v Variant, k int, id HashID, n int) Header {
	return Header{
		Version:      FormatVersion,
		Variant:      v,
		K:            k,
		Blocks:       uint64(n) / v.blockBytes(),
		Hash:         id,
		PayloadBytes: uint64(n),
	}
}

// appendEncoded appends the encoding of a filter to dst.
func appendEncoded(dst []byte, v Variant, k int, id HashID, mem []byte) []byte {
	start := len(dst)
	dst = slices.Grow(dst, HeaderSize+len(mem))[:start+HeaderSize+len(mem)]
	p := dst[start+HeaderSize:]
	if littleEndian {
		copy(p, mem)
	} else {
		toLE(p, mem, v.wordBytes())
	}
	h := baseHeader(v, k, id, len(mem))
	h.PayloadCRC = crc32.Checksum(p, castagnoli)
	h.put(dst[start:])
	return dst
}

// writeEncoded writes the encoding of a filter to w: the header, then the
// payload in chunks straight from mem (converted chunk by chunk on
// big-endian machines), so no second copy of the filter is made.
func writeEncoded(w io.Writer, v Variant, k int, id HashID, mem []byte) (int64, error) {
	h := newHeader(v, k, id, mem)
	var hb [HeaderSize]byte
	h.put(hb[:])
	n, err := w.Write(hb[:])
	total := int64(n)
	if err != nil {
		return total, err
	}
	var buf []byte
	if !littleEndian {
		buf = make([]byte, min(len(mem), chunkBytes))
	}
	for off := 0; off < len(mem); off += chunkBytes {
		c := toLE(buf, mem[off:min(off+chunkBytes, len(mem))], v.wordBytes())
		n, err := w.Write(c)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// decodeBytes checks the whole encoding b of variant v (header, exact length
// and payload checksum) and returns its header and payload.
func decodeBytes(b []byte, v Variant) (Header, []byte, error) {
	h, p, err := framePayload(b, v)
	if err != nil {
		return Header{}, nil, err
	}
	if got := crc32.Checksum(p, castagnoli); got != h.PayloadCRC {
		return Header{}, nil, fmt.Errorf("%w: payload CRC-32C is %#08x, header says %#08x", ErrChecksum, got, h.PayloadCRC)
	}
	return h, p, nil
}

// framePayload checks the header of b and that b is exactly one encoding of
// variant v, and returns the header and the payload, unverified.
func framePayload(b []byte, v Variant) (Header, []byte, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Header{}, nil, err
	}
	if err := h.expect(v); err != nil {
		return Header{}, nil, err
	}
	if uint64(len(b)) < h.Size() {
		return Header{}, nil, fmt.Errorf("%w: %d bytes, the header announces %d (%d blocks)", ErrTruncated, len(b), h.Size(), h.Blocks)
	}
	if uint64(len(b)) > h.Size() {
		return Header{}, nil, fmt.Errorf("%w: %d bytes after the %d-byte encoding", ErrCorrupt, uint64(len(b))-h.Size(), h.Size())
	}
	return h, b[HeaderSize:], nil
}

// decodeCopy decodes b (variant v) into new 64-byte aligned native memory.
func decodeCopy(b []byte, v Variant) (Header, []byte, error) {
	h, p, err := decodeBytes(b, v)
	if err != nil {
		return Header{}, nil, err
	}
	mem := alignedMem(h.PayloadBytes)
	copy(mem, p)
	fromLE(mem, v.wordBytes())
	return h, mem, nil
}

// readEncoded reads one encoding of variant v from r, exactly its bytes and
// no more, and returns its header, its payload as 64-byte aligned native
// memory, and the number of bytes read.
//
// Memory grows with the bytes that actually arrive: the payload buffer
// starts at 1 MiB (or at the announced size when r reports, through a
// Len method, that it holds that much) and doubles when full, up to the
// announced size. A stream that announces 256 GiB and ends early costs at
// most about twice what it sent.
func readEncoded(r io.Reader, v Variant) (Header, []byte, int64, error) {
	var hb [HeaderSize]byte
	n, err := io.ReadFull(r, hb[:])
	total := int64(n)
	if err != nil {
		return Header{}, nil, total, truncated(err, "header", total, HeaderSize)
	}
	h, err := ParseHeader(hb[:])
	if err == nil {
		err = h.expect(v)
	}
	if err != nil {
		return Header{}, nil, total, err
	}
	size := h.PayloadBytes
	initial := min(size, chunkBytes)
	if lr, ok := r.(interface{ Len() int }); ok {
		if l := lr.Len(); l > 0 && uint64(l) >= size {
			initial = size
		}
	}
	mem := alignedMem(initial)
	var got uint64
	var crc uint32
	for got < size {
		if got == uint64(len(mem)) {
			grown := alignedMem(min(2*got, size))
			copy(grown, mem)
			mem = grown
		}
		end := min(uint64(len(mem)), got+chunkBytes)
		n, err := io.ReadFull(r, mem[got:end])
		crc = crc32.Update(crc, castagnoli, mem[got:got+uint64(n)])
		got += uint64(n)
		total += int64(n)
		if err != nil {
			return Header{}, nil, total, truncated(err, "payload", int64(got), int64(size))
		}
	}
	if crc != h.PayloadCRC {
		return Header{}, nil, total, fmt.Errorf("%w: payload CRC-32C is %#08x, header says %#08x", ErrChecksum, crc, h.PayloadCRC)
	}
	fromLE(mem, v.wordBytes())
	return h, mem, total, nil
}

// truncated wraps a read error: an early end of stream is ErrTruncated.
func truncated(err error, what string, got, want int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: %s ends after %d of %d bytes: %w", ErrTruncated, what, got, want, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("blocked: reading the %s: %w", what, err)
}

// Verify checks a whole encoding of any variant: the header, the length and
// both checksums. It reads every byte (O(size)); View checks only the header
// (O(1)), so call Verify first when the bytes might be damaged.
func Verify(b []byte) error {
	h, err := ParseHeader(b)
	if err != nil {
		return err
	}
	_, _, err = decodeBytes(b, h.Variant)
	return err
}
