package bloom

import (
	"fmt"
	"io"

	"github.com/simdbloom/bloom/blocked"
)

// The typed filter's binary format is blocked.Filter's (FORMAT.md), with the
// key-hash identifier blocked.HashXXH3: the hashes this package's Hash
// computes. Decoding refuses any other identifier with an error wrapping
// blocked.ErrHashMismatch, so a filter built over other hashes (Parquet's
// XXH64, or raw hashes) is never queried with xxh3 ones. The identifier does
// not record the key type: xxh3 of a string and of an integer's 8 bytes are
// the same function, so reading a Filter[string] as a Filter[int] is not
// detected; keep the key type with the file.

// MarshalBinary returns the encoding of f.
func (f *Filter[K]) MarshalBinary() ([]byte, error) { return f.f.MarshalBinaryHash(blocked.HashXXH3) }

// WriteTo writes the encoding of f to w, streaming the bits without a copy
// (see blocked.Filter.WriteTo), and returns the number of bytes written.
func (f *Filter[K]) WriteTo(w io.Writer) (int64, error) {
	return f.f.WriteToHash(w, blocked.HashXXH3)
}

// checkHash refuses an encoding whose keys were not hashed with Hash.
func checkHash(h blocked.Header) error {
	if h.Hash != blocked.HashXXH3 {
		return fmt.Errorf("%w: the encoding's key hash is %v, bloom.Filter reads only %v (for other hashes use blocked.Filter and FromEngine)",
			blocked.ErrHashMismatch, h.Hash, blocked.HashXXH3)
	}
	return nil
}

// UnmarshalBinary replaces f with the filter encoded in b, which must have
// been written by MarshalBinary or WriteTo (key hash xxh3); on error f is
// unchanged. It copies b; see View to use b in place.
func (f *Filter[K]) UnmarshalBinary(b []byte) error {
	h, err := blocked.ParseHeader(b)
	if err != nil {
		return err
	}
	if err := checkHash(h); err != nil {
		return err
	}
	g := new(blocked.Filter)
	if err := g.UnmarshalBinary(b); err != nil {
		return err
	}
	f.f, f.kind = g, kindOf[K]()
	return nil
}

// ReadFrom replaces f with the filter encoded at the start of r (written by
// WriteTo or MarshalBinary, key hash xxh3), reading exactly its bytes, and
// returns the number of bytes read. On error f is unchanged. Memory grows
// with the bytes read, whatever the header announces.
func (f *Filter[K]) ReadFrom(r io.Reader) (int64, error) {
	var hdr [blocked.HeaderSize]byte
	n, err := io.ReadFull(r, hdr[:])
	if err == nil {
		var h blocked.Header
		if h, err = blocked.ParseHeader(hdr[:]); err == nil {
			err = checkHash(h)
		}
		if err != nil {
			return int64(n), err
		}
	}
	// blocked reads the header again (and reports a short one).
	g := new(blocked.Filter)
	m, err := g.ReadFrom(&prefixReader{pre: hdr[:n], r: r})
	if err != nil {
		return m, err
	}
	f.f, f.kind = g, kindOf[K]()
	return m, nil
}

// prefixReader reads pre, then r. It reports its length when r does, so that
// blocked.Filter.ReadFrom can size its buffer at once.
type prefixReader struct {
	pre []byte
	r   io.Reader
}

func (p *prefixReader) Read(b []byte) (int, error) {
	if len(p.pre) > 0 {
		n := copy(b, p.pre)
		p.pre = p.pre[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// Len returns the bytes left, or 0 when r does not say.
func (p *prefixReader) Len() int {
	if l, ok := p.r.(interface{ Len() int }); ok {
		return len(p.pre) + l.Len()
	}
	return 0
}

// View returns a filter over the encoding b without copying it, in O(1),
// for example over a memory-mapped file; b must start at a 64-byte boundary
// and stay unchanged while the filter is used. The filter is read-only: Add,
// AddAll, Union, Intersect and Clear would write into b (and fault on
// read-only memory). See blocked.View for the checks made and blocked.Verify
// to check the payload's checksum too.
func View[K Key](b []byte) (*Filter[K], error) {
	h, err := blocked.ParseHeader(b)
	if err != nil {
		return nil, err
	}
	if err := checkHash(h); err != nil {
		return nil, err
	}
	g, err := blocked.View(b)
	if err != nil {
		return nil, err
	}
	return FromEngine[K](g), nil
}
