package main

import (
	"fmt"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

// checkEncoding checks the filter encoding b before any view is made of
// it: its header and length, and for a Scalable each stage's header and
// length, the stages filling the payload exactly (a view allocates for
// every stage the header claims: it is made only once they are there).
// With crcs it checks every checksum too, in one pass over b: the payload's
// (blocked.Verify) and, for a Scalable, each stage's, so that a damaged
// stage is found whether the outer checksum was recomputed over it or left
// out (the no-payload-CRC flag). Its errors are the library's.
func checkEncoding(b []byte, crcs bool) error {
	h, p, err := format.Frame(b, 0)
	if err != nil {
		return err
	}
	if h.Variant == format.Scalable {
		return checkStages(h, p, crcs)
	}
	if crcs {
		return blocked.Verify(b)
	}
	return nil
}

// checkStages checks the stages of the Scalable encoding with header h and
// payload p (its length checked): the parameter block, then h.Blocks whole
// Filter encodings and nothing after them; with crcs, each stage's payload
// checksum and the outer one, in one pass over the bytes: the outer one is
// made from the stages' (crcConcat).
func checkStages(h format.Header, p []byte, crcs bool) error {
	outer := crcs && h.HasPayloadCRC()
	var crc uint32
	if outer {
		crc = format.CRC(p[:format.ScalableParamBytes]) // the payload holds the parameters: format.Parse checks it
	}
	rest := p[format.ScalableParamBytes:]
	for i := range h.Blocks { // each stage is at least ScalableMinStage bytes: the loop ends with the bytes
		sh, err := format.Parse(rest, format.Filter)
		if err != nil {
			return fmt.Errorf("%w: Scalable: stage %d: %w", errs.ErrCorrupt, i, errs.Inner(err))
		}
		if sh.Size() > uint64(len(rest)) {
			return fmt.Errorf("%w: Scalable: stage %d announces %d bytes, %d remain", errs.ErrCorrupt, i, sh.Size(), len(rest))
		}
		stage := rest[:sh.Size()]
		rest = rest[sh.Size():]
		if !crcs || (!outer && !sh.HasPayloadCRC()) {
			continue
		}
		sc := format.CRC(stage[format.HeaderSize:])
		if sh.HasPayloadCRC() && sc != sh.PayloadCRC {
			return fmt.Errorf("%w: Scalable stage %d: payload CRC-32C is %#08x, header says %#08x", errs.ErrChecksum, i, sc, sh.PayloadCRC)
		}
		if outer { // the outer CRC goes on with the stage's header, then its payload
			crc = crcConcat(crc, format.CRC(stage[:format.HeaderSize]), format.HeaderSize)
			crc = crcConcat(crc, sc, sh.PayloadBytes)
		}
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: Scalable: %d bytes after the %d stages the header announces", errs.ErrCorrupt, len(rest), h.Blocks)
	}
	if outer && crc != h.PayloadCRC {
		return fmt.Errorf("%w: payload CRC-32C is %#08x, header says %#08x", errs.ErrChecksum, crc, h.PayloadCRC)
	}
	return nil
}
