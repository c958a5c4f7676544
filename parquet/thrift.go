package sbparquet

import (
	"fmt"
	"io"
	"math"

	"github.com/simdbloom/bloom/internal/errs"
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

// maxDepth bounds the nesting of structures.
const maxDepth = 32

// compact reads the Thrift compact protocol, the encoding of both Parquet
// structures this package decodes, from one of two inputs:
//
//   - a byte slice holding all of it (newMetadata): a footer's file
//     metadata, read whole before decoding. Every length and count read is
//     checked against the bytes left before anything is allocated for it,
//     so hostile input costs at most memory in proportion to its own
//     length, and input that ends inside a value is corrupt (the footer
//     gave its length).
//   - a reader, one byte at a time (newHeader): a Bloom filter header,
//     which ends where the bitset starts, so that no byte past it may be
//     read. Nothing is allocated for what it reads (strings are skipped,
//     never kept), and input that ends inside a value is truncated.
type compact struct {
	b    []byte        // the input, when it is all in memory
	r    io.ByteReader // else the input, read a byte at a time
	off  int           // bytes read
	what string        // the input, in errors
	end  error         // what input ending inside a value is
}

// newMetadata returns a reader of the file metadata b.
func newMetadata(b []byte) *compact {
	return &compact{b: b, what: "parquet file metadata", end: errs.ErrCorrupt}
}

// newHeader returns a reader of the Bloom filter header at the start of r,
// which it reads one byte at a time.
func newHeader(r io.Reader) *compact {
	br, ok := r.(io.ByteReader)
	if !ok {
		br = &byteReader{r: r}
	}
	return &compact{r: br, what: "parquet bloom filter header", end: errs.ErrTruncated}
}

// byteReader reads an io.Reader one byte at a time.
type byteReader struct {
	r   io.Reader
	one [1]byte
}

func (b *byteReader) ReadByte() (byte, error) {
	n, err := io.ReadFull(b.r, b.one[:])
	if n == 1 {
		return b.one[0], nil
	}
	return 0, err
}

// corrupt returns an bloom.ErrCorrupt error naming the position in the input.
func (c *compact) corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s at byte %d", errs.ErrCorrupt, c.what, fmt.Sprintf(format, args...), c.off)
}

// short reports input that ends inside what: c.end, wrapping
// io.ErrUnexpectedEOF.
func (c *compact) short(what string) error {
	return fmt.Errorf("%w: %s ends inside %s at byte %d: %w", c.end, c.what, what, c.off, io.ErrUnexpectedEOF)
}

// left returns the bytes left of an input in memory, and false for a
// reader's, which are not known.
func (c *compact) left() (int, bool) {
	return len(c.b) - c.off, c.r == nil
}

func (c *compact) byte() (byte, error) {
	if c.r != nil {
		v, err := c.r.ReadByte()
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return 0, c.short("a value")
		}
		if err != nil {
			return 0, err
		}
		c.off++
		return v, nil
	}
	if c.off >= len(c.b) {
		return 0, c.short("a value")
	}
	v := c.b[c.off]
	c.off++
	return v, nil
}

// uvarint reads an unsigned LEB128 varint of at most bits bits.
func (c *compact) uvarint(bits uint) (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		b, err := c.byte()
		if err != nil {
			return 0, err
		}
		if shift >= bits || (shift+7 > bits && b&0x7f>>(bits-shift) != 0) {
			return 0, c.corrupt("varint longer than %d bits", bits)
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
}

// zigzag reads a zigzag varint of at most bits bits (16, 32 or 64).
func (c *compact) zigzag(bits uint) (int64, error) {
	u, err := c.uvarint(bits)
	return int64(u>>1) ^ -int64(u&1), err
}

// field reads a field header and returns its type and id; typ == tStop ends
// the struct. last is the id of the previous field (header deltas).
func (c *compact) field(last int16) (typ byte, id int16, err error) {
	b, err := c.byte()
	if err != nil || b == tStop {
		return tStop, 0, err
	}
	typ = b & 0x0f
	if delta := b >> 4; delta != 0 {
		return typ, last + int16(delta), nil
	}
	v, err := c.zigzag(16)
	return typ, int16(v), err
}

// list reads a list (or set) header: the element type and the count, which
// is at most the bytes left (every element takes at least one byte).
func (c *compact) list() (elem byte, n int, err error) {
	b, err := c.byte()
	if err != nil {
		return 0, 0, err
	}
	elem, u := b&0x0f, uint64(b>>4)
	if u == 15 {
		if u, err = c.uvarint(32); err != nil {
			return 0, 0, err
		}
	}
	if left, known := c.left(); known && u > uint64(left) {
		return 0, 0, c.corrupt("list of %d elements in %d bytes", u, left)
	}
	return elem, int(u), nil
}

// binary reads a binary or string value, returning a slice of the input.
// Only an input in memory (newMetadata) keeps its strings.
func (c *compact) binary() ([]byte, error) {
	if c.r != nil {
		panic("sbparquet: compact.binary on a streamed input")
	}
	n, err := c.uvarint(32)
	if err != nil {
		return nil, err
	}
	if n > uint64(len(c.b)-c.off) {
		return nil, c.short(fmt.Sprintf("a string of %d bytes", n))
	}
	v := c.b[c.off : c.off+int(n)]
	c.off += int(n)
	return v, nil
}

// i32 reads an i32 field value.
func (c *compact) i32() (int32, error) {
	v, err := c.zigzag(32)
	return int32(v), err
}

// i64 reads an i64 field value.
func (c *compact) i64() (int64, error) {
	return c.zigzag(64)
}

// skip reads and discards a value of type typ. inList is true for elements
// of lists, sets and maps, where booleans take one byte. depth counts the
// structures and containers around the value.
func (c *compact) skip(typ byte, inList bool, depth int) error {
	if depth > maxDepth {
		return c.corrupt("structures nested deeper than %d", maxDepth)
	}
	switch typ {
	case tTrue, tFalse:
		if inList {
			_, err := c.byte()
			return err
		}
		return nil
	case tByte:
		_, err := c.byte()
		return err
	case tI16, tI32, tI64:
		_, err := c.uvarint(64)
		return err
	case tDouble:
		return c.discard(8)
	case tUUID:
		return c.discard(16)
	case tBinary:
		n, err := c.uvarint(32)
		if err != nil {
			return err
		}
		return c.discard(n)
	case tStruct:
		return c.skipStruct(depth + 1)
	case tList, tSet:
		elem, n, err := c.list()
		if err != nil {
			return err
		}
		for ; n > 0; n-- {
			if err := c.skip(elem, true, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := c.uvarint(32)
		if err != nil || n == 0 {
			return err
		}
		if left, known := c.left(); known && n > uint64(left) {
			return c.corrupt("map of %d entries in %d bytes", n, left)
		}
		kv, err := c.byte()
		if err != nil {
			return err
		}
		for ; n > 0; n-- {
			if err := c.skip(kv>>4, true, depth+1); err != nil {
				return err
			}
			if err := c.skip(kv&0x0f, true, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return c.corrupt("unknown Thrift type %d", typ)
}

// skipStruct discards the fields of a struct up to its stop byte.
func (c *compact) skipStruct(depth int) error {
	return c.fields(depth, func(typ byte, id int16) (bool, error) { return false, nil })
}

// fields reads the fields of a struct up to its stop byte. For each field
// it calls fn with the field's type and id; fn reads the value and returns
// true, or returns false to have the value skipped.
func (c *compact) fields(depth int, fn func(typ byte, id int16) (bool, error)) error {
	if depth > maxDepth {
		return c.corrupt("structures nested deeper than %d", maxDepth)
	}
	var last int16
	for {
		typ, id, err := c.field(last)
		if err != nil || typ == tStop {
			return err
		}
		read, err := fn(typ, id)
		if err != nil {
			return err
		}
		if !read {
			if err := c.skip(typ, false, depth); err != nil {
				return err
			}
		}
		last = id
	}
}

// discard skips n bytes, without allocating them.
func (c *compact) discard(n uint64) error {
	if c.r != nil {
		for ; n > 0; n-- {
			if _, err := c.byte(); err != nil {
				return err
			}
		}
		return nil
	}
	if n > uint64(len(c.b)-c.off) {
		c.off = len(c.b)
		return c.short("a value")
	}
	c.off += int(n)
	return nil
}

// want checks that a known field has the Thrift type its definition gives.
func (c *compact) want(what string, typ, want byte) error {
	if typ != want {
		return c.corrupt("%s has Thrift type %d, want %d", what, typ, want)
	}
	return nil
}

// int32In returns v if it fits an int32 in [lo, hi], else an error.
func (c *compact) int32In(what string, v int64, lo, hi int64) (int32, error) {
	if v < lo || v > hi || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, c.corrupt("%s is %d, want %d to %d", what, v, lo, hi)
	}
	return int32(v), nil
}
