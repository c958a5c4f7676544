package parquet

import (
	"fmt"
	"io"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

// Errors returned by this package, wrapped with the details; test for them
// with errors.Is. They are the values of the same names in packages bloom,
// blocked and cuckoo.
var (
	// ErrKeys means the number of distinct values is zero.
	ErrKeys = errs.ErrKeys
	// ErrFPR means a false-positive rate is outside (0, 1) or NaN.
	ErrFPR = errs.ErrFPR
	// ErrTooLarge means no filter of at most MaxFilterBytes meets the rate.
	ErrTooLarge = errs.ErrTooLarge
	// ErrCorrupt means the BloomFilterHeader is not valid Thrift compact
	// protocol, lacks a required field, or (wrapping ErrGeometry too) gives
	// a bitset size that is not a positive multiple of 32 up to 128 MiB.
	ErrCorrupt = errs.ErrCorrupt
	// ErrVariant means the header names an algorithm or compression other
	// than BLOCK and UNCOMPRESSED.
	ErrVariant = errs.ErrVariant
	// ErrHashMismatch means the header names a hash other than XXHASH.
	ErrHashMismatch = errs.ErrHashMismatch
	// ErrGeometry means a bitset size Parquet readers do not accept: when
	// writing, not a power of two from 32 bytes to 128 MiB.
	ErrGeometry = errs.ErrGeometry
	// ErrTruncated means the input ends inside the header or the bitset; the
	// error also wraps io.ErrUnexpectedEOF.
	ErrTruncated = errs.ErrTruncated
)

// Thrift compact protocol type codes.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
	tUUID   = 13
)

// maxDepth bounds the nesting of structures skipped in a header.
const maxDepth = 32

// AppendHeader appends the Thrift compact encoding of the BloomFilterHeader
// {numBytes, algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED} to b.
// WriteFilter writes it before the bitset.
func AppendHeader(b []byte, numBytes int32) []byte {
	b = append(b, 1<<4|tI32) // field 1: numBytes
	z := uint32(numBytes<<1) ^ uint32(numBytes>>31)
	for z >= 0x80 {
		b = append(b, byte(z)|0x80)
		z >>= 7
	}
	b = append(b, byte(z))
	// Fields 2, 3, 4: each a union whose field 1 is an empty struct.
	for range 3 {
		b = append(b, 1<<4|tStruct, 1<<4|tStruct, tStop, tStop)
	}
	return append(b, tStop)
}

// WriteFilter writes f as Parquet stores it at a column chunk's
// bloom_filter_offset: the BloomFilterHeader, then the bitset. The bitset
// size must be a power of two from 32 bytes to 128 MiB (New's sizes),
// the sizes every Parquet reader accepts; otherwise nothing is written and
// the error wraps ErrGeometry.
func WriteFilter(w io.Writer, f *blocked.SplitBlock) error {
	if f == nil {
		return fmt.Errorf("%w: nil filter", ErrGeometry)
	}
	n := f.SizeBytes()
	if n < MinFilterBytes || n > MaxFilterBytes || n&(n-1) != 0 {
		return fmt.Errorf("%w: %d bytes; Parquet readers require a power of two from %d to %d", ErrGeometry, n, MinFilterBytes, MaxFilterBytes)
	}
	if _, err := format.WriteFull(w, AppendHeader(make([]byte, 0, 32), int32(n))); err != nil {
		return err
	}
	_, err := f.WriteBitset(w)
	return err
}

// ReadFilter reads a BloomFilterHeader and the bitset that follows it, as
// stored at a column chunk's bloom_filter_offset, and returns the filter.
// It reads exactly the header and the bitset, no further (one byte at a time
// for the header unless r is an io.ByteReader, so wrap slow readers in a
// bufio.Reader).
//
// The filter records blocked.HashXXH64 as its key hash, as New's do.
// Unknown header fields are skipped. Other algorithms or compressions fail
// with ErrVariant, other hashes with ErrHashMismatch; a numBytes that is not
// a positive multiple of 32 up to 128 MiB with ErrCorrupt and ErrGeometry;
// malformed Thrift with ErrCorrupt; truncated input with ErrTruncated and
// io.ErrUnexpectedEOF. Memory grows only as
// bitset bytes arrive, so a header that claims more than the input holds
// costs at most about twice the bytes actually present.
func ReadFilter(r io.Reader) (*blocked.SplitBlock, error) {
	d := decoder{r: r}
	if br, ok := r.(io.ByteReader); ok {
		d.br = br
	}
	numBytes, err := d.header()
	if err != nil {
		return nil, err
	}
	bitset, err := d.bitset(numBytes)
	if err != nil {
		return nil, err
	}
	s, err := blocked.SplitBlockFromBitset(bitset)
	if err != nil {
		return nil, err
	}
	s.SetKeyHash(blocked.HashXXH64) // the header said XXHASH (others are ErrHashMismatch)
	return s, nil
}

// decoder reads the Thrift compact protocol from r, counting bytes for errors.
type decoder struct {
	r   io.Reader
	br  io.ByteReader // r, if it is one
	off int64         // bytes consumed
	one [1]byte
}

func (d *decoder) truncated(what string) error {
	return fmt.Errorf("%w: parquet bloom filter header ends in %s at byte %d: %w", ErrTruncated, what, d.off, io.ErrUnexpectedEOF)
}

func (d *decoder) malformed(format string, args ...any) error {
	return fmt.Errorf("%w: parquet bloom filter header: %s at byte %d", ErrCorrupt, fmt.Sprintf(format, args...), d.off)
}

// byte reads one byte of the header.
func (d *decoder) byte() (byte, error) {
	var c byte
	var err error
	if d.br != nil {
		c, err = d.br.ReadByte()
	} else {
		var n int
		n, err = io.ReadFull(d.r, d.one[:])
		if n == 1 {
			err = nil
		}
		c = d.one[0]
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return 0, d.truncated("header")
	}
	if err != nil {
		return 0, err
	}
	d.off++
	return c, nil
}

// uvarint reads an unsigned LEB128 varint of at most bits bits.
func (d *decoder) uvarint(bits uint) (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c, err := d.byte()
		if err != nil {
			return 0, err
		}
		if shift >= bits || (shift+7 > bits && c&0x7f>>(bits-shift) != 0) {
			return 0, d.malformed("varint longer than %d bits", bits)
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
}

// zigzag reads a zigzag varint of at most bits bits (16, 32 or 64).
func (d *decoder) zigzag(bits uint) (int64, error) {
	u, err := d.uvarint(bits)
	return int64(u>>1) ^ -int64(u&1), err
}

// field reads a field header, returning its type and id; typ == tStop ends
// the struct.
func (d *decoder) field(last int16) (typ byte, id int16, err error) {
	c, err := d.byte()
	if err != nil || c == tStop {
		return tStop, 0, err
	}
	typ = c & 0x0f
	if delta := c >> 4; delta != 0 {
		return typ, last + int16(delta), nil
	}
	v, err := d.zigzag(16)
	return typ, int16(v), err
}

// skip reads and discards a value of type typ. inList is true for elements
// of lists, sets and maps, where booleans take one byte.
func (d *decoder) skip(typ byte, inList bool, depth int) error {
	if depth > maxDepth {
		return d.malformed("structures nested deeper than %d", maxDepth)
	}
	switch typ {
	case tTrue, tFalse:
		if inList {
			_, err := d.byte()
			return err
		}
		return nil
	case tByte:
		_, err := d.byte()
		return err
	case tI16, tI32, tI64:
		_, err := d.uvarint(64)
		return err
	case tDouble:
		return d.discard(8)
	case tUUID:
		return d.discard(16)
	case tBinary:
		n, err := d.uvarint(32)
		if err != nil {
			return err
		}
		return d.discard(n)
	case tStruct:
		return d.skipStruct(depth + 1)
	case tList, tSet:
		c, err := d.byte()
		if err != nil {
			return err
		}
		n := uint64(c >> 4)
		if n == 15 {
			if n, err = d.uvarint(32); err != nil {
				return err
			}
		}
		for ; n > 0; n-- {
			if err := d.skip(c&0x0f, true, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := d.uvarint(32)
		if err != nil || n == 0 {
			return err
		}
		kv, err := d.byte()
		if err != nil {
			return err
		}
		for ; n > 0; n-- {
			if err := d.skip(kv>>4, true, depth+1); err != nil {
				return err
			}
			if err := d.skip(kv&0x0f, true, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return d.malformed("unknown Thrift type %d", typ)
}

// skipStruct discards the fields of a struct up to its stop byte.
func (d *decoder) skipStruct(depth int) error {
	var last int16
	for {
		typ, id, err := d.field(last)
		if err != nil || typ == tStop {
			return err
		}
		if err := d.skip(typ, false, depth); err != nil {
			return err
		}
		last = id
	}
}

// discard skips n bytes of the input without allocating them.
func (d *decoder) discard(n uint64) error {
	for ; n > 0; n-- {
		if _, err := d.byte(); err != nil {
			return err
		}
	}
	return nil
}

// union reads a union whose only supported member is field 1, an empty
// struct (BLOCK, XXHASH, UNCOMPRESSED). Unknown fields inside that struct
// are skipped. what names the union for errors.
func (d *decoder) union(what, want string) error {
	found := false
	var last int16
	for {
		typ, id, err := d.field(last)
		if err != nil {
			return err
		}
		if typ == tStop {
			break
		}
		if id != 1 || typ != tStruct {
			unsupported := ErrVariant
			if what == "hash" {
				unsupported = ErrHashMismatch
			}
			return fmt.Errorf("%w: parquet bloom filter %s is field %d of type %d, want %s (field 1)", unsupported, what, id, typ, want)
		}
		if err := d.skipStruct(2); err != nil {
			return err
		}
		found = true
		last = id
	}
	if !found {
		return d.malformed("%s union is empty", what)
	}
	return nil
}

// header reads a BloomFilterHeader and returns its numBytes.
func (d *decoder) header() (int, error) {
	var numBytes int64
	var seen [5]bool
	var last int16
	for {
		typ, id, err := d.field(last)
		if err != nil {
			return 0, err
		}
		if typ == tStop {
			break
		}
		if id < 1 || id > 4 {
			if err := d.skip(typ, false, 1); err != nil {
				return 0, err
			}
			last = id
			continue
		}
		want := byte(tStruct)
		if id == 1 {
			want = tI32
		}
		if typ != want {
			return 0, d.malformed("header field %d has Thrift type %d, want %d", id, typ, want)
		}
		switch id {
		case 1:
			numBytes, err = d.zigzag(32)
		case 2:
			err = d.union("algorithm", "BLOCK")
		case 3:
			err = d.union("hash", "XXHASH")
		case 4:
			err = d.union("compression", "UNCOMPRESSED")
		}
		if err != nil {
			return 0, err
		}
		seen[id] = true
		last = id
	}
	for id, name := range []string{1: "numBytes", 2: "algorithm", 3: "hash", 4: "compression"} {
		if id > 0 && !seen[id] {
			return 0, d.malformed("header lacks required field %d (%s)", id, name)
		}
	}
	if numBytes <= 0 || numBytes%32 != 0 || numBytes > MaxFilterBytes {
		return 0, fmt.Errorf("%w: parquet bloom filter header says %d bytes; want a positive multiple of 32 up to %d", errs.Both(ErrCorrupt, ErrGeometry), numBytes, MaxFilterBytes)
	}
	return int(numBytes), nil
}

// firstChunk is the most ReadFilter allocates before any bitset byte arrives.
const firstChunk = 64 << 10

// bitset reads n bytes, growing the buffer only as data arrives: each
// allocation at most doubles what has been read.
func (d *decoder) bitset(n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, firstChunk))
	for {
		m, err := io.ReadFull(d.r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		d.off += int64(m)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("%w: parquet bloom filter bitset has %d of %d bytes: %w", ErrTruncated, len(buf), n, io.ErrUnexpectedEOF)
		}
		if err != nil {
			return nil, err
		}
		if len(buf) == n {
			return buf, nil
		}
		grown := make([]byte, len(buf), min(n, 2*cap(buf)))
		copy(grown, buf)
		buf = grown
	}
}
