// Package format frames simdbloom encodings (FORMAT.md at the repository
// root): the 64-byte header, its checks in the documented order, the payload
// CRC-32C, and the bounded-memory stream reader. Every package that encodes a
// filter (blocked, cuckoo and the root's Scalable) frames its
// payload with this package and supplies only the payload bytes and the
// error values it returns.
//
// The payload itself is the caller's business: blocked stores its blocks'
// little-endian words; cuckoo stores a small prefix and its packed buckets
// (K = fingerprint bits, Blocks = buckets, Params[0] = table layout); the
// root's Scalable stores a parameter block followed by whole Filter
// encodings (Blocks = number of stages). This package checks the header
// fields of every variant; the decoders check the payloads.
package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"math"

	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/memlimit"
)

// HeaderSize is the size of the header in bytes; the payload follows it.
const HeaderSize = 64

// Version is the format version written and read.
const Version = 1

// Magic opens every encoding.
const Magic = "SBLM"

// MaxBlocks is the most blocks (buckets, units) a header may announce.
const MaxBlocks = 1 << 32

// Header field offsets (FORMAT.md). These are their only definition:
// package blocked, the root package and the generator of blocked's
// assembly (asm/lookup.go, which loads this package's declarations) read
// them here, and the pebble module reads through blocked's functions.
const (
	OffMagic      = 0  // 4 bytes
	OffVersion    = 4  // uint16
	OffVariant    = 6  // uint8
	OffK          = 7  // uint8
	OffBlocks     = 8  // uint64
	OffHash       = 16 // uint8
	OffParams     = 17 // 7 bytes, variant-specific, zero for variants 1..3
	OffPayloadLen = 24 // uint64
	OffPayloadCRC = 32 // uint32
	OffCompat     = 36 // uint32: compatible flags, ignored by readers
	OffIncompat   = 40 // uint32: incompatible flags, refused by readers
	OffReserved   = 44 // 16 bytes, zero
	OffHeaderCRC  = 60 // uint32: CRC-32C of bytes 0..59
)

// Compatible flags (offset 36). Bits 0..1 are the key family: what the
// keys were before they were hashed, so that a typed reader refuses a
// filter of the other kind of keys (whose hashes it would never match).
// 0 is "not recorded", the value of every encoding written before the
// field, which every reader accepts.
const (
	CompatKeyMask  uint32 = 0x3 // the key family's bits
	KeysUnrecorded uint32 = 0   // the writer did not say
	KeysBytes      uint32 = 1   // byte strings: string and []byte keys, hashed as their bytes
	KeysIntegers   uint32 = 2   // integers, hashed as 8 bytes little-endian after widening to 64 bits
	// 3 is reserved: a typed reader refuses it as another family.
)

// Incompatible flags (offset 40).
//
// IncompatNoPayloadCRC (bit 0) says the writer left the payload CRC out
// (for a container that checksums its blocks itself): the payload CRC
// field is zero and no reader checks it. It is an incompatible flag because
// a reader that did not know it would check the zero field and report a
// damaged payload; such a reader refuses the encoding (ErrVersion) instead.
const IncompatNoPayloadCRC uint32 = 1 << 0

// KnownIncompat is the set of incompatible flag bits this version
// understands. A header with any other bit is ErrVersion.
const KnownIncompat uint32 = IncompatNoPayloadCRC

// Variant is the variant id at offset 6.
type Variant uint8

// The variant ids. Variants 1..3 are blocks of a fixed size; 4 and 5 have
// their own payloads (cuckoo.go in this package checks their headers).
const (
	Filter     Variant = 1 // blocked.Filter, 64-byte blocks
	SplitBlock Variant = 2 // blocked.SplitBlock, 32-byte blocks
	Counting   Variant = 3 // blocked.Counting, 64-byte blocks of 4-bit counters
	Cuckoo     Variant = 4 // cuckoo.Filter: buckets of fingerprints
	Scalable   Variant = 5 // bloom.Scalable[K]: parameters, then whole Filter encodings
	Window     Variant = 6 // bloom.Window[K]: parameters, then whole Filter encodings (generations)
)

// String names the variant.
func (v Variant) String() string {
	switch v {
	case Filter:
		return "Filter"
	case SplitBlock:
		return "SplitBlock"
	case Counting:
		return "Counting"
	case Cuckoo:
		return "Cuckoo"
	case Scalable:
		return "Scalable"
	case Window:
		return "Window"
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// unit names what the variant's header field Blocks counts.
func (v Variant) unit() string {
	switch v {
	case Cuckoo:
		return "bucket"
	case Scalable:
		return "stage"
	case Window:
		return "generation"
	}
	return "block"
}

// BlockBytes returns the block size of variants 1..3, or 0.
func (v Variant) BlockBytes() uint64 {
	switch v {
	case Filter, Counting:
		return 64
	case SplitBlock:
		return 32
	}
	return 0
}

// Header is a decoded header.
type Header struct {
	Version      uint16
	Variant      Variant
	K            uint8   // bits per key (variants 1..3), fingerprint bits (cuckoo)
	Blocks       uint64  // blocks, buckets or member filters
	Hash         uint8   // key-hash identifier
	Params       [7]byte // variant-specific; zero for variants 1..3
	PayloadBytes uint64
	PayloadCRC   uint32
	Compat       uint32 // compatible flags: readers ignore unknown bits
	Incompat     uint32 // incompatible flags: readers refuse unknown bits
}

// Size returns the length of the whole encoding.
func (h Header) Size() uint64 { return HeaderSize + h.PayloadBytes }

// HasPayloadCRC reports whether the payload CRC field holds a checksum: it
// does unless the writer set IncompatNoPayloadCRC.
func (h Header) HasPayloadCRC() bool { return h.Incompat&IncompatNoPayloadCRC == 0 }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC returns the CRC-32C (Castagnoli) of b.
func CRC(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// UpdateCRC continues the CRC-32C crc with b.
func UpdateCRC(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoli, b) }

// Put writes h into b[:HeaderSize] with the magic and the header CRC.
func (h Header) Put(b []byte) {
	b = b[:HeaderSize]
	clear(b)
	copy(b[OffMagic:], Magic)
	binary.LittleEndian.PutUint16(b[OffVersion:], h.Version)
	b[OffVariant] = byte(h.Variant)
	b[OffK] = h.K
	binary.LittleEndian.PutUint64(b[OffBlocks:], h.Blocks)
	b[OffHash] = h.Hash
	copy(b[OffParams:OffPayloadLen], h.Params[:])
	binary.LittleEndian.PutUint64(b[OffPayloadLen:], h.PayloadBytes)
	binary.LittleEndian.PutUint32(b[OffPayloadCRC:], h.PayloadCRC)
	binary.LittleEndian.PutUint32(b[OffCompat:], h.Compat)
	binary.LittleEndian.PutUint32(b[OffIncompat:], h.Incompat)
	binary.LittleEndian.PutUint32(b[OffHeaderCRC:], CRC(b[:OffHeaderCRC]))
}

// Parse decodes the header at the start of b and checks it in FORMAT.md's
// order: length, magic, version, header CRC, incompatible flags, variant
// (known, readable, and want unless want is 0), reserved bytes, then the
// variant's fields (Check). It does not look past the header.
func Parse(b []byte, want Variant) (Header, error) {
	if len(b) < HeaderSize {
		return Header{}, fmt.Errorf("%w: %d byte%.*s, shorter than the %d-byte header", errs.ErrTruncated, len(b), errs.S(len(b)), "s", HeaderSize)
	}
	if string(b[OffMagic:OffMagic+4]) != Magic {
		return Header{}, fmt.Errorf("%w: starts with %q, want %q", errs.ErrMagic, b[OffMagic:OffMagic+4], Magic)
	}
	h := Header{
		Version:      binary.LittleEndian.Uint16(b[OffVersion:]),
		Variant:      Variant(b[OffVariant]),
		K:            b[OffK],
		Blocks:       binary.LittleEndian.Uint64(b[OffBlocks:]),
		Hash:         b[OffHash],
		PayloadBytes: binary.LittleEndian.Uint64(b[OffPayloadLen:]),
		PayloadCRC:   binary.LittleEndian.Uint32(b[OffPayloadCRC:]),
		Compat:       binary.LittleEndian.Uint32(b[OffCompat:]),
		Incompat:     binary.LittleEndian.Uint32(b[OffIncompat:]),
	}
	copy(h.Params[:], b[OffParams:OffPayloadLen])
	if h.Version != Version {
		return Header{}, fmt.Errorf("%w: version %d, this package reads version %d", errs.ErrVersion, h.Version, Version)
	}
	if got, hdr := CRC(b[:OffHeaderCRC]), binary.LittleEndian.Uint32(b[OffHeaderCRC:]); got != hdr {
		return Header{}, fmt.Errorf("%w: header CRC-32C is %#08x, header says %#08x", errs.ErrChecksum, got, hdr)
	}
	if u := h.Incompat &^ KnownIncompat; u != 0 {
		return Header{}, fmt.Errorf("%w: incompatible flags %#08x, unknown to this version", errs.ErrVersion, u)
	}
	if err := checkVariant(h.Variant, want); err != nil {
		return Header{}, err
	}
	for _, c := range b[OffReserved:OffHeaderCRC] {
		if c != 0 {
			return Header{}, fmt.Errorf("%w: reserved header bytes are not zero", errs.ErrCorrupt)
		}
	}
	if !h.HasPayloadCRC() && h.PayloadCRC != 0 {
		return Header{}, fmt.Errorf("%w: payload CRC field is %#08x with the no-payload-CRC flag set (must be 0)", errs.ErrCorrupt, h.PayloadCRC)
	}
	if err := Check(h); err != nil {
		return Header{}, err
	}
	return h, nil
}

// checkVariant refuses an unknown variant and (want != 0) any other than want.
func checkVariant(v, want Variant) error {
	switch {
	case v.BlockBytes() == 0 && v != Cuckoo && v != Scalable && v != Window:
		return fmt.Errorf("%w: unknown variant %d", errs.ErrVariant, uint8(v))
	case want != 0 && v != want:
		return fmt.Errorf("%w: encoding holds a %v, not a %v", errs.ErrVariant, v, want)
	}
	return nil
}

// maxPayload is the largest payload this platform can hold in memory (the
// whole encoding must fit an int).
var maxPayload = min(uint64(math.MaxInt-2*HeaderSize), MaxBlocks*64)

// Check validates the variant-specific fields of h: for variants 1..3 the
// parameter bytes zero, k, the number of blocks, the payload length and that
// the payload fits this platform's memory; for 4 and 5 see checkCuckoo and
// checkScalable.
func Check(h Header) error {
	switch h.Variant {
	case Cuckoo:
		return checkCuckoo(h)
	case Scalable:
		return checkScalable(h)
	case Window:
		return checkWindow(h)
	}
	bb := h.Variant.BlockBytes()
	if bb == 0 {
		return checkVariant(h.Variant, 0)
	}
	if h.Params != [7]byte{} {
		return fmt.Errorf("%w: reserved header bytes are not zero", errs.ErrCorrupt)
	}
	if h.K != 8 && !(h.K == 16 && h.Variant == Filter) {
		return fmt.Errorf("%w: k = %d for a %v", errs.Both(errs.ErrCorrupt, errs.ErrGeometry), h.K, h.Variant)
	}
	if h.Blocks == 0 {
		return fmt.Errorf("%w: 0 blocks", errs.Both(errs.ErrCorrupt, errs.ErrGeometry))
	}
	if h.Blocks > MaxBlocks {
		return fmt.Errorf("%w: %d blocks, the most is %d", errs.Both(errs.ErrCorrupt, errs.ErrTooLarge), h.Blocks, uint64(MaxBlocks))
	}
	if h.PayloadBytes != h.Blocks*bb {
		return fmt.Errorf("%w: payload length %d is not %d blocks of %d bytes", errs.ErrCorrupt, h.PayloadBytes, h.Blocks, bb)
	}
	if h.PayloadBytes > maxPayload {
		return fmt.Errorf("%w: a %d-byte payload does not fit in memory on this platform", errs.Both(errs.ErrCorrupt, errs.ErrTooLarge), h.PayloadBytes)
	}
	return nil
}

// CheckMemory returns an error wrapping ErrTooLarge if a copy of h's
// payload, in memory from alloc.Bytes, is more than this machine can
// allocate at once (internal/memlimit: its memory, the process's limits).
// The decoders that copy the payload call it before they allocate; the
// views, which copy nothing, do not.
func CheckMemory(h Header) error {
	return memlimit.Check(alloc.Footprint(h.PayloadBytes), h.what)
}

// what names the payload of an encoding with header h, for the messages of
// CheckMemory and Append: "the Filter encoding's 655360 blocks".
func (h Header) what() string {
	return fmt.Sprintf("the %v encoding's %s", h.Variant, errs.Count(h.Blocks, h.Variant.unit()))
}

// Frame checks that b is exactly one encoding (of variant want, unless 0)
// and returns its header and payload, without checking the payload CRC.
func Frame(b []byte, want Variant) (Header, []byte, error) {
	h, err := Parse(b, want)
	if err != nil {
		return Header{}, nil, err
	}
	if uint64(len(b)) < h.Size() {
		return Header{}, nil, fmt.Errorf("%w: %d byte%.*s, the header announces %d (%d %s%.*s)", errs.ErrTruncated, len(b), errs.S(len(b)), "s", h.Size(), h.Blocks, h.Variant.unit(), errs.S(h.Blocks), "s")
	}
	if uint64(len(b)) > h.Size() {
		return Header{}, nil, fmt.Errorf("%w: %d byte%.*s after the %d-byte encoding", errs.ErrCorrupt, uint64(len(b))-h.Size(), errs.S(uint64(len(b))-h.Size()), "s", h.Size())
	}
	return h, b[HeaderSize:], nil
}

// Decode is Frame that also checks the payload CRC (unless the encoding
// has none: IncompatNoPayloadCRC).
func Decode(b []byte, want Variant) (Header, []byte, error) {
	h, p, err := Frame(b, want)
	if err != nil {
		return Header{}, nil, err
	}
	if !h.HasPayloadCRC() {
		return h, p, nil
	}
	if got := CRC(p); got != h.PayloadCRC {
		return Header{}, nil, payloadCRCError(got, h.PayloadCRC)
	}
	return h, p, nil
}

// Verify checks a whole encoding of any variant, every byte of it: Decode's
// checks, and for a Scalable the chain of stages its payload holds after
// the parameter block, each framed as Stage requires and with the payload
// CRC its header records, the stages filling the payload exactly. So a
// stage whose payload no longer matches its own CRC fails even where the
// outer CRC describes the damaged bytes or the outer encoding has none.
// The outer CRC is checked first (FORMAT.md's step 10); the chain's errors
// are the Scalable decoder's (ErrCorrupt wrapping the stage's own error).
// The rest of a Scalable's checks (the parameters, each stage's key hash
// and size) are the decoder's and ScalableView.Reset's. It reads b once,
// and allocates nothing but an error.
func Verify(b []byte) error {
	h, p, err := Frame(b, 0)
	if err != nil {
		return err
	}
	var crc uint32 // of p, when h records one
	var chain error
	switch {
	case h.Variant == Scalable:
		crc, chain = verifyStages(h, p)
	case h.HasPayloadCRC():
		crc = CRC(p)
	}
	if h.HasPayloadCRC() && crc != h.PayloadCRC {
		return payloadCRCError(crc, h.PayloadCRC)
	}
	return chain
}

// verifyStages walks the stages of the Scalable payload p (h its checked
// header) in one read of p: it returns the CRC of p (0 if h records none)
// and the first error of the chain, each stage's payload CRC included. A
// stage's payload CRC is read once and combined into the outer CRC
// (combineCRC), or, for a small one, read twice while in cache, which
// costs less than combining.
func verifyStages(h Header, p []byte) (uint32, error) {
	var crc uint32
	outer := func(b []byte) {
		if h.HasPayloadCRC() {
			crc = UpdateCRC(crc, b)
		}
	}
	outer(p[:ScalableParamBytes])
	rest := p[ScalableParamBytes:]
	err := func() error {
		for i := range h.Blocks { // each stage is 128 bytes or more: at most len(p)/128 turns
			sh, err := Stage(rest, i)
			if err != nil {
				return err
			}
			outer(rest[:HeaderSize])
			sp := rest[HeaderSize:sh.Size()]
			rest = rest[sh.Size():]
			switch {
			case len(sp) < combineMin || !h.HasPayloadCRC():
				outer(sp)
				if sh.HasPayloadCRC() {
					if sc := CRC(sp); sc != sh.PayloadCRC {
						return StageError(i, payloadCRCError(sc, sh.PayloadCRC))
					}
				}
			default:
				sc := CRC(sp)
				crc = combineCRC(crc, sc, uint64(len(sp)))
				if sh.HasPayloadCRC() && sc != sh.PayloadCRC {
					return StageError(i, payloadCRCError(sc, sh.PayloadCRC))
				}
			}
		}
		return StagesEnd(rest)
	}()
	outer(rest) // what the chain's error left unread
	return crc, err
}

// combineMin is the smallest stage payload whose CRC verifyStages combines
// into the outer CRC rather than read twice: combining costs about as much
// as reading a few kilobytes.
const combineMin = 16 << 10

// payloadCRCError is the error of a payload whose CRC-32C is got where its
// header says want.
func payloadCRCError(got, want uint32) error {
	return fmt.Errorf("%w: payload CRC-32C is %#08x, header says %#08x", errs.ErrChecksum, got, want)
}

// Append appends an encoding with header h and its h.PayloadBytes-byte
// payload to dst: fill writes the payload into the slice it is given, then
// the payload CRC is set and the header written. With IncompatNoPayloadCRC
// in h.Incompat the payload CRC is left zero. When dst lacks the room, the
// new array is checked against the memory limits first (alloc.Grow): an
// encoding too large for them returns dst unchanged and an error wrapping
// ErrTooLarge.
func Append(dst []byte, h Header, fill func(p []byte)) ([]byte, error) {
	start := len(dst)
	dst, err := alloc.Grow(dst, HeaderSize+h.PayloadBytes, h.what)
	if err != nil {
		return dst, err
	}
	dst = dst[:start+HeaderSize+int(h.PayloadBytes)]
	p := dst[start+HeaderSize:]
	fill(p)
	h.PayloadCRC = 0
	if h.HasPayloadCRC() {
		h.PayloadCRC = CRC(p)
	}
	h.Put(dst[start:])
	return dst, nil
}

// Write writes an encoding with header h to w: payload yields the payload
// in pieces and is run twice, once for the CRC the header carries and once
// to write, so the payload is never copied whole. h.PayloadBytes must be the
// total length of the pieces. A write that takes fewer bytes than it was
// given stops it with io.ErrShortWrite (WriteFull).
func Write(w io.Writer, h Header, payload iter.Seq[[]byte]) (int64, error) {
	h.PayloadCRC = 0
	for c := range payload {
		if !h.HasPayloadCRC() {
			break
		}
		h.PayloadCRC = UpdateCRC(h.PayloadCRC, c)
	}
	var hb [HeaderSize]byte
	h.Put(hb[:])
	n, err := WriteFull(w, hb[:])
	total := int64(n)
	if err != nil {
		return total, err
	}
	for c := range payload {
		n, err = WriteFull(w, c)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// WriteFull writes p to w in one Write and returns what it wrote. A writer
// that writes fewer bytes than p without saying why breaks io.Writer's
// contract; as io.Copy does, WriteFull then returns io.ErrShortWrite, so a
// caller never reports a whole encoding written when part of it was not.
// A count outside 0..len(p) is an error too, and is clamped.
func WriteFull(w io.Writer, p []byte) (int, error) {
	n, err := w.Write(p)
	if n < 0 || n > len(p) {
		return max(0, min(n, len(p))), fmt.Errorf("invalid write: the writer reports %d bytes written of %d", n, len(p))
	}
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	return n, err
}

// ChunkBytes is how much payload Read reads at a time, and its first buffer.
const ChunkBytes = 1 << 20

// Read reads one encoding (of variant want, unless 0) from r, exactly its
// bytes and no more, and returns its header, its payload (checked against
// the payload CRC) in memory from alloc.Bytes, as a filter's own (64-byte
// aligned, and laid out for huge pages from alloc.HugeFrom bytes), and the
// number of bytes read.
//
// At the clean end of a stream, when r yields no byte at all, Read returns
// io.EOF itself, so a loop reading concatenated encodings ends as Go readers
// do; a stream that ends inside an encoding is Truncated wrapping
// io.ErrUnexpectedEOF.
//
// Memory grows with the bytes that arrive: the payload buffer starts at
// ChunkBytes (or the announced size when r reports, by a Len() int method,
// that it holds that much) and doubles when full, up to the announced size.
func Read(r io.Reader, want Variant) (Header, []byte, int64, error) {
	var hb [HeaderSize]byte
	n, err := io.ReadFull(r, hb[:])
	total := int64(n)
	if err == io.EOF && n == 0 {
		return Header{}, nil, 0, io.EOF
	}
	if err != nil {
		return Header{}, nil, total, truncated(err, "header", total, HeaderSize)
	}
	h, err := Parse(hb[:], want)
	if err != nil {
		return Header{}, nil, total, err
	}
	size := h.PayloadBytes
	initial := min(size, ChunkBytes)
	if lr, ok := r.(interface{ Len() int }); ok {
		if l := lr.Len(); l > 0 && uint64(l) >= size {
			initial = size
		}
	}
	if initial == size {
		if err := CheckMemory(h); err != nil {
			return Header{}, nil, total, err
		}
	}
	mem := buffer(initial, size)
	var got uint64
	var crc uint32
	for got < size {
		if got == uint64(len(mem)) {
			if got == initial && initial < size { // the stream goes on past the first buffer: it must fit whole
				if err := CheckMemory(h); err != nil {
					return Header{}, nil, total, err
				}
			}
			grown := buffer(min(2*got, size), size)
			copy(grown, mem)
			mem = grown
		}
		end := min(uint64(len(mem)), got+ChunkBytes)
		n, err := io.ReadFull(r, mem[got:end])
		crc = UpdateCRC(crc, mem[got:got+uint64(n)])
		got += uint64(n)
		total += int64(n)
		if err != nil {
			return Header{}, nil, total, truncated(err, "payload", int64(got), int64(size))
		}
	}
	if h.HasPayloadCRC() && crc != h.PayloadCRC {
		return Header{}, nil, total, payloadCRCError(crc, h.PayloadCRC)
	}
	return h, mem, total, nil
}

// buffer returns Read's payload buffer of n bytes for a payload of size
// bytes: the payload's own memory, from alloc.Bytes, when it holds all of
// it; else a plain one that only stages the bytes read so far, which
// alloc's huge-page layout would only slow down (the advice drops the
// pages the runtime reuses, to be faulted in again).
func buffer(n, size uint64) []byte {
	if n == size {
		return alloc.Bytes(n)
	}
	return make([]byte, n)
}

// truncated wraps a read error: an early end of stream is Truncated.
func truncated(err error, what string, got, want int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: %s ends after %d of %d bytes: %w", errs.ErrTruncated, what, got, want, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("reading the %s: %w", what, err)
}
