package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// withoutPayloadCRC sets the no-payload-CRC flag of the outer header of b,
// zeroes its payload CRC field and makes its header CRC right: an encoding
// whose outer payload nothing vouches for.
func withoutPayloadCRC(b []byte) []byte {
	le := binary.LittleEndian
	le.PutUint32(b[format.OffIncompat:], le.Uint32(b[format.OffIncompat:])|format.IncompatNoPayloadCRC)
	le.PutUint32(b[format.OffPayloadCRC:], 0)
	le.PutUint32(b[format.OffHeaderCRC:], format.CRC(b[:format.OffHeaderCRC]))
	return b
}

// TestScalableVerifyChecksStages is the query path of a damaged file
// (issue 33): the blocks of one stage of a Scalable encoding are zeroed, so
// that the keys it holds answer false, and the outer encoding vouches for
// the damage (its payload CRC recomputed, or the no-payload-CRC flag set).
// blocked.Verify, the full check a caller runs before a view, must refuse
// it with the error UnmarshalBinary gives, word for word (ErrCorrupt and
// ErrChecksum, naming the stage). So must it a stage header damaged (its
// checksum wrong) and bytes after the last stage; and where the outer CRC
// is stale (the damage left as it is, or the stage's own CRC made to match
// it, or the parameters changed), both report the outer CRC (FORMAT.md's
// step 10 comes first). It runs on stages under a kilobyte and of tens of
// kilobytes, whose CRCs Verify reads twice or combines into the outer one.
// ScalableView.Reset reads no payload: if it accepts the damage, Verify is
// what stands between the caller and the lost keys.
func TestScalableVerifyChecksStages(t *testing.T) {
	for _, size := range []struct {
		name       string
		initial, n int
	}{{"small stages", 30, 3000}, {"large stages", 30000, 200000}} {
		t.Run(size.name, func(t *testing.T) {
			key := func(i int) uint64 { return uint64(i) * 7919 }
			s := scalableOf(t, uint64(size.initial), size.n, key)
			keys := make([]uint64, size.n)
			for i := range keys {
				keys[i] = key(i)
			}
			checkVerifyChecksStages(t, mustMarshal(t, s), keys)
		})
	}
}

func checkVerifyChecksStages(t *testing.T, good []byte, keys []uint64) {
	if err := blocked.Verify(good); err != nil {
		t.Fatalf("Verify of a good encoding: %v", err)
	}
	spans := stageSpans(t, good)
	if len(spans) < 3 {
		t.Fatalf("%d stages, want 3 or more", len(spans))
	}
	t.Logf("stages of %d to %d bytes", spans[0][1]-spans[0][0], spans[len(spans)-1][1]-spans[len(spans)-1][0])
	type damaged struct {
		name  string
		b     []byte
		stage bool // a stage's payload: the keys it holds are lost
	}
	var cases []damaged
	for i, sp := range spans {
		b := bytes.Clone(good)
		clear(b[sp[0]+format.HeaderSize : sp[1]])
		fixed := bytes.Clone(b)
		fixStage(fixed, sp[0])
		cases = append(cases,
			damaged{fmt.Sprintf("stage %d zeroed, outer CRC recomputed", i), refixed(bytes.Clone(b)), true},
			damaged{fmt.Sprintf("stage %d zeroed, outer CRC left out", i), withoutPayloadCRC(bytes.Clone(b)), true},
			damaged{fmt.Sprintf("stage %d zeroed, outer CRC stale", i), b, false},
			damaged{fmt.Sprintf("stage %d zeroed, its CRC recomputed, outer CRC stale", i), fixed, false})
	}
	params := bytes.Clone(good)
	params[format.HeaderSize+spReserved] = 1
	cases = append(cases, damaged{"parameters changed, outer CRC stale", params, false})
	hdr := bytes.Clone(good)
	hdr[spans[1][0]+format.OffHeaderCRC] ^= 1
	cases = append(cases, damaged{"stage 1 header CRC, outer CRC recomputed", refixed(hdr), false})
	tail := append(bytes.Clone(good), make([]byte, 64)...)
	binary.LittleEndian.PutUint64(tail[format.OffPayloadLen:], uint64(len(tail)-format.HeaderSize))
	cases = append(cases, damaged{"64 bytes after the last stage, outer CRC recomputed", refixed(tail), false})

	for _, c := range cases {
		verr := blocked.Verify(c.b)
		var d Scalable[uint64]
		derr := d.UnmarshalBinary(c.b)
		if derr == nil || !isFormatError(derr) {
			t.Fatalf("%s: UnmarshalBinary: %v, want one of the format's errors", c.name, derr)
		}
		if verr == nil || verr.Error() != derr.Error() {
			t.Errorf("%s: Verify: %v; UnmarshalBinary: %v", c.name, verr, derr)
		}
		if c.stage && (!errors.Is(verr, ErrChecksum) || !errors.Is(verr, ErrCorrupt) || !strings.Contains(fmt.Sprint(verr), "stage")) {
			t.Errorf("%s: Verify: %v, want ErrCorrupt and ErrChecksum naming the stage", c.name, verr)
		}
		if !c.stage || binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
			continue
		}
		var v ScalableView[uint64]
		if err := v.Reset(c.b); err != nil {
			if !errors.Is(err, ErrChecksum) {
				t.Errorf("%s: Reset: %v, want ErrChecksum if it refuses", c.name, err)
			}
			continue
		}
		found := v.HasAll(keys, make([]bool, len(keys)))
		t.Logf("%s: Reset accepts it (it reads no payload) and finds %d of %d keys; Verify: %v", c.name, found, len(keys), verr)
	}
}
