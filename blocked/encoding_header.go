package blocked

import (
	"fmt"
	"hash/crc32"

	"github.com/simdbloom/bloom/internal/format"
)

// The binary format (FORMAT.md at the repository root has it byte by byte):
// a 64-byte header, then the payload, the blocks in order with every word
// little-endian. The payload starts at offset 64, so an encoding placed at a
// 64-byte boundary (a memory-mapped file, for one) can be used in place.
// The framing (header, checks, checksums, stream reading) is shared with the
// other encoded filters in internal/format; this file maps it onto the
// package's types and errors.

// headerSize is the size of the header in bytes; the payload follows it.
const headerSize = format.HeaderSize

// formatVersion is the version of the format this package writes and reads.
const formatVersion = format.Version

// magic opens every encoding.
const magic = format.Magic

// The header's field offsets, flags and light check are internal/format's
// (OffBlocks, LightSize, ...), their only definition.

// castagnoli is the CRC-32C table (hardware accelerated on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// variant says which kind of filter an encoding holds (FORMAT.md).
type variant uint8

// The variants. Zero is never written. variantCuckoo and variantScalable are
// the encodings of cuckoo.Filter and bloom.Scalable[K], which those packages
// decode; parseHeader and Verify check them as any other.
const (
	variantFilter     = variant(format.Filter)     // Filter: 64-byte blocks of 8 uint64 words
	variantSplitBlock = variant(format.SplitBlock) // SplitBlock: 32-byte blocks of 8 uint32 words
	variantCounting   = variant(format.Counting)   // Counting: 64-byte blocks of 8 uint64 words of 16 4-bit counters
	variantCuckoo     = variant(format.Cuckoo)     // cuckoo.Filter: packed buckets of fingerprints
	variantScalable   = variant(format.Scalable)   // bloom.Scalable[K]: parameters, then a chain of Filter encodings
)

// String returns the variant's type name.
func (v variant) String() string { return format.Variant(v).String() }

// blockBytes returns the size of one block of the variant, or 0 if unknown.
func (v variant) blockBytes() uint64 { return format.Variant(v).BlockBytes() }

// wordBytes returns the size of the variant's little-endian words.
func (v variant) wordBytes() int {
	if v == variantSplitBlock {
		return 4
	}
	return 8
}

// HashID records which function turned keys into the 64-bit hashes a filter
// holds, so that a filter is never queried with hashes of another function.
// Every filter carries one (KeyHash, SetKeyHash) and its encoding records
// it; this package never interprets it beyond refusing to combine filters
// of two different known ids. The typed package bloom records HashXXH3 and
// refuses to read any other.
type HashID uint8

// Known key-hash identifiers. Values from 128 up are free for applications.
const (
	HashUnspecified HashID = 0 // raw hashes of the caller's choosing
	HashXXH3        HashID = 1 // xxh3 64-bit, seed 0, as bloom.Hash computes it
	HashXXH64       HashID = 2 // XXH64 seed 0 of the Parquet plain encoding (package sbparquet)
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

// KeyFamily records what a filter's keys were before they were hashed:
// byte strings or integers. The typed package bloom hashes a string and a
// []byte as their bytes and an integer as its 8 bytes, so a filter of one
// family answers every lookup of the other wrongly (the key 7 is not the
// string "7"); its typed decoders refuse an encoding of the other family.
// Every Filter and Counting carries one (KeyFamily, SetKeyFamily;
// KeysUnrecorded unless set) and its encoding records it in the header's
// compatible flags (FORMAT.md); this package never interprets it beyond
// refusing to combine filters of two different recorded families.
type KeyFamily uint8

// The key families.
const (
	KeysUnrecorded = KeyFamily(format.KeysUnrecorded) // not recorded: any keys (every encoding written before the field)
	KeysBytes      = KeyFamily(format.KeysBytes)      // byte strings: bloom's string and []byte keys
	KeysIntegers   = KeyFamily(format.KeysIntegers)   // integers, hashed as 8 bytes little-endian after widening to 64 bits
)

// String names the key family.
func (k KeyFamily) String() string {
	switch k {
	case KeysUnrecorded:
		return "unrecorded"
	case KeysBytes:
		return "byte strings"
	case KeysIntegers:
		return "integers"
	}
	return fmt.Sprintf("KeyFamily(%d)", uint8(k))
}

// header is the decoded header of an encoding.
type header struct {
	Version      uint16    // format version (formatVersion)
	variant      variant   // which filter type
	K            int       // bits (or counters) per key: 8 or 16 for Filter, 8 otherwise
	Blocks       uint64    // number of blocks
	Hash         HashID    // key-hash identifier
	PayloadBytes uint64    // Blocks times the variant's block size
	PayloadCRC   uint32    // CRC-32C of the payload
	CompatFlags  uint32    // compatible flags: bits a reader may ignore; bits 0..1 are Keys, the others are written 0
	Keys         KeyFamily // key family (bits 0..1 of CompatFlags): what the keys were before hashing
	// IncompatFlags are the incompatible flags, all known to this package:
	// bit 0 (AppendFilter's BuildOptions.NoPayloadCRC) says the payload
	// has no CRC (PayloadCRC is 0 and not checked).
	IncompatFlags uint32
}

// HasPayloadCRC reports whether the encoding carries a payload CRC: true
// unless its writer left it out (BuildOptions.NoPayloadCRC), in which case
// Verify and the decoders check the header only.
func (h header) HasPayloadCRC() bool { return h.IncompatFlags&format.IncompatNoPayloadCRC == 0 }

// Size returns the length of the whole encoding: header and payload.
func (h header) Size() uint64 { return headerSize + h.PayloadBytes }

// fromFormat converts a framing header to a header.
func fromFormat(h format.Header) header {
	return header{
		Version:       h.Version,
		variant:       variant(h.Variant),
		K:             int(h.K),
		Blocks:        h.Blocks,
		Hash:          HashID(h.Hash),
		PayloadBytes:  h.PayloadBytes,
		PayloadCRC:    h.PayloadCRC,
		CompatFlags:   h.Compat,
		Keys:          KeyFamily(h.Compat & format.CompatKeyMask),
		IncompatFlags: h.Incompat,
	}
}

// toFormat returns the framing header of a filter of variant v with k, id,
// key family keys and n payload bytes (payload CRC left for the framing to
// fill in).
func toFormat(v variant, k int, id HashID, keys KeyFamily, n int) format.Header {
	return format.Header{
		Version:      formatVersion,
		Variant:      format.Variant(v),
		K:            uint8(k),
		Blocks:       uint64(n) / v.blockBytes(),
		Hash:         uint8(id),
		PayloadBytes: uint64(n),
		Compat:       uint32(keys) & format.CompatKeyMask,
	}
}

// parseHeader decodes and checks the header at the start of b (at least
// headerSize bytes; the payload need not follow), in FORMAT.md's order: the
// magic, the version, the header checksum, the incompatible flags, the
// variant, the reserved bytes, then k, the number of blocks and the payload
// length. It does not read the payload.
func parseHeader(b []byte) (header, error) {
	h, err := format.Parse(b, 0)
	if err != nil {
		return header{}, err
	}
	return fromFormat(h), nil
}
