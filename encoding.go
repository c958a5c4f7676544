package bloom

import (
	"fmt"
	"io"

	"github.com/simdbloom/bloom/blocked"
)

// The typed filter's binary format is blocked.Filter's (FORMAT.md), with the
// key-hash identifier blocked.HashXXH3, which every typed filter records
// when it is made: the hashes this package's Hash computes. Decoding refuses any other identifier with an error wrapping
// blocked.ErrHashMismatch, so a filter built over other hashes (Parquet's
// XXH64, or raw hashes) is never queried with xxh3 ones. The identifier does
// not record the key type: xxh3 of a string and of an integer's 8 bytes are
// the same function, so reading a Filter[string] as a Filter[int] is not
// detected; keep the key type with the file.

// MarshalBinary returns the encoding of f, with the key hash it records
// (blocked.HashXXH3 for a filter made by New).
func (f *Filter[K]) MarshalBinary() ([]byte, error) { return f.f.MarshalBinary() }

// AppendBinary appends the encoding of f to b, as MarshalBinary.
func (f *Filter[K]) AppendBinary(b []byte) ([]byte, error) { return f.f.AppendBinary(b) }

// WriteTo writes the encoding of f to w, streaming the bits without a copy
// (see blocked.Filter.WriteTo), and returns the number of bytes written.
func (f *Filter[K]) WriteTo(w io.Writer) (int64, error) { return f.f.WriteTo(w) }

// checkHash refuses a filter whose keys were not hashed with Hash.
func checkHash(id blocked.HashID) error {
	if id != blocked.HashXXH3 {
		return fmt.Errorf("%w: the encoding's key hash is %v, bloom.Filter reads only %v (for other hashes use blocked.Filter and FromEngine)",
			blocked.ErrHashMismatch, id, blocked.HashXXH3)
	}
	return nil
}

// UnmarshalBinary replaces f with the filter encoded in b, which must have
// been written by MarshalBinary or WriteTo (key hash xxh3, else an error
// wrapping blocked.ErrHashMismatch, checked after the rest of the encoding);
// on error f is unchanged. It copies b; see View to use b in place.
func (f *Filter[K]) UnmarshalBinary(b []byte) error {
	g := new(blocked.Filter)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	if err := checkHash(g.KeyHash()); err != nil {
		return err
	}
	f.f, f.kind = g, kindOf[K]()
	return nil
}

// ReadFrom replaces f with the filter encoded at the start of r (written by
// WriteTo or MarshalBinary, key hash xxh3), reading exactly its bytes, and
// returns the number of bytes read. On error f is unchanged. Memory grows
// with the bytes read, whatever the header announces. At the end of r (no
// byte read) it returns 0, io.EOF, so concatenated encodings are read in a
// loop until io.EOF.
func (f *Filter[K]) ReadFrom(r io.Reader) (int64, error) {
	g := new(blocked.Filter)
	n, err := g.ReadFrom(r)
	if err != nil {
		return n, err
	}
	if err := checkHash(g.KeyHash()); err != nil {
		return n, err
	}
	f.f, f.kind = g, kindOf[K]()
	return n, nil
}

// View returns a filter over the encoding b without copying it, in O(1),
// for example over a memory-mapped file; b must start at a 64-byte boundary
// and stay unchanged while the filter is used. The filter is read-only: Add,
// AddAll, Union, Intersect and Clear would write into b (and fault on
// read-only memory). See blocked.View for the checks made and blocked.Verify
// to check the payload's checksum too.
func View[K Key](b []byte) (*Filter[K], error) {
	g, err := blocked.View(b)
	if err != nil {
		return nil, err
	}
	if err := checkHash(g.KeyHash()); err != nil {
		return nil, err
	}
	return FromEngine[K](g), nil
}
