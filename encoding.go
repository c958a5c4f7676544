package bloom

import (
	"fmt"
	"io"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"
)

// The typed filter's binary format is blocked.Filter's (FORMAT.md), with the
// key-hash identifier blocked.HashXXH3, which every typed filter records
// when it is made: the hashes this package's Hash computes. Decoding refuses any other identifier with an error wrapping
// bloom.ErrHashMismatch, so a filter built over other hashes (Parquet's
// XXH64, or raw hashes) is never queried with xxh3 ones. The encoding also
// records the key family (byte strings or integers, keyfamily.go), and the
// decoders refuse the other family the same way, after the key hash: a
// Filter[string] file never loads as a Filter[uint64]. Integer types of
// different widths share a family, and an encoding that records no family
// (written before the field) loads as any key type.

// MarshalBinary returns the encoding of f, with the key hash it records
// (blocked.HashXXH3 for a filter made by New). The zero Filter has no
// encoding: an error wrapping ErrGeometry; an encoding larger than this
// process can allocate is an error wrapping ErrTooLarge.
func (f *Filter[K]) MarshalBinary() ([]byte, error) { return f.engine().MarshalBinary() }

// AppendBinary appends the encoding of f to b, as MarshalBinary. On error
// (ErrTooLarge only when b lacks the room) it returns b unchanged.
func (f *Filter[K]) AppendBinary(b []byte) ([]byte, error) { return f.engine().AppendBinary(b) }

// WriteTo writes the encoding of f to w, streaming the bits without a copy
// (see blocked.Filter.WriteTo), and returns the number of bytes written
// (an error wrapping ErrGeometry for the zero Filter).
func (f *Filter[K]) WriteTo(w io.Writer) (int64, error) { return f.engine().WriteTo(w) }

// checkHash refuses a filter whose keys were not hashed with Hash.
func checkHash(id blocked.HashID) error {
	if id != blocked.HashXXH3 {
		return fmt.Errorf("%w: the encoding's key hash is %v, bloom.Filter reads only %v (for other hashes use blocked.Filter and FromEngine)",
			errs.ErrHashMismatch, id, blocked.HashXXH3)
	}
	return nil
}

// UnmarshalBinary replaces f with the filter encoded in b, which must have
// been written by MarshalBinary or WriteTo (key hash xxh3, else an error
// wrapping bloom.ErrHashMismatch, checked after the rest of the encoding);
// on error f is unchanged. It copies b; see View to use b in place.
func (f *Filter[K]) UnmarshalBinary(b []byte) error {
	g := new(blocked.Filter)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	if err := checkHash(g.KeyHash()); err != nil {
		return err
	}
	if err := checkFamily[K](g.KeyFamily(), "Filter"); err != nil {
		return err
	}
	g.SetKeyFamily(keyFamily[K]())
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
	if err := checkFamily[K](g.KeyFamily(), "Filter"); err != nil {
		return n, err
	}
	g.SetKeyFamily(keyFamily[K]())
	f.f, f.kind = g, kindOf[K]()
	return n, nil
}

// Counting[K] encodes as a blocked.Counting (FORMAT.md variant 3) and
// Cuckoo[K] as a cuckoo.Filter (variant 4), each with the key-hash
// identifier blocked.HashXXH3. Their decoders refuse any other identifier
// with an error wrapping ErrHashMismatch, after every other check, and an
// encoding of the other key family (see keyfamily.go) the same way, and
// leave the receiver unchanged on any error.

// requireXXH3 refuses an encoding whose keys were not hashed with Hash.
func requireXXH3(id blocked.HashID, typ, engine string) error {
	if id != blocked.HashXXH3 {
		return fmt.Errorf("%w: the encoding's key hash is %v, bloom.%s reads only %v (for other hashes use %s)",
			ErrHashMismatch, id, typ, blocked.HashXXH3, engine)
	}
	return nil
}

// zeroEncode is the error of encoding a zero value.
func zeroEncode(typ, ctor string) error {
	return fmt.Errorf("%w: cannot encode a zero %s; use bloom.%s", ErrGeometry, typ, ctor)
}
