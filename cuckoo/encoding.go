package cuckoo

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

// Encoding of a Filter in the binary format of FORMAT.md, variant 4: the
// 64-byte header (k = fingerprint bits, blocks = buckets, the table layout
// in the parameter bytes), then a 32-byte prefix (planned keys, stored
// fingerprints, the victim generator's state, a zero word) and the table,
// the buckets' bits one after the other, little-endian. A decoded filter
// continues exactly as the encoded one would have: same answers, same
// table after the same adds.

// KeyHash returns the identifier of the function that hashed f's keys, as
// recorded by SetKeyHash or read from an encoding: blocked.HashXXH3 for the
// filters of bloom.NewCuckoo, blocked.HashUnspecified by default.
func (f *Filter) KeyHash() blocked.HashID { return f.hash }

// SetKeyHash records id as the function that hashes f's keys; encodings of f
// carry it, so a reader can refuse hashes of another function.
func (f *Filter) SetKeyHash(id blocked.HashID) { f.hash = id }

// KeyFamily returns what f's keys were before hashing, as recorded by
// SetKeyFamily or read from an encoding: the key type's family for the
// filters of bloom.NewCuckoo, blocked.KeysUnrecorded by default.
func (f *Filter) KeyFamily() blocked.KeyFamily { return f.keys }

// SetKeyFamily records what f's keys are; encodings of f carry it (in the
// header's compatible flags), so that a reader of the other family can
// refuse it. It changes no bits.
func (f *Filter) SetKeyFamily(k blocked.KeyFamily) { f.keys = k }

// table returns the buckets' bytes, without the padding.
func (f *Filter) table() []byte {
	if len(f.data) < 8 {
		return nil
	}
	return f.data[:len(f.data)-8]
}

// formatLayout returns the layout byte of the format for l.
func formatLayout(l Layout) uint8 {
	if l == SemiSorted {
		return format.CuckooLayoutSemiSorted
	}
	return format.CuckooLayoutPlain
}

// header returns the framing header of f; the payload CRC is left to the framing.
func (f *Filter) header() (format.Header, error) {
	if f.data == nil {
		return format.Header{}, fmt.Errorf("%w: cannot encode a zero Filter; use cuckoo.New", errs.ErrGeometry)
	}
	return format.Header{
		Version:      format.Version,
		Variant:      format.Cuckoo,
		K:            uint8(f.fpBits),
		Blocks:       f.NumBuckets(),
		Hash:         uint8(f.hash),
		Params:       [7]byte{formatLayout(f.layout), format.CuckooSlots},
		PayloadBytes: format.CuckooPrefixBytes + uint64(len(f.table())),
		Compat:       uint32(f.keys) & format.CompatKeyMask,
	}, nil
}

// prefix returns the payload's first bytes: planned, count, rng, zero.
func (f *Filter) prefix() []byte {
	p := make([]byte, format.CuckooPrefixBytes)
	binary.LittleEndian.PutUint64(p[0:], f.planned)
	binary.LittleEndian.PutUint64(p[8:], f.count)
	binary.LittleEndian.PutUint64(p[16:], f.rng)
	return p
}

// MarshalBinary returns the encoding of f, with its key hash (KeyHash). It
// returns an error wrapping bloom.ErrGeometry for a zero Filter, and one
// wrapping bloom.ErrTooLarge for an encoding larger than this process can
// allocate (its memory and limits, as New checks them).
func (f *Filter) MarshalBinary() ([]byte, error) { return f.AppendBinary(nil) }

// AppendBinary appends the encoding of f, with its key hash, to b. On
// error (those of MarshalBinary; bloom.ErrTooLarge only when b lacks the
// room) it returns b unchanged.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	h, err := f.header()
	if err != nil {
		return b, err
	}
	return format.Append(b, h, func(p []byte) {
		copy(p, f.prefix())
		copy(p[format.CuckooPrefixBytes:], f.table())
	})
}

// WriteTo writes the encoding of f, with its key hash, to w, the table
// straight from the filter's memory, and returns the number of bytes
// written.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	h, err := f.header()
	if err != nil {
		return 0, err
	}
	return format.Write(w, h, func(yield func([]byte) bool) {
		if !yield(f.prefix()) {
			return
		}
		t := f.table()
		for off := 0; off < len(t); off += format.ChunkBytes {
			if !yield(t[off:min(off+format.ChunkBytes, len(t))]) {
				return
			}
		}
	})
}

// UnmarshalBinary replaces f with the filter encoded in b, which must be
// exactly one encoding of a cuckoo Filter, key hash included. On error f is
// unchanged. It copies b.
func (f *Filter) UnmarshalBinary(b []byte) error {
	h, p, err := format.Decode(b, format.Cuckoo)
	if err != nil {
		return err
	}
	g, err := decode(h, p)
	if err != nil {
		return err
	}
	*f = *g
	return nil
}

// ReadFrom replaces f with the Filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read. On error f is
// unchanged. Memory grows with the bytes read, whatever the header
// announces. At the end of r (no byte read) it returns 0, io.EOF, so
// concatenated encodings are read in a loop until io.EOF.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	h, p, n, err := format.Read(r, format.Cuckoo)
	if err != nil {
		return n, err
	}
	g, err := decode(h, p)
	if err != nil {
		return n, err
	}
	*f = *g
	return n, nil
}

// decode builds a filter from a checked header and its payload (length
// and CRC checked), after checking what the framing cannot: the prefix's
// planned keys (at least 1), generator state (not zero) and zero word; that
// every semi-sorted bucket holds a valid code and its fingerprints in
// ascending order; that the bits after the last bucket are zero; and that
// the stored count is the number of occupied slots in the table.
func decode(h format.Header, p []byte) (*Filter, error) {
	planned := binary.LittleEndian.Uint64(p[0:])
	count := binary.LittleEndian.Uint64(p[8:])
	rng := binary.LittleEndian.Uint64(p[16:])
	switch {
	case binary.LittleEndian.Uint64(p[24:]) != 0:
		return nil, fmt.Errorf("%w: reserved cuckoo payload word is not zero", errs.ErrCorrupt)
	case planned == 0:
		return nil, fmt.Errorf("%w: planned for 0 keys", errs.ErrCorrupt)
	case rng == 0:
		return nil, fmt.Errorf("%w: victim generator state is zero", errs.ErrCorrupt)
	}
	l := Plain
	if h.Params[0] == format.CuckooLayoutSemiSorted {
		l = SemiSorted
	}
	if h.Blocks > platformBuckets(int(h.K), l) {
		return nil, fmt.Errorf("%w: %d buckets of %d-bit fingerprints is more than this platform can allocate", errs.Both(errs.ErrCorrupt, errs.ErrTooLarge), h.Blocks, h.K)
	}
	if err := format.CheckMemory(h); err != nil {
		return nil, err
	}
	g := newFilter(h.Blocks, int(h.K), l)
	copy(g.data, p[format.CuckooPrefixBytes:])
	used := g.nb * g.bBits
	if end := uint64(len(g.table())) * 8; used < end && g.getBits(used, uint(end-used)) != 0 {
		return nil, fmt.Errorf("%w: bits after the last bucket are not zero", errs.ErrCorrupt)
	}
	var n uint64
	for i := range g.nb {
		if l == SemiSorted && g.getBits(i*g.bBits, codeBits) >= numCodes {
			return nil, fmt.Errorf("%w: bucket %d: nibble code %d is not below %d", errs.ErrCorrupt, i, g.getBits(i*g.bBits, codeBits), numCodes)
		}
		s := g.slots(i)
		for j, v := range s {
			n += b2u(v != 0)
			if l == SemiSorted && j > 0 && v < s[j-1] {
				return nil, fmt.Errorf("%w: bucket %d of a semi-sorted table is not sorted", errs.ErrCorrupt, i)
			}
		}
	}
	if n != count {
		return nil, fmt.Errorf("%w: the header counts %s, the table holds %d", errs.ErrCorrupt, errs.Count(count, "fingerprint"), n)
	}
	g.planned, g.count, g.rng, g.hash = planned, count, rng, blocked.HashID(h.Hash)
	g.keys = blocked.KeyFamily(h.Compat & format.CompatKeyMask)
	return g, nil
}
