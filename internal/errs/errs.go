// Package errs holds the error values every simdbloom package returns, so
// that errors.Is matches them whichever package returned the error. The
// packages bloom, blocked, cuckoo and parquet export these same values under
// the same names; users test against those, never this package.
package errs

import (
	"errors"
	"fmt"
	"strings"
)

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
	ErrByteOrder    = errors.New("bloom: a view reads bytes in place and needs a little-endian machine; use UnmarshalBinary")
	ErrHashMismatch = errors.New("bloom: filter was written with a different key hash")
)

// prefix opens every error value above; an error that wraps another of this
// module's errors says it once.
const prefix = "bloom: "

// Both returns an error that matches both a and b with errors.Is (a
// corrupt header that is also too large, say) and reads "a: b" with b's
// "bloom: " prefix dropped, so the message says "bloom: " once.
func Both(a, b error) error { return both{a, b} }

type both struct{ a, b error }

func (e both) Error() string   { return e.a.Error() + ": " + strings.TrimPrefix(e.b.Error(), prefix) }
func (e both) Unwrap() []error { return []error{e.a, e.b} }

// Worded returns an error that matches target with errors.Is but reads
// "bloom: " and the formatted message instead of target's words, for a
// case they do not fit: a rate inside (0, 1) still too low for a cuckoo
// filter is ErrFPR, but not "must be in (0, 1)".
func Worded(target error, format string, args ...any) error {
	return worded{prefix + fmt.Sprintf(format, args...), target}
}

type worded struct {
	msg    string
	target error
}

func (e worded) Error() string { return e.msg }
func (e worded) Unwrap() error { return e.target }

// Inner returns err for wrapping inside another error of this module (the
// stage of a Scalable, say): the same error for errors.Is and errors.As,
// whose message drops its leading "bloom: ", which the outer error says.
func Inner(err error) error {
	if err == nil {
		return nil
	}
	return inner{err}
}

type inner struct{ err error }

func (e inner) Error() string { return strings.TrimPrefix(e.err.Error(), prefix) }
func (e inner) Unwrap() error { return e.err }

// S returns the precision that prints a plural "s" for a count of n with
// the verb %.*s: 0 for 1, else 1. Decoders use it where an error must cost
// no allocation beyond its own: fmt.Errorf("%d byte%.*s", n, S(n), "s").
func S[N ~int | ~int64 | ~uint64](n N) int {
	if n == 1 {
		return 0
	}
	return 1
}

// Count returns n and the noun, plural unless n is 1: "1 key", "2 keys".
// Nouns of this module's messages take an s.
func Count[N ~int | ~int64 | ~uint64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
