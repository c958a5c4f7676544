// Package errs holds the error values every simdbloom package returns, so
// that errors.Is matches them whichever package returned the error. The
// packages bloom, blocked, cuckoo and parquet export these same values under
// the same names; users test against those, never this package.
package errs

import "errors"

// Bad input to a constructor or sizing function.
var (
	ErrKeys     = errors.New("bloom: number of keys must be positive")
	ErrFPR      = errors.New("bloom: false-positive rate must be in (0, 1)")
	ErrTooLarge = errors.New("bloom: filter would be too large")
	ErrGeometry = errors.New("bloom: unsupported or mismatched filter geometry")
	ErrOption   = errors.New("bloom: bad option")
	ErrFull     = errors.New("bloom: filter is full")
)

// Bad input to a decoder.
var (
	ErrMagic        = errors.New("bloom: not a simdbloom filter encoding (bad magic)")
	ErrVersion      = errors.New("bloom: unsupported format version")
	ErrVariant      = errors.New("bloom: wrong or unknown filter variant")
	ErrChecksum     = errors.New("bloom: checksum mismatch")
	ErrTruncated    = errors.New("bloom: encoding is truncated")
	ErrCorrupt      = errors.New("bloom: corrupt encoding")
	ErrAlignment    = errors.New("bloom: payload is not aligned")
	ErrByteOrder    = errors.New("bloom: View needs a little-endian machine; use UnmarshalBinary")
	ErrHashMismatch = errors.New("bloom: filter was written with a different key hash")
)
