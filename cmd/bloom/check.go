package main

import (
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// checkEncoding checks the filter encoding b before any view is made of
// it. With crcs it is blocked.Verify: the header, the length and every
// checksum, for a Scalable each stage's too, so that a damaged stage is
// found whether the outer checksum was recomputed over it or left out (the
// no-payload-CRC flag). Without crcs (--no-verify) it checks the header and
// length, and for a Scalable each stage's header and length, the stages
// filling the payload exactly, reading no payload: a view is made only of
// stages that are there. Its errors are the library's.
func checkEncoding(b []byte, crcs bool) error {
	if crcs {
		return blocked.Verify(b)
	}
	h, p, err := format.Frame(b, 0)
	if err != nil || h.Variant != format.Scalable {
		return err
	}
	rest := p[format.ScalableParamBytes:]
	for i := range h.Blocks { // each stage is 128 bytes or more: the loop ends with the bytes
		sh, err := format.Stage(rest, i)
		if err != nil {
			return err
		}
		rest = rest[sh.Size():]
	}
	return format.StagesEnd(rest)
}
