package blocked

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/internal/format"
)

// TestLookupHashHostile checks that LookupHash (and LookupHashFor) on
// damaged or hostile bytes agrees with Reset, at every kernel level (filterLookupOne has a version
// per level): for every k byte (only 8 and 16 are a Filter's), for block
// counts and lengths that disagree, and for random header words, it returns
// Reset's error with false, or Reset's view's answer, never reading outside
// b (the encodings end at the end of their memory, fenced where the
// platform allows it by the Go heap's bounds checks on b's copy).
func TestLookupHashHostile(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	forEachLevel(t, lookupHashHostile)
}

func lookupHashHostile(t *testing.T) {
	hs := randomHashes(200, 46)
	f := mustBytes(t, 7*64, 8)
	f.AddHashes(hs)
	good, _ := f.MarshalBinary()
	check := func(what string, b []byte) {
		t.Helper()
		var v FilterView
		rerr := v.Reset(b)
		for _, h := range hs[:8] {
			got, err := LookupHash(b, h)
			if (err == nil) != (rerr == nil) || (err != nil && err.Error() != rerr.Error()) {
				t.Fatalf("%s: LookupHash error %v, Reset's %v", what, err, rerr)
			}
			if got != v.HasHash(h) {
				t.Fatalf("%s: LookupHash %v, the reset view %v", what, got, !got)
			}
			checkLookupFor(t, what, b, h, HashUnspecified, KeysBytes)
		}
	}
	for k := range 256 {
		b := bytes.Clone(good)
		b[format.OffK] = byte(k)
		refix(b)
		check("k", alignedCopy(b, 3))
		if _, err := LookupHash(b, hs[0]); (err == nil) != (k == 8 || k == 16) {
			t.Fatalf("k = %d: LookupHash error %v", k, err)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 20000 {
		b := bytes.Clone(good)
		switch i % 4 {
		case 0: // a random block count
			binary.LittleEndian.PutUint64(b[format.OffBlocks:], r.Uint64()>>r.IntN(64))
		case 1: // a random payload length
			binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], r.Uint64()>>r.IntN(64))
		case 2: // both, consistent with each other
			nb := r.Uint64() >> r.IntN(64)
			binary.LittleEndian.PutUint64(b[format.OffBlocks:], nb)
			binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], nb<<6)
		default: // one random header byte
			b[r.IntN(headerSize)] = byte(r.Uint32())
		}
		// Cut or extend b too, now and then: a length that no longer
		// matches the header.
		switch r.IntN(4) {
		case 0:
			b = b[:r.IntN(len(b)+1)]
		case 1:
			b = append(b, make([]byte, 64*r.IntN(3))...)
		}
		check("random header", b[:len(b):len(b)])
	}
}

// TestResetHostile checks that Reset of every view accepts exactly the
// encodings the checks of before accepted (viewLightOld), for every k and
// variant byte and random block counts, payload lengths, header bytes and
// lengths, and that an accepted one answers as the filter's own view does.
func TestResetHostile(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	hs := randomHashes(300, 47)
	r := rand.New(rand.NewPCG(8, 8))
	for _, c := range codecs {
		good, _ := marshalHash(c.build(t, 6, hs), HashXXH3)
		shift := uint(6)
		if c.variant == variantSplitBlock {
			shift = 5
		}
		check := func(what string, b []byte) {
			t.Helper()
			v := resetView(c)
			err := v.Reset(b)
			nb, _, ok := viewLightOld(b, c.variant, shift)
			if ok != (err == nil) {
				t.Fatalf("%s, %s: Reset %v, the old checks accept: %v", c.name, what, err, ok)
			}
			if !ok {
				if want := viewErr(b, c.variant); err.Error() != want.Error() {
					t.Fatalf("%s, %s: Reset %v, want %v", c.name, what, err, want)
				}
				return
			}
			if v.numBlocks() != nb {
				t.Fatalf("%s, %s: %d blocks, want %d", c.name, what, v.numBlocks(), nb)
			}
			w, werr := c.view(refix(bytes.Clone(b)))
			for _, h := range hs[:32] {
				if werr == nil && v.HasHash(h) != w.HasHash(h) {
					t.Fatalf("%s, %s: Reset's view differs from View's", c.name, what)
				}
			}
		}
		for x := range 256 {
			for _, off := range []int{format.OffK, format.OffVariant} {
				b := bytes.Clone(good)
				b[off] = byte(x)
				check(fmt.Sprintf("byte %d = %d", off, x), alignedCopy(b, x%5))
			}
		}
		for i := range 5000 {
			b := bytes.Clone(good)
			switch i % 4 {
			case 0:
				binary.LittleEndian.PutUint64(b[format.OffBlocks:], r.Uint64()>>r.IntN(64))
			case 1:
				binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], r.Uint64()>>r.IntN(64))
			case 2:
				nb := r.Uint64() >> r.IntN(64)
				binary.LittleEndian.PutUint64(b[format.OffBlocks:], nb)
				binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], nb<<shift)
			default:
				b[r.IntN(headerSize)] = byte(r.Uint32())
			}
			switch r.IntN(4) {
			case 0:
				b = b[:r.IntN(len(b)+1)]
			case 1:
				b = append(b, make([]byte, 32*r.IntN(5))...)
			}
			check("random header", b[:len(b):len(b)])
		}
	}
}
