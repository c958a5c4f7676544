package format

import (
	"fmt"
	"math"

	"github.com/simdbloom/bloom/internal/errs"
)

// Variant 4, cuckoo.Filter (FORMAT.md, "Variant 4: cuckoo filter"). K is the
// fingerprint width in bits, Blocks the number of buckets, Params[0] the
// table layout and Params[1] the slots per bucket. The payload is a
// CuckooPrefixBytes prefix (planned keys, stored fingerprints, victim
// generator state, a reserved zero word; uint64 each) and the table.
const (
	// CuckooLayoutPlain is a table of any number of buckets of 4
	// fingerprints of CuckooMinBits to CuckooMaxBits bits, 4K bits per
	// bucket, the buckets' bits one after the other, little-endian.
	CuckooLayoutPlain = 2
	// CuckooLayoutSemiSorted is a table like CuckooLayoutPlain but of
	// semi-sorted buckets of 4(K-1) bits: a 12-bit code of the sorted top
	// 4 bits of the fingerprints, then their low K-4 bits.
	CuckooLayoutSemiSorted = 3
	// CuckooMinBits and CuckooMaxBits bound the fingerprint width.
	CuckooMinBits = 4
	CuckooMaxBits = 32
	// CuckooSlots is the number of fingerprints in a bucket.
	CuckooSlots = 4
	// CuckooPrefixBytes is the size of the payload before the table.
	CuckooPrefixBytes = 32
)

// CuckooBucketBits returns the bits of a bucket of k-bit fingerprints in
// the given layout (one of the two above).
func CuckooBucketBits(layout, k uint8) uint64 {
	if layout == CuckooLayoutSemiSorted {
		return 4 * (uint64(k) - 1)
	}
	return 4 * uint64(k)
}

// Variant 5, bloom.Scalable[K] (FORMAT.md, "Variant 5: scalable filter"). K
// and Params are zero, Blocks is the number of stages. The payload is a
// ScalableParamBytes parameter block, then each stage's whole Filter
// encoding (header and payload) in order, oldest first.
const (
	// ScalableParamBytes is the size of the parameter block.
	ScalableParamBytes = 64
	// ScalableMinStage is the size of the smallest stage encoding: a
	// header and one 64-byte block.
	ScalableMinStage = 2 * HeaderSize
)

// maxTotal is the largest payload of a variant whose size is not bounded
// by a number of blocks: what fits an int with the header.
const maxTotal = uint64(math.MaxInt - 2*HeaderSize)

// checkCuckoo validates a variant 4 header: the layout (0 is corrupt; 1,
// the power-of-two table of an earlier draft, and any unknown one, which a
// later version would write, are Version), the slots per bucket, the other
// parameter bytes zero, the fingerprint width, the number of buckets (1 to
// MaxBlocks), the payload length and that it fits this platform's memory.
func checkCuckoo(h Header) error {
	switch layout := h.Params[0]; {
	case layout == 0:
		return fmt.Errorf("%w: cuckoo table layout 0", errs.ErrCorrupt)
	case layout != CuckooLayoutPlain && layout != CuckooLayoutSemiSorted:
		return fmt.Errorf("%w: cuckoo table layout %d, this version reads layouts %d and %d", errs.ErrVersion, layout, CuckooLayoutPlain, CuckooLayoutSemiSorted)
	}
	if h.Params[1] != CuckooSlots {
		return fmt.Errorf("%w: %d slots per bucket, the layouts have %d", errs.Both(errs.ErrCorrupt, errs.ErrGeometry), h.Params[1], CuckooSlots)
	}
	if [5]byte(h.Params[2:]) != [5]byte{} {
		return fmt.Errorf("%w: reserved cuckoo parameter bytes are not zero", errs.ErrCorrupt)
	}
	if h.K < CuckooMinBits || h.K > CuckooMaxBits {
		return fmt.Errorf("%w: %d-bit fingerprints, not %d to %d", errs.Both(errs.ErrCorrupt, errs.ErrGeometry), h.K, CuckooMinBits, CuckooMaxBits)
	}
	if h.Blocks == 0 {
		return fmt.Errorf("%w: 0 buckets", errs.Both(errs.ErrCorrupt, errs.ErrGeometry))
	}
	if h.Blocks > MaxBlocks {
		return fmt.Errorf("%w: %d buckets, the most is %d", errs.Both(errs.ErrCorrupt, errs.ErrTooLarge), h.Blocks, uint64(MaxBlocks))
	}
	bb := CuckooBucketBits(h.Params[0], h.K)
	table := (h.Blocks*bb + 7) / 8 // at most 2^39: no overflow
	if h.PayloadBytes != CuckooPrefixBytes+table {
		return fmt.Errorf("%w: payload length %d is not %d + %d buckets of %d bits", errs.ErrCorrupt, h.PayloadBytes, CuckooPrefixBytes, h.Blocks, bb)
	}
	// The decoded table keeps 8 bytes of padding after the buckets.
	if h.PayloadBytes > maxTotal-8 {
		return fmt.Errorf("%w: a %d-byte payload does not fit in memory on this platform", errs.Both(errs.ErrCorrupt, errs.ErrTooLarge), h.PayloadBytes)
	}
	return nil
}

// checkScalable validates a variant 5 header: k and the parameter bytes
// zero, at least one stage, a payload that is a whole number of 64-byte
// units long, holds the parameter block and at least ScalableMinStage bytes
// per stage (so the number of stages is bounded by the input), and fits
// this platform's memory. The stages themselves are checked by the decoder.
func checkScalable(h Header) error {
	if h.K != 0 {
		return fmt.Errorf("%w: k = %d for a Scalable (its stages record their own)", errs.Both(errs.ErrCorrupt, errs.ErrGeometry), h.K)
	}
	if h.Params != [7]byte{} {
		return fmt.Errorf("%w: reserved header bytes are not zero", errs.ErrCorrupt)
	}
	if h.Blocks == 0 {
		return fmt.Errorf("%w: 0 stages", errs.Both(errs.ErrCorrupt, errs.ErrGeometry))
	}
	if h.PayloadBytes%64 != 0 || h.PayloadBytes < ScalableParamBytes ||
		(h.PayloadBytes-ScalableParamBytes)/ScalableMinStage < h.Blocks {
		return fmt.Errorf("%w: payload length %d cannot hold the parameters and %d stages", errs.ErrCorrupt, h.PayloadBytes, h.Blocks)
	}
	if h.PayloadBytes > maxTotal {
		return fmt.Errorf("%w: a %d-byte payload does not fit in memory on this platform", errs.Both(errs.ErrCorrupt, errs.ErrTooLarge), h.PayloadBytes)
	}
	return nil
}

// Stage parses the header of stage i of a Scalable, at the start of rest
// (the payload after the parameter block and stages 0..i-1), as a Filter
// header (Parse), and checks that rest holds the whole stage encoding,
// rest[:h.Size()]. It neither reads the stage's payload nor allocates but
// for an error, which is the Scalable decoder's: ErrCorrupt wrapping what
// is wrong.
func Stage(rest []byte, i uint64) (Header, error) {
	h, err := Parse(rest, Filter)
	if err != nil {
		return Header{}, StageError(i, err)
	}
	if h.Size() > uint64(len(rest)) {
		return Header{}, fmt.Errorf("%w: Scalable: stage %d announces %d bytes, %d remain", errs.ErrCorrupt, i, h.Size(), len(rest))
	}
	return h, nil
}

// StageError returns err, an error found in stage i of a Scalable, as the
// Scalable decoder reports it: ErrCorrupt wrapping err.
func StageError(i uint64, err error) error {
	return fmt.Errorf("%w: Scalable: stage %d: %w", errs.ErrCorrupt, i, errs.Inner(err))
}

// StagesEnd returns an error unless rest, what follows the last stage of a
// Scalable, is empty: the stages must fill the payload exactly.
func StagesEnd(rest []byte) error {
	if len(rest) != 0 {
		return fmt.Errorf("%w: Scalable: %d bytes after the last stage", errs.ErrCorrupt, len(rest))
	}
	return nil
}
