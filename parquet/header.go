package sbparquet

import (
	"fmt"
	"io"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

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
// the error wraps bloom.ErrGeometry.
func WriteFilter(w io.Writer, f *blocked.SplitBlock) error {
	if f == nil {
		return fmt.Errorf("%w: nil filter", errs.ErrGeometry)
	}
	n := (f.NumBits() / 8)
	if n < MinFilterBytes || n > MaxFilterBytes || n&(n-1) != 0 {
		return fmt.Errorf("%w: %d bytes; Parquet readers require a power of two from %d to %d", errs.ErrGeometry, n, MinFilterBytes, MaxFilterBytes)
	}
	if _, err := format.WriteFull(w, AppendHeader(make([]byte, 0, 32), int32(n))); err != nil {
		return err
	}
	_, err := format.WriteFull(w, f.Bitset())
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
// with bloom.ErrVariant, other hashes with bloom.ErrHashMismatch; a numBytes that is not
// a positive multiple of 32 up to 128 MiB with bloom.ErrCorrupt and bloom.ErrGeometry;
// malformed Thrift with bloom.ErrCorrupt; truncated input with bloom.ErrTruncated and
// io.ErrUnexpectedEOF. Memory grows only as
// bitset bytes arrive, so a header that claims more than the input holds
// costs at most about twice the bytes actually present.
func ReadFilter(r io.Reader) (*blocked.SplitBlock, error) {
	numBytes, err := newHeader(r).header()
	if err != nil {
		return nil, err
	}
	bitset, err := readBitset(r, numBytes)
	if err != nil {
		return nil, err
	}
	s, err := blocked.SplitBlockFromBitset(bitset)
	if err != nil {
		return nil, err
	}
	s.SetKeyHash(blocked.HashXXH64) // the header said XXHASH (others are errs.ErrHashMismatch)
	return s, nil
}

// union reads a union whose only supported member is field 1, an empty
// struct (BLOCK, XXHASH, UNCOMPRESSED). Unknown fields inside that struct
// are skipped. what names the union for errors.
func (c *compact) union(what, want string, depth int) error {
	found := false
	err := c.fields(depth, func(typ byte, id int16) (bool, error) {
		if id != 1 || typ != tStruct {
			unsupported := errs.ErrVariant
			if what == "hash" {
				unsupported = errs.ErrHashMismatch
			}
			return false, fmt.Errorf("%w: parquet bloom filter %s is field %d of type %d, want %s (field 1)", unsupported, what, id, typ, want)
		}
		found = true
		return true, c.skipStruct(depth + 1)
	})
	if err == nil && !found {
		err = c.corrupt("%s union is empty", what)
	}
	return err
}

// header reads a BloomFilterHeader and returns its numBytes.
func (c *compact) header() (int, error) {
	var numBytes int64
	var seen [5]bool
	err := c.fields(1, func(typ byte, id int16) (bool, error) {
		if id < 1 || id > 4 {
			return false, nil
		}
		want := byte(tStruct)
		if id == 1 {
			want = tI32
		}
		err := c.want(fmt.Sprintf("header field %d", id), typ, want)
		if err != nil {
			return false, err
		}
		switch id {
		case 1:
			numBytes, err = c.zigzag(32)
		case 2:
			err = c.union("algorithm", "BLOCK", 2)
		case 3:
			err = c.union("hash", "XXHASH", 2)
		case 4:
			err = c.union("compression", "UNCOMPRESSED", 2)
		}
		seen[id] = true
		return true, err
	})
	if err != nil {
		return 0, err
	}
	for id, name := range []string{1: "numBytes", 2: "algorithm", 3: "hash", 4: "compression"} {
		if id > 0 && !seen[id] {
			return 0, c.corrupt("header lacks required field %d (%s)", id, name)
		}
	}
	if numBytes <= 0 || numBytes%32 != 0 || numBytes > MaxFilterBytes {
		return 0, fmt.Errorf("%w: parquet bloom filter header says %d bytes; want a positive multiple of 32 up to %d", errs.Both(errs.ErrCorrupt, errs.ErrGeometry), numBytes, MaxFilterBytes)
	}
	return int(numBytes), nil
}

// firstChunk is the most ReadFilter allocates before any bitset byte arrives.
const firstChunk = 64 << 10

// readBitset reads the n bytes of a bitset from r, growing the buffer only
// as data arrives: each allocation at most doubles what has been read.
func readBitset(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, firstChunk))
	for {
		m, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("%w: parquet bloom filter bitset has %d of %d bytes: %w", errs.ErrTruncated, len(buf), n, io.ErrUnexpectedEOF)
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
