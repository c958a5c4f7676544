package format

import (
	"fmt"

	"github.com/simdbloom/bloom/internal/errs"
)

// Variant 6, bloom.Window[K] (FORMAT.md, "Variant 6: window filter"). K
// and Params are zero, Blocks is the number of generations kept (the
// generations per window plus one). The payload is a WindowParamBytes
// parameter block, then each generation's whole Filter encoding in slot
// order.
const (
	// WindowParamBytes is the size of the parameter block.
	WindowParamBytes = 64
	// WindowMaxGenerations is the most generations per window (the
	// encoding holds one more): 63, so that the g+1 kept fit the one bit
	// each that Window.Has's live mask, a uint64, gives them.
	WindowMaxGenerations = 63
)

// checkWindow validates a variant 6 header: k and the parameter bytes zero,
// 2 to WindowMaxGenerations+1 generations, a payload that is a whole number
// of 64-byte units long, holds the parameter block and at least
// ScalableMinStage bytes per generation, and fits this platform's memory.
// The generations themselves are checked by the decoder.
func checkWindow(h Header) error {
	if h.K != 0 {
		return fmt.Errorf("%w: k = %d for a Window (its generations record their own)", errs.Both(errs.ErrCorrupt, errs.ErrGeometry), h.K)
	}
	if h.Params != [7]byte{} {
		return fmt.Errorf("%w: reserved header bytes are not zero", errs.ErrCorrupt)
	}
	if h.Blocks < 2 || h.Blocks > WindowMaxGenerations+1 {
		return fmt.Errorf("%w: %d generations, not 2 to %d", errs.Both(errs.ErrCorrupt, errs.ErrGeometry), h.Blocks, WindowMaxGenerations+1)
	}
	if h.PayloadBytes%64 != 0 || h.PayloadBytes < WindowParamBytes ||
		(h.PayloadBytes-WindowParamBytes)/ScalableMinStage < h.Blocks {
		return fmt.Errorf("%w: payload length %d cannot hold the parameters and %d generations", errs.ErrCorrupt, h.PayloadBytes, h.Blocks)
	}
	if h.PayloadBytes > maxTotal {
		return fmt.Errorf("%w: a %d-byte payload does not fit in memory on this platform", errs.Both(errs.ErrCorrupt, errs.ErrTooLarge), h.PayloadBytes)
	}
	return nil
}
