package bloom

import "github.com/simdbloom/bloom/internal/errs"

// The errors every package of this module returns, wrapped with details:
// errors.Is(err, bloom.ErrFPR) matches an error from any of them (packages
// blocked, cuckoo and sbparquet return these values and export no others):
//
//	if _, err := bloom.New[string](n, fpr); errors.Is(err, bloom.ErrFPR) {
//		// fpr was not in (0, 1)
//	}
var (
	// ErrKeys means the number of keys to plan for is zero.
	ErrKeys = errs.ErrKeys
	// ErrFPR means a false-positive rate is outside (0, 1) or NaN, or is one
	// the filter cannot reach.
	ErrFPR = errs.ErrFPR
	// ErrTooLarge means the filter asked for is larger than the format can
	// address or this platform can allocate.
	ErrTooLarge = errs.ErrTooLarge
	// ErrGeometry means a size, k, number of buckets or fingerprint width is
	// not one the filter supports, or that Union or Intersect was given
	// filters of different geometry.
	ErrGeometry = errs.ErrGeometry
	// ErrOption means an option value (a NewScalable option) is out of
	// range or unknown.
	ErrOption = errs.ErrOption
	// ErrFull means a cuckoo filter found no room for a key; the filter is
	// unchanged.
	ErrFull = errs.ErrFull

	// ErrMagic means the input is not a filter encoding of this module.
	ErrMagic = errs.ErrMagic
	// ErrVersion means the encoding's format version is not one this
	// package reads.
	ErrVersion = errs.ErrVersion
	// ErrVariant means the encoding (or Parquet header) holds another kind
	// of filter than the one asked for, or a kind this package does not know.
	ErrVariant = errs.ErrVariant
	// ErrChecksum means the encoding's CRC-32C does not match its bytes.
	ErrChecksum = errs.ErrChecksum
	// ErrTruncated means the input ends before the encoding does.
	ErrTruncated = errs.ErrTruncated
	// ErrCorrupt means the encoding's header is malformed or inconsistent.
	ErrCorrupt = errs.ErrCorrupt
	// ErrByteOrder means a view's Reset was called on a big-endian machine:
	// views read the little-endian words in place; decode a copy with
	// UnmarshalBinary instead.
	ErrByteOrder = errs.ErrByteOrder
	// ErrHashMismatch means the filter was written with a different key hash
	// than the reader uses.
	ErrHashMismatch = errs.ErrHashMismatch
)
