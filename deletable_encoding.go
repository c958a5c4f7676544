package bloom

import (
	"fmt"
	"io"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
)

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

// MarshalBinary returns the encoding of c (a blocked.Counting encoding with
// key hash xxh3). It returns an error wrapping ErrGeometry for the zero
// Counting.
func (c *Counting[K]) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the encoding of c to b, as MarshalBinary.
func (c *Counting[K]) AppendBinary(b []byte) ([]byte, error) {
	if c.c == nil {
		return b, zeroEncode("Counting", "NewCounting")
	}
	return c.c.AppendBinary(b)
}

// WriteTo writes the encoding of c to w, streaming the counters without a
// copy, and returns the number of bytes written.
func (c *Counting[K]) WriteTo(w io.Writer) (int64, error) {
	if c.c == nil {
		return 0, zeroEncode("Counting", "NewCounting")
	}
	return c.c.WriteTo(w)
}

// UnmarshalBinary replaces c with the filter encoded in b (by MarshalBinary
// or WriteTo; key hash xxh3, else an error wrapping ErrHashMismatch). On
// error c is unchanged. It copies b; the zero Counting may be the receiver.
func (c *Counting[K]) UnmarshalBinary(b []byte) error {
	g := new(blocked.Counting)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	if err := requireXXH3(g.KeyHash(), "Counting", "blocked.Counting"); err != nil {
		return err
	}
	if err := checkFamily[K](g.KeyFamily(), "Counting"); err != nil {
		return err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.c, c.kind = g, kindOf[K]()
	return nil
}

// ReadFrom replaces c with the filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read. On error c is
// unchanged. Memory grows with the bytes read, whatever the header
// announces. At the end of r (no byte read) it returns 0, io.EOF, so
// concatenated encodings are read in a loop until io.EOF.
func (c *Counting[K]) ReadFrom(r io.Reader) (int64, error) {
	g := new(blocked.Counting)
	n, err := g.ReadFrom(r)
	if err != nil {
		return n, err
	}
	if err := requireXXH3(g.KeyHash(), "Counting", "blocked.Counting"); err != nil {
		return n, err
	}
	if err := checkFamily[K](g.KeyFamily(), "Counting"); err != nil {
		return n, err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.c, c.kind = g, kindOf[K]()
	return n, nil
}

// MarshalBinary returns the encoding of c (a cuckoo.Filter encoding with key
// hash xxh3). It returns an error wrapping ErrGeometry for the zero Cuckoo.
func (c *Cuckoo[K]) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the encoding of c to b, as MarshalBinary.
func (c *Cuckoo[K]) AppendBinary(b []byte) ([]byte, error) {
	if c.f == nil {
		return b, zeroEncode("Cuckoo", "NewCuckoo")
	}
	return c.f.AppendBinary(b)
}

// WriteTo writes the encoding of c to w, streaming the table without a copy,
// and returns the number of bytes written.
func (c *Cuckoo[K]) WriteTo(w io.Writer) (int64, error) {
	if c.f == nil {
		return 0, zeroEncode("Cuckoo", "NewCuckoo")
	}
	return c.f.WriteTo(w)
}

// UnmarshalBinary replaces c with the filter encoded in b (by MarshalBinary
// or WriteTo; key hash xxh3, else an error wrapping ErrHashMismatch). On
// error c is unchanged. It copies b; the zero Cuckoo may be the receiver.
// The decoded filter continues exactly as the encoded one would have.
func (c *Cuckoo[K]) UnmarshalBinary(b []byte) error {
	g := new(cuckoo.Filter)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	if err := requireXXH3(g.KeyHash(), "Cuckoo", "cuckoo.Filter"); err != nil {
		return err
	}
	if err := checkFamily[K](g.KeyFamily(), "Cuckoo"); err != nil {
		return err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.f, c.kind = g, kindOf[K]()
	return nil
}

// ReadFrom replaces c with the filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read. On error c is
// unchanged. Memory grows with the bytes read, whatever the header
// announces. At the end of r (no byte read) it returns 0, io.EOF, so
// concatenated encodings are read in a loop until io.EOF.
func (c *Cuckoo[K]) ReadFrom(r io.Reader) (int64, error) {
	g := new(cuckoo.Filter)
	n, err := g.ReadFrom(r)
	if err != nil {
		return n, err
	}
	if err := requireXXH3(g.KeyHash(), "Cuckoo", "cuckoo.Filter"); err != nil {
		return n, err
	}
	if err := checkFamily[K](g.KeyFamily(), "Cuckoo"); err != nil {
		return n, err
	}
	g.SetKeyFamily(keyFamily[K]())
	c.f, c.kind = g, kindOf[K]()
	return n, nil
}
