package blocked

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/simdbloom/bloom/internal/format"

	"github.com/simdbloom/bloom/internal/errs"
)

// The fuzz targets take any bytes and, when fix is set, first recompute both
// checksums, so that the fuzzer gets past them into the header fields and
// the payload. They check that decoding never panics, fails only with the
// package's sentinel errors, and that whatever it accepts re-encodes to
// exactly the input.

// sentinels are the errors decoding may report.
var sentinels = []error{errs.ErrMagic, errs.ErrVersion, errs.ErrVariant, errs.ErrChecksum, errs.ErrTruncated, errs.ErrCorrupt, errs.ErrByteOrder}

func checkSentinel(t *testing.T, how string, err error) {
	t.Helper()
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%s: error %v is none of the sentinel errors", how, err)
}

// fuzzSeeds adds valid encodings of every variant and near misses.
func fuzzSeeds(f *testing.F, add func(b []byte)) {
	hs := randomHashes(64, 21)
	for _, c := range codecs {
		for _, nb := range []uint64{1, 2, 5} {
			good, _ := marshalHash(c.build(f, nb, hs), HashXXH3)
			add(good)
			add(good[:len(good)-1])
			add(good[:headerSize])
			add(append(bytes.Clone(good), 0))
			for _, edit := range []func(b []byte){
				func(b []byte) { b[format.OffK] = 16 },
				func(b []byte) { b[format.OffVariant] ^= 3 },
				func(b []byte) { binary.LittleEndian.PutUint64(b[format.OffBlocks:], 0) },
				func(b []byte) { binary.LittleEndian.PutUint64(b[format.OffBlocks:], 1<<32) },
				func(b []byte) { binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], 1<<63) },
				func(b []byte) { b[headerSize] ^= 1 },
				func(b []byte) { b[format.OffCompat] = 1 },                                                            // ignored
				func(b []byte) { b[format.OffIncompat] = 2 },                                                          // errs.ErrVersion
				func(b []byte) { b[format.OffIncompat] = 1 },                                                          // no payload CRC, but the field is set: errs.ErrCorrupt
				func(b []byte) { b[format.OffIncompat] = 1; clear(b[format.OffPayloadCRC : format.OffPayloadCRC+4]) }, // no payload CRC
				func(b []byte) { b[format.OffVariant] = 4 },                                                           // reserved: cuckoo
				func(b []byte) { b[format.OffVariant] = 5 },                                                           // reserved: scalable
			} {
				b := bytes.Clone(good)
				edit(b)
				add(refix(b))
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.sblm"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			add(b)
		}
	}
	add(nil)
	add([]byte(magic))
}

// withoutCompat returns a copy of the accepted encoding b with the
// compatible flags a writer does not keep cleared (and the header CRC
// fixed), and the payload CRC written if b had none: what a writer writes
// back. Filter and Counting keep the key family (bits 0..1); every other
// bit, and a SplitBlock's key family, is cleared.
func withoutCompat(b []byte) []byte {
	c := bytes.Clone(b)
	keep := uint32(0)
	if v := variant(c[format.OffVariant]); v == variantFilter || v == variantCounting || v == variantSplitBlock {
		keep = format.CompatKeyMask
	}
	binary.LittleEndian.PutUint32(c[format.OffCompat:], binary.LittleEndian.Uint32(c[format.OffCompat:])&keep)
	if c[format.OffIncompat]&1 != 0 { // no payload CRC: a writer puts one back
		c[format.OffIncompat] &^= 1
		return refixAll(c)
	}
	return refix(c)
}

// reencodes checks that e, decoded from in, encodes back to exactly in (less
// any compatible flags, which a writer clears) with in's key hash.
func reencodes(t *testing.T, how string, e encodable, in []byte) {
	t.Helper()
	h, err := parseHeader(in)
	if err != nil {
		t.Fatalf("%s accepted input whose header fails: %v", how, err)
	}
	if e.KeyHash() != h.Hash {
		t.Fatalf("%s: decoded key hash %v, header says %v", how, e.KeyHash(), h.Hash)
	}
	in = withoutCompat(in)
	out, err := e.MarshalBinary()
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("%s: accepted input does not re-encode to itself (err %v)", how, err)
	}
	if err := Verify(out); err != nil {
		t.Fatalf("%s: re-encoding fails Verify: %v", how, err)
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	fuzzSeeds(f, func(b []byte) { f.Add(b, false); f.Add(b, true) })
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			data = refixAll(bytes.Clone(data))
		}
		accepted := 0
		for _, c := range codecs[1:] { // filter-k8 and filter-k16 decode alike
			e := c.fresh()
			if err := e.UnmarshalBinary(data); err != nil {
				checkSentinel(t, c.name, err)
				continue
			}
			accepted++
			reencodes(t, c.name, e, data)
			e.HasHash(0)
			e.HasHash(^uint64(0))
		}
		if accepted > 1 {
			t.Fatal("input accepted as more than one variant")
		}
		if (Verify(data) == nil) != (accepted == 1) {
			t.Fatalf("Verify and UnmarshalBinary disagree (accepted %d)", accepted)
		}
	})
}

func FuzzReadFrom(f *testing.F) {
	fuzzSeeds(f, func(b []byte) { f.Add(b, false); f.Add(b, true) })
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			data = refixAll(bytes.Clone(data))
		}
		for _, c := range codecs[1:] {
			e := c.fresh()
			n, err := decodeFrom(e, noLenReader{bytes.NewReader(data)})
			if n < 0 || n > int64(len(data)) {
				t.Fatalf("%s: read %d bytes of %d", c.name, n, len(data))
			}
			if err == io.EOF && n == 0 && len(data) == 0 {
				continue // the clean end of a stream
			}
			if err != nil {
				checkSentinel(t, c.name, err)
				continue
			}
			reencodes(t, c.name, e, data[:n])
			e2 := c.fresh() // with a Len hint: the same result
			if n2, err := decodeFrom(e2, bytes.NewReader(data)); err != nil || n2 != n {
				t.Fatalf("%s: with Len: n=%d err=%v, without: n=%d", c.name, n2, err, n)
			}
		}
	})
}

func FuzzView(f *testing.F) {
	fuzzSeeds(f, func(b []byte) { f.Add(b, false, uint8(0)); f.Add(b, true, uint8(0)); f.Add(b, true, uint8(8)) })
	f.Fuzz(func(t *testing.T, data []byte, fix bool, off uint8) {
		if fix {
			data = refixAll(bytes.Clone(data))
		}
		b := alignedCopy(data, int(off%64))
		hs := randomHashes(16, uint64(len(data)))
		out := make([]bool, len(hs))
		for _, c := range codecs[1:] {
			if r := resetView(c); r.Reset(b) == nil { // hostile bytes: no read outside b
				for _, h := range hs {
					r.HasHash(h)
				}
				r.HasHashes(hs, out)
			}
			v, err := c.view(b)
			if err != nil {
				checkSentinel(t, c.name, err)
				continue
			}
			if !littleEndian {
				t.Fatalf("%s: View accepted input on a big-endian machine", c.name)
			}
			// Reset, the light check, accepts whatever View accepts and
			// answers the same.
			r := resetView(c)
			if err := r.Reset(b); err != nil {
				t.Fatalf("%s: View accepts what Reset refuses: %v", c.name, err)
			}
			for _, h := range hs {
				if r.HasHash(h) != v.HasHash(h) {
					t.Fatalf("%s: Reset and View answer differently", c.name)
				}
			}
			for _, h := range hs {
				v.HasHash(h)
			}
			switch v := v.(type) {
			case *FilterView:
				v.HasHashes(hs, out)
			case *SplitBlockView:
				v.HasHashes(hs, out)
			case *CountingView:
				v.HasHashes(hs, out)
			}
		}
	})
}
