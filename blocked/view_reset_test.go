package blocked

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/simdbloom/bloom/internal/format"

	"github.com/simdbloom/bloom/internal/errs"
)

// resetter is a view value made by Reset, as the tests use one.
type resetter interface {
	looker
	Reset(b []byte) error
	keyHash() HashID
	numBlocks() uint64
}

// resetView returns a new zero view of c's variant.
func resetView(c codec) resetter {
	switch c.variant {
	case variantSplitBlock:
		return new(SplitBlockView)
	case variantCounting:
		return new(CountingView)
	}
	return new(FilterView)
}

// TestViewResetAnyAlignment checks that Reset, View and LookupHash accept a
// payload at every offset from a 64-byte boundary and answer, one key and
// batch, exactly as the filter does, at every kernel level.
func TestViewResetAnyAlignment(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	hs := randomHashes(300, 41)
	probe := randomHashes(3000, 42)
	for _, c := range codecs {
		f := c.build(t, 37, hs)
		good, _ := marshalHash(f, HashXXH3)
		want := make([]bool, len(probe))
		nw := batchHas(f, probe, want)
		for off := range 64 {
			b := alignedCopy(good, off)
			v := resetView(c)
			if err := v.Reset(b); err != nil {
				t.Fatalf("%s: Reset at offset %d: %v", c.name, off, err)
			}
			if v.keyHash() != HashXXH3 {
				t.Fatalf("%s: Reset's key hash %v", c.name, v.keyHash())
			}
			w, err := c.view(b)
			if err != nil {
				t.Fatalf("%s: View at offset %d: %v", c.name, off, err)
			}
			for i, h := range probe {
				if v.HasHash(h) != want[i] || w.HasHash(h) != want[i] {
					t.Fatalf("%s at offset %d: lookup %d differs from the filter's", c.name, off, i)
				}
				if c.variant == variantFilter {
					if got, err := LookupHash(b, h); err != nil || got != want[i] {
						t.Fatalf("%s at offset %d: LookupHash %d: %v, %v", c.name, off, i, got, err)
					}
				}
			}
			if off%9 != 0 {
				continue // the batch kernels at every level: a few offsets suffice
			}
			forEachLevel(t, func(t *testing.T) {
				got := make([]bool, len(probe))
				if n := v.HasHashes(probe, got); n != nw || !slicesEqual(got, want) {
					t.Fatalf("%s at offset %d: batch finds %d, filter %d", c.name, off, n, nw)
				}
			})
		}
	}
}

func slicesEqual(a, b []bool) bool { return bytes.Equal(boolBytes(a), boolBytes(b)) }

func boolBytes(a []bool) []byte {
	b := make([]byte, len(a))
	for i, v := range a {
		if v {
			b[i] = 1
		}
	}
	return b
}

// TestViewResetAllocs checks that Reset, the lookups of a reset view and
// LookupHash allocate nothing, for every variant, at an unaligned offset.
func TestViewResetAllocs(t *testing.T) {
	if !littleEndian || !unalignedOK {
		t.Skip("an unaligned view copies on this platform")
	}
	hs := randomHashes(500, 43)
	out := make([]bool, len(hs))
	for _, c := range codecs {
		good, _ := c.build(t, 64, hs).MarshalBinary()
		b := alignedCopy(good, 3)
		v := resetView(c)
		n := testing.AllocsPerRun(100, func() {
			if err := v.Reset(b); err != nil {
				t.Fatal(err)
			}
			for _, h := range hs[:16] {
				if !v.HasHash(h) {
					t.Fatal("false negative")
				}
			}
			if v.HasHashes(hs, out) != len(hs) {
				t.Fatal("false negative")
			}
		})
		if n != 0 {
			t.Errorf("%s: Reset and lookups allocate %v times", c.name, n)
		}
		if c.variant == variantFilter {
			n := testing.AllocsPerRun(100, func() {
				if ok, err := LookupHash(b, hs[7]); !ok || err != nil {
					t.Fatal(ok, err)
				}
			})
			if n != 0 {
				t.Errorf("%s: LookupHash allocates %v times", c.name, n)
			}
		}
	}
}

// TestViewResetChecks checks what Reset refuses and what it leaves to
// Verify: hostile sizes (more blocks than bytes, a payload length that
// disagrees, a k the kernels do not know, trailing or missing bytes) are
// errors, the same as View's, and leave the zero view; a damaged header or
// payload checksum is not Reset's business.
func TestViewResetChecks(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	hs := randomHashes(100, 44)
	for _, c := range codecs {
		good, _ := c.build(t, 5, hs).MarshalBinary()
		put64 := func(off int, v uint64) func(b []byte) []byte {
			return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b }
		}
		set := func(off int, v byte) func(b []byte) []byte {
			return func(b []byte) []byte { b[off] = v; return b }
		}
		bad := []struct {
			name string
			edit func(b []byte) []byte
			want error
		}{
			{"short", func(b []byte) []byte { return b[:headerSize-1] }, errs.ErrTruncated},
			{"empty", func(b []byte) []byte { return b[:0] }, errs.ErrTruncated},
			{"header only", func(b []byte) []byte { return b[:headerSize] }, errs.ErrTruncated},
			{"one byte short", func(b []byte) []byte { return b[:len(b)-1] }, errs.ErrTruncated},
			{"one byte long", func(b []byte) []byte { return append(b, 0) }, errs.ErrCorrupt},
			{"magic", set(1, 'X'), errs.ErrMagic},
			{"version", set(format.OffVersion, 2), errs.ErrVersion},
			{"variant", set(format.OffVariant, 9), errs.ErrVariant},
			{"k", set(format.OffK, 7), errs.ErrGeometry},
			{"k 16", set(format.OffK, 16), nil},
			{"more blocks than bytes", put64(format.OffBlocks, 6), errs.ErrCorrupt},
			{"blocks and length both grown", func(b []byte) []byte {
				put64(format.OffBlocks, 1<<20)(b)
				return put64(format.OffPayloadLen, 1<<20*c.variant.blockBytes())(b)
			}, errs.ErrTruncated},
			{"2^32+1 blocks", put64(format.OffBlocks, 1<<32+1), errs.ErrTooLarge},
			{"zero blocks", put64(format.OffBlocks, 0), errs.ErrGeometry},
			{"payload length", put64(format.OffPayloadLen, 64), errs.ErrCorrupt},
			{"unknown incompatible flag", set(format.OffIncompat, 2), errs.ErrVersion},
		}
		for _, tc := range bad {
			if tc.name == "k 16" {
				if c.variant == variantFilter {
					continue // k = 16 is a Filter's
				}
				tc.want = errs.ErrGeometry
			}
			b := tc.edit(bytes.Clone(good))
			if len(b) >= headerSize {
				refix(b) // so that the header CRC is not what fails
			}
			b = alignedCopy(b, 1)
			v := resetView(c)
			if err := v.Reset(good); err != nil {
				t.Fatal(err)
			}
			err := v.Reset(b)
			if !errors.Is(err, tc.want) {
				t.Errorf("%s, %s: Reset: %v, want %v", c.name, tc.name, err, tc.want)
			}
			if v.numBlocks() != 0 || v.HasHash(hs[0]) {
				t.Errorf("%s, %s: a refused Reset leaves a non-zero view", c.name, tc.name)
			}
			if _, verr := c.view(b); verr == nil || verr.Error() != err.Error() {
				t.Errorf("%s, %s: Reset says %v, View %v", c.name, tc.name, err, verr)
			}
		}
		// Left to Verify: the checksums, the reserved bytes.
		for name, edit := range map[string]func(b []byte) []byte{
			"header CRC":  set(format.OffHeaderCRC, good[format.OffHeaderCRC]^1),
			"payload CRC": func(b []byte) []byte { b[headerSize] ^= 0xff; return b },
			"reserved":    set(format.OffHeaderCRC-2, 1),
		} {
			b := edit(bytes.Clone(good))
			v := resetView(c)
			if err := v.Reset(b); err != nil {
				t.Errorf("%s, damaged %s: Reset: %v, want nil (Verify's job)", c.name, name, err)
			}
			if Verify(b) == nil {
				t.Errorf("%s, damaged %s: Verify passes", c.name, name)
			}
		}
	}
}

// TestAppendFilter checks that AppendFilter builds the bytes New, AddHashes
// and AppendBinary give, after dst's contents, at any offset and whatever
// dst's spare capacity held, with at most one allocation (none when dst has
// room), and refuses bad geometry leaving dst unchanged.
func TestAppendFilter(t *testing.T) {
	hs := randomHashes(2000, 45)
	for _, k := range []int{8, 16} {
		for _, nb := range []uint64{1, 3, 40} {
			f := mustBytes(t, nb*64, k)
			f.AddHashes(hs)
			f.SetKeyHash(HashXXH3)
			want, _ := f.MarshalBinary()
			for _, pre := range []int{0, 1, 5, 64} {
				dst := bytes.Repeat([]byte{0xa5}, pre)
				got, err := AppendFilter(dst, nb, k, hs, BuildOptions{Hash: HashXXH3})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got[:pre], dst) || !bytes.Equal(got[pre:], want) {
					t.Fatalf("k=%d nb=%d after %d bytes: AppendFilter differs from AppendBinary", k, nb, pre)
				}
				// Spare capacity full of ones is cleared first.
				room := bytes.Repeat([]byte{0xff}, pre+len(want)+7)[:pre]
				got, _ = AppendFilter(room, nb, k, hs, BuildOptions{Hash: HashXXH3})
				if !bytes.Equal(got[pre:], want) {
					t.Fatalf("k=%d nb=%d: AppendFilter kept bytes of dst's spare capacity", k, nb)
				}
			}
		}
	}
	n := testing.AllocsPerRun(20, func() { _, _ = AppendFilter(nil, 40, 8, hs, BuildOptions{}) })
	if want := 1.0; n != want && (littleEndian || n > 2) { // big-endian: a native filter, then converted
		t.Errorf("AppendFilter into nil: %v allocations, want %v", n, want)
	}
	buf := make([]byte, 0, headerSize+40*64)
	n = testing.AllocsPerRun(20, func() { _, _ = AppendFilter(buf, 40, 8, hs, BuildOptions{NoPayloadCRC: true}) })
	if n != 0 && littleEndian {
		t.Errorf("AppendFilter with room: %v allocations, want 0", n)
	}
	dst := []byte{1, 2, 3}
	for _, tc := range []struct {
		nb   uint64
		k    int
		want error
	}{{0, 8, errs.ErrGeometry}, {1, 9, errs.ErrGeometry}, {MaxBlocks + 1, 8, errs.ErrTooLarge}} {
		got, err := AppendFilter(dst, tc.nb, tc.k, hs, BuildOptions{})
		if !errors.Is(err, tc.want) || !bytes.Equal(got, dst) {
			t.Errorf("AppendFilter(%d blocks, k=%d): %v, %v bytes; want %v and dst unchanged", tc.nb, tc.k, err, len(got), tc.want)
		}
	}
}

// TestNoPayloadCRC checks the encoding without a payload CRC: it carries
// the flag and a zero CRC field, every reader accepts it (checking the
// header), none reports a checksum failure for the missing CRC, a CRC
// field that is not zero under the flag is bloom.ErrCorrupt, and re-encoding
// writes a CRC again.
func TestNoPayloadCRC(t *testing.T) {
	hs := randomHashes(700, 46)
	b, err := AppendFilter(nil, 20, 8, hs, BuildOptions{Hash: HashXXH3, NoPayloadCRC: true})
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	if h.HasPayloadCRC() || h.PayloadCRC != 0 || h.IncompatFlags != 1 || h.CompatFlags != 0 {
		t.Fatalf("header %+v: want the no-CRC flag (incompatible bit 0) and a zero CRC", h)
	}
	withCRC, _ := AppendFilter(nil, 20, 8, hs, BuildOptions{Hash: HashXXH3})
	if wh, _ := parseHeader(withCRC); !wh.HasPayloadCRC() || wh.PayloadCRC == 0 {
		t.Fatalf("the default encoding has no payload CRC: %+v", wh)
	}
	if !bytes.Equal(b[headerSize:], withCRC[headerSize:]) {
		t.Fatal("the option changes the payload")
	}
	if err := Verify(b); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	var f Filter
	if err := f.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	checkHas(t, "decoded", &f, hs)
	var g Filter
	if _, err := g.ReadFrom(noLenReader{bytes.NewReader(b)}); err != nil {
		t.Fatalf("ReadFrom: %v", err)
	}
	checkHas(t, "read", &g, hs)
	if again, _ := f.MarshalBinary(); !bytes.Equal(again, withCRC) {
		t.Fatal("re-encoding does not write the CRC back")
	}
	if littleEndian {
		var v FilterView
		if err := v.Reset(b); err != nil {
			t.Fatalf("Reset: %v", err)
		}
		checkHas(t, "view", &v, hs)
		if _, err := newView(b); err != nil {
			t.Fatalf("View: %v", err)
		}
	}
	// A CRC field under the flag is refused, not silently ignored.
	bad := bytes.Clone(b)
	binary.LittleEndian.PutUint32(bad[format.OffPayloadCRC:], 0x12345678)
	refix(bad)
	if err := Verify(bad); !errors.Is(err, errs.ErrCorrupt) {
		t.Errorf("Verify of a CRC field under the no-CRC flag: %v, want errs.ErrCorrupt", err)
	}
	if err := new(Filter).UnmarshalBinary(bad); !errors.Is(err, errs.ErrCorrupt) {
		t.Errorf("UnmarshalBinary of a CRC field under the no-CRC flag: %v, want errs.ErrCorrupt", err)
	}
	// The flag is covered by the header CRC: clearing it without fixing
	// the header is bloom.ErrChecksum of the header, and clearing it with the
	// header fixed makes the zero field a payload CRC that fails.
	cleared := bytes.Clone(b)
	cleared[format.OffIncompat] = 0
	if err := Verify(cleared); !errors.Is(err, errs.ErrChecksum) {
		t.Errorf("flag cleared: %v, want errs.ErrChecksum", err)
	}
}

// TestGoldenNoPayloadCRC pins the no-payload-CRC form of the format: the
// golden file is rewritten by -update (go test -run Golden -update), read
// back by every decoder, and rebuilt byte for byte.
func TestGoldenNoPayloadCRC(t *testing.T) {
	path := filepath.Join("testdata", "golden", "filter-nocrc.sblm")
	hs := randomHashes(50, 105)
	fresh, err := AppendFilter(nil, 6, 8, hs, BuildOptions{Hash: HashXXH3, NoPayloadCRC: true})
	if err != nil {
		t.Fatal(err)
	}
	if *updateGolden {
		if !littleEndian {
			t.Fatal("golden files are written on little-endian machines only")
		}
		if err := os.WriteFile(path, fresh, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, want) {
		t.Fatal("AppendFilter with NoPayloadCRC no longer writes the golden bytes")
	}
	if binary.LittleEndian.Uint32(want[format.OffIncompat:]) != 1 || binary.LittleEndian.Uint32(want[format.OffPayloadCRC:]) != 0 {
		t.Fatal("the golden file lacks the no-CRC flag or has a CRC")
	}
	var f Filter
	if err := f.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	checkHas(t, "golden", &f, hs)
}
