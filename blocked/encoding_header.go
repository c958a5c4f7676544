package blocked

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/simdbloom/bloom/internal/errs"
)

// The binary format (FORMAT.md at the repository root has it byte by byte):
// a 64-byte header, then the payload, the blocks in order with every word
// little-endian. The payload starts at offset 64, so an encoding placed at a
// 64-byte boundary (a memory-mapped file, for one) can be used in place.

// HeaderSize is the size of the header in bytes; the payload follows it.
const HeaderSize = 64

// FormatVersion is the version of the format this package writes and reads.
const FormatVersion = 1

// magic opens every encoding.
const magic = "SBLM"

// Header field offsets (see FORMAT.md).
const (
	offMagic      = 0  // 4 bytes
	offVersion    = 4  // uint16
	offVariant    = 6  // uint8
	offK          = 7  // uint8
	offBlocks     = 8  // uint64
	offHash       = 16 // uint8, then 7 reserved bytes
	offPayloadLen = 24 // uint64
	offPayloadCRC = 32 // uint32, then 24 reserved bytes
	offHeaderCRC  = 60 // uint32: CRC-32C of bytes 0..59
)

// castagnoli is the CRC-32C table (hardware accelerated on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Errors returned when decoding, wrapped with the details; test for them
// with errors.Is. Size and k problems in a header wrap ErrCorrupt and also
// ErrGeometry or ErrTooLarge. They are the values of the same names in
// packages bloom, cuckoo and parquet.
var (
	// ErrMagic means the input is not a filter encoding of this module.
	ErrMagic = errs.ErrMagic
	// ErrVersion means the format version is not one this package reads.
	ErrVersion = errs.ErrVersion
	// ErrVariant means the encoding holds another kind of filter than the
	// one asked for, or a kind this package does not know.
	ErrVariant = errs.ErrVariant
	// ErrChecksum means a CRC-32C does not match the bytes it covers.
	ErrChecksum = errs.ErrChecksum
	// ErrTruncated means the input ends before the encoding does.
	ErrTruncated = errs.ErrTruncated
	// ErrCorrupt means the header is malformed or inconsistent.
	ErrCorrupt = errs.ErrCorrupt
	// ErrAlignment means View was given a payload that is not aligned.
	ErrAlignment = errs.ErrAlignment
	// ErrByteOrder means View was called on a big-endian machine.
	ErrByteOrder = errs.ErrByteOrder
	// ErrHashMismatch means the filter was written with another key hash.
	ErrHashMismatch = errs.ErrHashMismatch
)

// Variant says which kind of filter an encoding holds.
type Variant uint8

// The variants. Zero is never written.
const (
	VariantFilter     Variant = 1 // Filter: 64-byte blocks of 8 uint64 words
	VariantSplitBlock Variant = 2 // SplitBlock: 32-byte blocks of 8 uint32 words
	VariantCounting   Variant = 3 // Counting: 64-byte blocks of 8 uint64 words of 16 4-bit counters
)

// String returns the variant's type name.
func (v Variant) String() string {
	switch v {
	case VariantFilter:
		return "Filter"
	case VariantSplitBlock:
		return "SplitBlock"
	case VariantCounting:
		return "Counting"
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// blockBytes returns the size of one block of the variant, or 0 if unknown.
func (v Variant) blockBytes() uint64 {
	switch v {
	case VariantFilter, VariantCounting:
		return 64
	case VariantSplitBlock:
		return SplitBlockBytes
	}
	return 0
}

// wordBytes returns the size of the variant's little-endian words.
func (v Variant) wordBytes() int {
	if v == VariantSplitBlock {
		return 4
	}
	return 8
}

// HashID records which function turned keys into the 64-bit hashes a filter
// holds, so that a filter is never queried with hashes of another function.
// This package stores it and never interprets it; the typed package bloom
// writes HashXXH3 and refuses to read any other.
type HashID uint8

// Known key-hash identifiers. Values from 128 up are free for applications.
const (
	HashUnspecified HashID = 0 // raw hashes of the caller's choosing
	HashXXH3        HashID = 1 // xxh3 64-bit, seed 0, as bloom.Hash computes it
	HashXXH64       HashID = 2 // XXH64 seed 0 of the Parquet plain encoding (package parquet)
)

// String returns the hash function's name.
func (id HashID) String() string {
	switch id {
	case HashUnspecified:
		return "unspecified"
	case HashXXH3:
		return "xxh3-64"
	case HashXXH64:
		return "xxh64-parquet"
	}
	return fmt.Sprintf("HashID(%d)", uint8(id))
}

// Header is the decoded header of an encoding.
type Header struct {
	Version      uint16  // format version (FormatVersion)
	Variant      Variant // which filter type
	K            int     // bits (or counters) per key: 8 or 16 for Filter, 8 otherwise
	Blocks       uint64  // number of blocks
	Hash         HashID  // key-hash identifier
	PayloadBytes uint64  // Blocks times the variant's block size
	PayloadCRC   uint32  // CRC-32C of the payload
}

// Size returns the length of the whole encoding: header and payload.
func (h Header) Size() uint64 { return HeaderSize + h.PayloadBytes }

// maxPayload is the largest payload this platform can hold in memory (the
// whole encoding must fit an int); 2^38 bytes on 64-bit platforms.
var maxPayload = min(uint64(math.MaxInt-2*HeaderSize), MaxBlocks*64)

// ParseHeader decodes and checks the header at the start of b (at least
// HeaderSize bytes; the payload need not follow). It checks the magic, the
// version, the header checksum, the variant, k, the number of blocks and the
// payload length; it does not read the payload.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderSize {
		return Header{}, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrTruncated, len(b), HeaderSize)
	}
	if string(b[offMagic:offMagic+4]) != magic {
		return Header{}, fmt.Errorf("%w: starts with %q, want %q", ErrMagic, b[offMagic:offMagic+4], magic)
	}
	h := Header{
		Version:      binary.LittleEndian.Uint16(b[offVersion:]),
		Variant:      Variant(b[offVariant]),
		K:            int(b[offK]),
		Blocks:       binary.LittleEndian.Uint64(b[offBlocks:]),
		Hash:         HashID(b[offHash]),
		PayloadBytes: binary.LittleEndian.Uint64(b[offPayloadLen:]),
		PayloadCRC:   binary.LittleEndian.Uint32(b[offPayloadCRC:]),
	}
	if h.Version != FormatVersion {
		return Header{}, fmt.Errorf("%w: version %d, this package reads version %d", ErrVersion, h.Version, FormatVersion)
	}
	if got, want := crc32.Checksum(b[:offHeaderCRC], castagnoli), binary.LittleEndian.Uint32(b[offHeaderCRC:]); got != want {
		return Header{}, fmt.Errorf("%w: header CRC-32C is %#08x, header says %#08x", ErrChecksum, got, want)
	}
	if err := h.check(); err != nil {
		return Header{}, err
	}
	for _, r := range [][]byte{b[offHash+1 : offPayloadLen], b[offPayloadCRC+4 : offHeaderCRC]} {
		for _, c := range r {
			if c != 0 {
				return Header{}, fmt.Errorf("%w: reserved header bytes are not zero", ErrCorrupt)
			}
		}
	}
	return h, nil
}

// check validates the fields of h against each other.
func (h Header) check() error {
	bb := h.Variant.blockBytes()
	if bb == 0 {
		return fmt.Errorf("%w: unknown variant %d", ErrVariant, uint8(h.Variant))
	}
	if h.K != 8 && !(h.K == 16 && h.Variant == VariantFilter) {
		return fmt.Errorf("%w: %w: k = %d for a %v", ErrCorrupt, ErrGeometry, h.K, h.Variant)
	}
	if h.Blocks == 0 {
		return fmt.Errorf("%w: %w: 0 blocks", ErrCorrupt, ErrGeometry)
	}
	if h.Blocks > MaxBlocks {
		return fmt.Errorf("%w: %w: %d blocks, the most is %d", ErrCorrupt, ErrTooLarge, h.Blocks, uint64(MaxBlocks))
	}
	if h.PayloadBytes != h.Blocks*bb {
		return fmt.Errorf("%w: payload length %d is not %d blocks of %d bytes", ErrCorrupt, h.PayloadBytes, h.Blocks, bb)
	}
	if h.PayloadBytes > maxPayload {
		return fmt.Errorf("%w: %w: a %d-byte payload does not fit in memory on this platform", ErrCorrupt, ErrTooLarge, h.PayloadBytes)
	}
	return nil
}

// expect returns an error unless h is of variant v.
func (h Header) expect(v Variant) error {
	if h.Variant != v {
		return fmt.Errorf("%w: encoding holds a %v, not a %v", ErrVariant, h.Variant, v)
	}
	return nil
}

// put writes h into the first HeaderSize bytes of b, with its header CRC.
func (h Header) put(b []byte) {
	b = b[:HeaderSize]
	clear(b)
	copy(b[offMagic:], magic)
	binary.LittleEndian.PutUint16(b[offVersion:], h.Version)
	b[offVariant] = byte(h.Variant)
	b[offK] = byte(h.K)
	binary.LittleEndian.PutUint64(b[offBlocks:], h.Blocks)
	b[offHash] = byte(h.Hash)
	binary.LittleEndian.PutUint64(b[offPayloadLen:], h.PayloadBytes)
	binary.LittleEndian.PutUint32(b[offPayloadCRC:], h.PayloadCRC)
	binary.LittleEndian.PutUint32(b[offHeaderCRC:], crc32.Checksum(b[:offHeaderCRC], castagnoli))
}
