package blocked

import (
	"fmt"
	"io"

	"github.com/simdbloom/bloom/internal/errs"
)

// Encoding of Filter, SplitBlock and Counting in the binary format of
// FORMAT.md: a 64-byte header (magic, version, variant, k, number of blocks,
// key-hash identifier, flags, CRC-32C of the payload and of the header), then
// the blocks with every word little-endian, on every platform.
//
// Every filter records the function that hashed its keys (KeyHash,
// SetKeyHash; HashUnspecified unless set). MarshalBinary, AppendBinary and
// WriteTo write it; UnmarshalBinary, ReadFrom and the views restore it from
// the header, accepting any id: check KeyHash when it
// matters, as the typed package bloom does. Filter and Counting record their
// key family (KeyFamily, SetKeyFamily) the same way, in the header's
// compatible flags; a SplitBlock records none.
//
// MarshalBinary, and AppendBinary when b lacks the room, allocate the whole
// encoding: one larger than this process can allocate (the limits MaxBlocks
// lists) is an error wrapping bloom.ErrTooLarge, and AppendBinary then
// returns b unchanged. WriteTo allocates nothing of the filter's size.
// Decoded filters get their memory as New's do: at a 64-byte boundary, and
// from 8 MiB at a 2 MiB one, advised on Linux for transparent huge pages
// (PERF.md, "Huge pages").
//
// Decoding checks everything before it allocates: a header that announces
// more payload than the input holds is bloom.ErrTruncated, and ReadFrom's memory
// grows with the bytes actually read. On error the receiver is unchanged.
// ReadFrom at the clean end of a stream (no byte read) returns 0, io.EOF, so
// concatenated encodings are read in a loop until io.EOF.

// errZeroEncode is the error of encoding a zero filter (one with no blocks):
// the format has no encoding for it.
func errZeroEncode(typ string) error {
	return fmt.Errorf("%w: a zero %s has no blocks to encode", errs.ErrGeometry, typ)
}

// combinedHash returns the key hash of a filter combined (Union, Intersect)
// from filters with ids a and b: two different known ids cannot be combined
// (bloom.ErrHashMismatch: the bits would mean nothing under either hash), and
// HashUnspecified combines with anything, taking the other's id.
func combinedHash(a, b HashID) (HashID, error) {
	switch {
	case a == b || b == HashUnspecified:
		return a, nil
	case a == HashUnspecified:
		return b, nil
	}
	return a, fmt.Errorf("%w: cannot combine a filter of key hash %v with one of %v", errs.ErrHashMismatch, a, b)
}

// combinedKeys returns the key family of a filter combined from filters of
// families a and b, as combinedHash does for key hashes: two different
// recorded families cannot be combined, KeysUnrecorded takes the other's.
func combinedKeys(a, b KeyFamily) (KeyFamily, error) {
	switch {
	case a == b || b == KeysUnrecorded:
		return a, nil
	case a == KeysUnrecorded:
		return b, nil
	}
	return a, fmt.Errorf("%w: cannot combine a filter of %v keys with one of %v keys", errs.ErrHashMismatch, a, b)
}

// KeyHash returns the identifier of the function that hashed f's keys, as
// recorded by SetKeyHash or read from an encoding; HashUnspecified by default.
func (f *Filter) KeyHash() HashID { return f.hash }

// SetKeyHash records id as the function that hashes f's keys; encodings of f
// carry it, so a reader can refuse hashes of another function. It changes
// no bits.
func (f *Filter) SetKeyHash(id HashID) { f.hash = id }

// KeyFamily returns what f's keys were before hashing, as recorded by
// SetKeyFamily or read from an encoding; KeysUnrecorded by default.
func (f *Filter) KeyFamily() KeyFamily { return f.keys }

// SetKeyFamily records what f's keys are (the typed package bloom records
// its key type's family); encodings of f carry it, so that a reader of the
// other family can refuse it. It changes no bits.
func (f *Filter) SetKeyFamily(k KeyFamily) { f.keys = k }

// mem returns the filter's memory as bytes.
func (f *Filter) mem() []byte { return bytesOf(f.blocks) }

// MarshalBinary returns the encoding of f, with its key hash (KeyHash). A
// zero Filter has no encoding: an error wrapping bloom.ErrGeometry; one too
// large for memory is bloom.ErrTooLarge.
func (f *Filter) MarshalBinary() ([]byte, error) { return f.AppendBinary(nil) }

// AppendBinary appends the encoding of f, with its key hash, to b. For a
// zero Filter it returns b unchanged and an error wrapping bloom.ErrGeometry,
// and for an encoding too large for memory when b lacks the room, b
// unchanged and bloom.ErrTooLarge.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	if len(f.blocks) == 0 {
		return b, errZeroEncode("Filter")
	}
	return appendEncoded(b, variantFilter, f.k, f.hash, f.keys, f.mem())
}

// WriteTo writes the encoding of f, with its key hash, to w, the payload
// straight from the filter's memory in 1 MiB writes (no copy on
// little-endian machines, a 1 MiB buffer on big-endian ones). It reads the
// filter twice: once for the checksum, which the header carries, then to write.
// For a zero Filter it writes nothing and returns an error wrapping bloom.ErrGeometry.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	if len(f.blocks) == 0 {
		return 0, errZeroEncode("Filter")
	}
	return writeEncoded(w, variantFilter, f.k, f.hash, f.keys, f.mem())
}

// UnmarshalBinary replaces f with the filter encoded in b, which must be
// exactly one encoding of a Filter, key hash included. It copies b; see View
// to use b in place.
func (f *Filter) UnmarshalBinary(b []byte) error {
	h, mem, err := decodeCopy(b, variantFilter)
	if err != nil {
		return err
	}
	f.blocks, f.k, f.hash, f.keys = blocksOver[block](mem), h.K, h.Hash, h.Keys
	return nil
}

// ReadFrom replaces f with the Filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read. At the end of r
// (no byte read) it returns 0, io.EOF; an encoding cut short is bloom.ErrTruncated.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	h, mem, n, err := readEncoded(r, variantFilter)
	if err != nil {
		return n, err
	}
	f.blocks, f.k, f.hash, f.keys = blocksOver[block](mem), h.K, h.Hash, h.Keys
	return n, nil
}

// KeyHash returns the identifier of the function that hashed s's keys
// (HashXXH64 for filters of package sbparquet); HashUnspecified by default.
func (s *SplitBlock) KeyHash() HashID { return s.hash }

// SetKeyHash records id as the function that hashes s's keys, as
// Filter.SetKeyHash does.
func (s *SplitBlock) SetKeyHash(id HashID) { s.hash = id }

// KeyFamily returns what s's keys were before hashing, as
// Filter.KeyFamily does (KeysUnrecorded by default).
func (s *SplitBlock) KeyFamily() KeyFamily { return s.keys }

// SetKeyFamily records what s's keys are, as Filter.SetKeyFamily does.
func (s *SplitBlock) SetKeyFamily(k KeyFamily) { s.keys = k }

// MarshalBinary returns the encoding of s, with its key hash. The payload is
// the Parquet bitset. A zero SplitBlock has no encoding: an error wrapping
// bloom.ErrGeometry; one too large for memory is bloom.ErrTooLarge.
func (s *SplitBlock) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// AppendBinary appends the encoding of s, with its key hash, to b, as
// Filter.AppendBinary does (b unchanged and bloom.ErrGeometry for a zero
// SplitBlock, bloom.ErrTooLarge for an encoding too large for memory).
func (s *SplitBlock) AppendBinary(b []byte) ([]byte, error) {
	if len(s.blocks) == 0 {
		return b, errZeroEncode("SplitBlock")
	}
	return appendEncoded(b, variantSplitBlock, 8, s.hash, s.keys, s.bytes())
}

// WriteTo writes the encoding of s, with its key hash, to w, as
// Filter.WriteTo does (an error wrapping bloom.ErrGeometry for a zero SplitBlock).
// Bitset gives the bare Parquet bitset instead.
func (s *SplitBlock) WriteTo(w io.Writer) (int64, error) {
	if len(s.blocks) == 0 {
		return 0, errZeroEncode("SplitBlock")
	}
	return writeEncoded(w, variantSplitBlock, 8, s.hash, s.keys, s.bytes())
}

// UnmarshalBinary replaces s with the SplitBlock encoded in b, which must be
// exactly one encoding of a SplitBlock, key hash included. It copies b.
func (s *SplitBlock) UnmarshalBinary(b []byte) error {
	h, mem, err := decodeCopy(b, variantSplitBlock)
	if err != nil {
		return err
	}
	s.blocks, s.hash, s.keys = blocksOver[splitBlock](mem), h.Hash, h.Keys
	return nil
}

// ReadFrom replaces s with the SplitBlock encoded (as WriteTo writes it)
// at the start of r, reading exactly its bytes, and returns the number of
// bytes read; memory grows with the bytes read, and the end of r is
// io.EOF, as in Filter.ReadFrom.
func (s *SplitBlock) ReadFrom(r io.Reader) (int64, error) {
	h, mem, n, err := readEncoded(r, variantSplitBlock)
	if err != nil {
		return n, err
	}
	s.blocks, s.hash, s.keys = blocksOver[splitBlock](mem), h.Hash, h.Keys
	return n, nil
}

// KeyHash returns the identifier of the function that hashed c's keys;
// HashUnspecified by default.
func (c *Counting) KeyHash() HashID { return c.hash }

// SetKeyHash records id as the function that hashes c's keys, as
// Filter.SetKeyHash does.
func (c *Counting) SetKeyHash(id HashID) { c.hash = id }

// KeyFamily returns what c's keys were before hashing, as
// Filter.KeyFamily does.
func (c *Counting) KeyFamily() KeyFamily { return c.keys }

// SetKeyFamily records what c's keys are, as Filter.SetKeyFamily does.
func (c *Counting) SetKeyFamily(k KeyFamily) { c.keys = k }

// mem returns the counters' memory as bytes.
func (c *Counting) mem() []byte { return bytesOf(c.blocks) }

// MarshalBinary returns the encoding of c, with its key hash. A zero
// Counting has no encoding: an error wrapping bloom.ErrGeometry; one too
// large for memory is bloom.ErrTooLarge.
func (c *Counting) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the encoding of c, with its key hash, to b, as
// Filter.AppendBinary does (b unchanged and bloom.ErrGeometry for a zero
// Counting, bloom.ErrTooLarge for an encoding too large for memory).
func (c *Counting) AppendBinary(b []byte) ([]byte, error) {
	if len(c.blocks) == 0 {
		return b, errZeroEncode("Counting")
	}
	return appendEncoded(b, variantCounting, 8, c.hash, c.keys, c.mem())
}

// WriteTo writes the encoding of c, with its key hash, to w, as
// Filter.WriteTo does (an error wrapping bloom.ErrGeometry for a zero Counting).
func (c *Counting) WriteTo(w io.Writer) (int64, error) {
	if len(c.blocks) == 0 {
		return 0, errZeroEncode("Counting")
	}
	return writeEncoded(w, variantCounting, 8, c.hash, c.keys, c.mem())
}

// UnmarshalBinary replaces c with the Counting filter encoded in b, which
// must be exactly one encoding of a Counting filter, key hash included. It
// copies b.
func (c *Counting) UnmarshalBinary(b []byte) error {
	h, mem, err := decodeCopy(b, variantCounting)
	if err != nil {
		return err
	}
	c.blocks, c.hash, c.keys = blocksOver[block](mem), h.Hash, h.Keys
	return nil
}

// ReadFrom replaces c with the Counting filter encoded at the start of r,
// reading exactly its bytes, and returns the number of bytes read; the end
// of r is io.EOF, as in Filter.ReadFrom.
func (c *Counting) ReadFrom(r io.Reader) (int64, error) {
	h, mem, n, err := readEncoded(r, variantCounting)
	if err != nil {
		return n, err
	}
	c.blocks, c.hash, c.keys = blocksOver[block](mem), h.Hash, h.Keys
	return n, nil
}
