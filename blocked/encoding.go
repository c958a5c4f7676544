package blocked

import "io"

// Encoding of Filter, SplitBlock and Counting in the binary format of
// FORMAT.md: a 64-byte header (magic, version, variant, k, number of blocks,
// key-hash identifier, CRC-32C of the payload and of the header), then the
// blocks with every word little-endian, on every platform.
//
// MarshalBinary, AppendBinary and WriteTo record the key hash as
// HashUnspecified; MarshalBinaryHash and WriteToHash record the one given.
// UnmarshalBinary and ReadFrom accept any key hash: read it first with
// ParseHeader when it matters (the typed package bloom does).
//
// Decoding checks everything before it allocates: a header that announces
// more payload than the input holds is ErrTruncated, and ReadFrom's memory
// grows with the bytes actually read. On error the receiver is unchanged.

// mem returns the filter's memory as bytes.
func (f *Filter) mem() []byte { return bytesOf(f.blocks) }

// MarshalBinary returns the encoding of f (key hash HashUnspecified).
func (f *Filter) MarshalBinary() ([]byte, error) { return f.AppendBinary(nil) }

// AppendBinary appends the encoding of f (key hash HashUnspecified) to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	return appendEncoded(b, VariantFilter, f.k, HashUnspecified, f.mem()), nil
}

// MarshalBinaryHash returns the encoding of f recording the key hash id.
func (f *Filter) MarshalBinaryHash(id HashID) ([]byte, error) {
	return appendEncoded(nil, VariantFilter, f.k, id, f.mem()), nil
}

// WriteTo writes the encoding of f (key hash HashUnspecified) to w, the
// payload straight from the filter's memory in 1 MiB writes (no copy on
// little-endian machines, a 1 MiB buffer on big-endian ones). It reads the
// filter twice: once for the checksum, which the header carries, then to write.
func (f *Filter) WriteTo(w io.Writer) (int64, error) { return f.WriteToHash(w, HashUnspecified) }

// WriteToHash is WriteTo recording the key hash id.
func (f *Filter) WriteToHash(w io.Writer, id HashID) (int64, error) {
	return writeEncoded(w, VariantFilter, f.k, id, f.mem())
}

// UnmarshalBinary replaces f with the filter encoded in b, which must be
// exactly one encoding of a Filter. It copies b; see View to use b in place.
func (f *Filter) UnmarshalBinary(b []byte) error {
	h, mem, err := decodeCopy(b, VariantFilter)
	if err != nil {
		return err
	}
	f.blocks, f.k = blocksOver[block](mem), h.K
	return nil
}

// ReadFrom replaces f with the Filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	h, mem, n, err := readEncoded(r, VariantFilter)
	if err != nil {
		return n, err
	}
	f.blocks, f.k = blocksOver[block](mem), h.K
	return n, nil
}

// MarshalBinary returns the encoding of s (key hash HashUnspecified). The
// payload is the Parquet bitset.
func (s *SplitBlock) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// AppendBinary appends the encoding of s (key hash HashUnspecified) to b.
func (s *SplitBlock) AppendBinary(b []byte) ([]byte, error) {
	return appendEncoded(b, VariantSplitBlock, 8, HashUnspecified, s.bytes()), nil
}

// MarshalBinaryHash returns the encoding of s recording the key hash id
// (HashXXH64 for hashes computed as Parquet does).
func (s *SplitBlock) MarshalBinaryHash(id HashID) ([]byte, error) {
	return appendEncoded(nil, VariantSplitBlock, 8, id, s.bytes()), nil
}

// WriteTo writes the encoding of s (key hash HashUnspecified) to w, as
// Filter.WriteTo does. WriteBitset writes the bare Parquet bitset instead.
func (s *SplitBlock) WriteTo(w io.Writer) (int64, error) {
	return s.WriteToHash(w, HashUnspecified)
}

// WriteToHash writes the encoding of s recording the key hash id to w, the
// payload in 1 MiB writes straight from the filter's memory, as
// Filter.WriteToHash does.
func (s *SplitBlock) WriteToHash(w io.Writer, id HashID) (int64, error) {
	return writeEncoded(w, VariantSplitBlock, 8, id, s.bytes())
}

// UnmarshalBinary replaces s with the SplitBlock encoded in b, which must be
// exactly one encoding of a SplitBlock. It copies b.
func (s *SplitBlock) UnmarshalBinary(b []byte) error {
	_, mem, err := decodeCopy(b, VariantSplitBlock)
	if err != nil {
		return err
	}
	s.blocks = blocksOver[splitBlock](mem)
	return nil
}

// ReadFrom replaces s with the SplitBlock encoded (as WriteTo writes it)
// at the start of r, reading exactly its bytes, and returns the number of
// bytes read; memory grows with the bytes read, as in Filter.ReadFrom.
func (s *SplitBlock) ReadFrom(r io.Reader) (int64, error) {
	_, mem, n, err := readEncoded(r, VariantSplitBlock)
	if err != nil {
		return n, err
	}
	s.blocks = blocksOver[splitBlock](mem)
	return n, nil
}

// mem returns the counters' memory as bytes.
func (c *Counting) mem() []byte { return bytesOf(c.blocks) }

// MarshalBinary returns the encoding of c (key hash HashUnspecified).
func (c *Counting) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the encoding of c (key hash HashUnspecified) to b.
func (c *Counting) AppendBinary(b []byte) ([]byte, error) {
	return appendEncoded(b, VariantCounting, 8, HashUnspecified, c.mem()), nil
}

// MarshalBinaryHash returns the encoding of c recording the key hash id.
func (c *Counting) MarshalBinaryHash(id HashID) ([]byte, error) {
	return appendEncoded(nil, VariantCounting, 8, id, c.mem()), nil
}

// WriteTo writes the encoding of c (key hash HashUnspecified) to w, as
// Filter.WriteTo does.
func (c *Counting) WriteTo(w io.Writer) (int64, error) { return c.WriteToHash(w, HashUnspecified) }

// WriteToHash is WriteTo recording the key hash id.
func (c *Counting) WriteToHash(w io.Writer, id HashID) (int64, error) {
	return writeEncoded(w, VariantCounting, 8, id, c.mem())
}

// UnmarshalBinary replaces c with the Counting filter encoded in b, which
// must be exactly one encoding of a Counting filter. It copies b.
func (c *Counting) UnmarshalBinary(b []byte) error {
	_, mem, err := decodeCopy(b, VariantCounting)
	if err != nil {
		return err
	}
	c.blocks = blocksOver[block](mem)
	return nil
}

// ReadFrom replaces c with the Counting filter encoded at the start of r,
// reading exactly its bytes, and returns the number of bytes read.
func (c *Counting) ReadFrom(r io.Reader) (int64, error) {
	_, mem, n, err := readEncoded(r, VariantCounting)
	if err != nil {
		return n, err
	}
	c.blocks = blocksOver[block](mem)
	return n, nil
}
