package blocked

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/internal/format"
)

// TestLookupHashLevels checks, at every kernel level (filterLookupOne has
// a version per level), that LookupHash on random Filters of k = 8 and 16,
// of one to a thousand blocks, with the payload at aligned and unaligned
// addresses, answers as a view held across calls and the Filter itself do,
// with a nil error.
func TestLookupHashLevels(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 9))
		for _, k := range []int{8, 16} {
			for _, nb := range []uint64{1, 2, 3, 7, 64, 1000} {
				f := mustBytes(t, nb*64, k)
				added := randomHashes(int(nb)*8, nb)
				f.AddHashes(added)
				enc, err := f.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				for _, off := range []int{0, 1, 8, 33, 63} {
					b := alignedCopy(enc, off)
					var v FilterView
					if err := v.Reset(b); err != nil {
						t.Fatalf("k = %d, %d blocks: Reset: %v", k, nb, err)
					}
					var yes, no int
					for i := range 3000 {
						h := r.Uint64()
						if i%2 == 0 {
							h = added[r.IntN(len(added))]
						}
						got, err := LookupHash(b, h)
						if err != nil || got != v.HasHash(h) || got != f.HasHash(h) {
							t.Fatalf("k = %d, %d blocks, offset %d: LookupHash(%#x) = %v, %v; the held view %v, the filter %v",
								k, nb, off, h, got, err, v.HasHash(h), f.HasHash(h))
						}
						if got {
							yes++
						} else {
							no++
						}
					}
					if no == 0 || yes < 1500 {
						t.Fatalf("k = %d, %d blocks: %d found, %d not: the probe misses a case", k, nb, yes, no)
					}
				}
			}
		}
	})
}

// TestLookupHashEachCheck breaks each of Reset's checks alone in good
// encodings (the header checksum fixed up, so that the error names the
// check), at every kernel level, and checks that LookupHash then returns
// false and Reset's error, and that what Reset skips (the header checksum,
// the reserved bytes, a known incompatible flag) changes nothing.
func TestLookupHashEachCheck(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	type mutation struct {
		name string
		ok   bool // Reset accepts it
		do   func(b []byte) []byte
	}
	put64 := func(off int, v func(old uint64) uint64) func(b []byte) []byte {
		return func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[off:], v(binary.LittleEndian.Uint64(b[off:])))
			return refix(b)
		}
	}
	var ms []mutation
	add := func(ok bool, do func(b []byte) []byte, format string, args ...any) {
		ms = append(ms, mutation{fmt.Sprintf(format, args...), ok, do})
	}
	for _, n := range []int{0, 1, 8, 48, 63, 64, 65, 127} {
		add(false, func(b []byte) []byte { return b[:n:n] }, "only %d bytes", n)
	}
	for _, d := range []int{-64, -1, 1, 63, 64, 128} {
		add(false, func(b []byte) []byte {
			if d < 0 {
				return b[: len(b)+d : len(b)+d]
			}
			return append(b, make([]byte, d)...)
		}, "length %+d", d)
	}
	for i := range 4 {
		add(false, func(b []byte) []byte { b[format.OffMagic+i] ^= 0x20; return refix(b) }, "magic byte %d", i)
	}
	for _, ver := range []uint16{0, formatVersion + 1, 0x100 | formatVersion, 0xffff} {
		add(false, func(b []byte) []byte { binary.LittleEndian.PutUint16(b[format.OffVersion:], ver); return refix(b) }, "version %d", ver)
	}
	for x := range 256 {
		if x != int(variantFilter) {
			add(false, func(b []byte) []byte { b[format.OffVariant] = byte(x); return refix(b) }, "variant %d", x)
		}
		add(x == 8 || x == 16, func(b []byte) []byte { b[format.OffK] = byte(x); return refix(b) }, "k %d", x)
	}
	for i := range 32 {
		known := uint32(1)<<i&format.KnownIncompat != 0
		add(known, func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[format.OffIncompat:], binary.LittleEndian.Uint32(b[format.OffIncompat:])|1<<i)
			return refix(b)
		}, "incompatible flag %d", i)
	}
	add(false, put64(format.OffBlocks, func(uint64) uint64 { return 0 }), "no blocks")
	add(false, put64(format.OffBlocks, func(nb uint64) uint64 { return nb + 1 }), "one block more")
	add(false, put64(format.OffBlocks, func(nb uint64) uint64 { return nb - 1 }), "one block less")
	// nb<<6 wraps to the payload's length: only the MaxBlocks check sees it.
	add(false, put64(format.OffBlocks, func(nb uint64) uint64 { return nb + 1<<58 }), "blocks + 2^58")
	add(false, put64(format.OffBlocks, func(nb uint64) uint64 { return nb + MaxBlocks }), "blocks + MaxBlocks")
	add(false, put64(format.OffBlocks, func(nb uint64) uint64 { return nb | 1<<63 }), "blocks | 2^63")
	add(false, put64(format.OffPayloadLen, func(n uint64) uint64 { return n + 64 }), "payload length + 64")
	add(false, put64(format.OffPayloadLen, func(n uint64) uint64 { return n - 64 }), "payload length - 64")
	add(false, put64(format.OffPayloadLen, func(n uint64) uint64 { return n ^ 1<<40 }), "payload length ^ 2^40")
	add(false, put64(format.OffPayloadLen, func(n uint64) uint64 { return n + 1<<58 }), "payload length + 2^58")
	add(true, func(b []byte) []byte { b[format.OffHeaderCRC] ^= 1; return b }, "header checksum")
	add(true, func(b []byte) []byte { b[format.OffPayloadCRC] ^= 1; return refix(b) }, "payload checksum")
	add(true, func(b []byte) []byte { b[format.OffIncompat+4] = 0xff; b[format.OffHeaderCRC-1] = 1; return refix(b) }, "reserved bytes")
	add(true, func(b []byte) []byte { b[format.OffHash] ^= 3; return refix(b) }, "key hash")

	forEachLevel(t, func(t *testing.T) {
		hs := randomHashes(100, 48)
		for _, k := range []int{8, 16} {
			for _, nb := range []uint64{1, 3} {
				f := mustBytes(t, nb*64, k)
				f.AddHashes(hs)
				good, err := f.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range ms {
					for _, off := range []int{0, 5} {
						b := m.do(bytes.Clone(good))
						b = alignedCopy(b, off)[:len(b):len(b)]
						var v FilterView
						rerr := v.Reset(b)
						if (rerr == nil) != m.ok {
							t.Fatalf("k = %d, %d blocks, %s: Reset %v", k, nb, m.name, rerr)
						}
						for _, h := range hs[:8] {
							got, err := LookupHash(b, h)
							if (err == nil) != (rerr == nil) || (err != nil && err.Error() != rerr.Error()) {
								t.Fatalf("k = %d, %d blocks, %s: LookupHash error %v, Reset's %v", k, nb, m.name, err, rerr)
							}
							if got != v.HasHash(h) || (err == nil && b[format.OffK] == byte(k) && !got) {
								t.Fatalf("k = %d, %d blocks, %s: LookupHash %v, the reset view %v", k, nb, m.name, got, v.HasHash(h))
							}
						}
					}
				}
			}
		}
	})
}
