package cuckoo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"io"
	"os"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/alloc/hugetest"
	"github.com/simdbloom/bloom/internal/format"

	"github.com/simdbloom/bloom/internal/errs"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden (little-endian machines only)")

// filled returns a filter of buckets buckets of geometry g holding n
// hashes derived from seed, and the hashes.
func filled(t testing.TB, buckets uint64, g geometry, n int, seed uint64) (*Filter, []uint64) {
	f := mustBuckets(t, buckets, g.fb, g.l)
	f.SetKeyHash(blocked.HashXXH3)
	hs := make([]uint64, n)
	for i := range hs {
		x := (seed<<32 | uint64(i)) * 0x9e3779b97f4a7c15
		hs[i] = x ^ x>>31
		if err := f.AddHash(hs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return f, hs
}

func encode(t testing.TB, f *Filter) []byte {
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEncodingRoundTrip encodes filters of every fingerprint width in every
// way and decodes them (into zero values): same bytes, same hashes present,
// and the same table after the same further adds (the victim generator's
// state travels too). A stream of encodings reads back until io.EOF.
func TestEncodingRoundTrip(t *testing.T) {
	var stream bytes.Buffer
	var all [][]byte
	for _, geo := range geometries {
		fb := geo.fb
		f, hs := filled(t, 61, geo, 150, uint64(fb))
		b := encode(t, f)
		all = append(all, b)
		if err := blocked.Verify(b); err != nil {
			t.Fatal(err)
		}
		h, err := format.Parse(b, 0)
		if err != nil || int(h.K) != fb || h.Blocks != 61 || blocked.HashID(h.Hash) != blocked.HashXXH3 || h.PayloadBytes != 32+(61*bucketBits(fb, geo.l)+7)/8 {
			t.Fatalf("header %+v, %v", h, err)
		}
		a, _ := f.AppendBinary([]byte{1, 2})
		if !bytes.Equal(a[2:], b) {
			t.Fatal("AppendBinary differs")
		}
		var w bytes.Buffer
		if n, err := f.WriteTo(&w); err != nil || n != int64(len(b)) || !bytes.Equal(w.Bytes(), b) {
			t.Fatalf("WriteTo: %d %v", n, err)
		}
		stream.Write(b)
		var g Filter
		if err := g.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if !g.Equal(f) || g.KeyHash() != f.KeyHash() {
			t.Fatal("decoded filter differs")
		}
		for _, h := range hs {
			if !g.HasHash(h) {
				t.Fatal("false negative after decoding")
			}
		}
		for i := range 400 { // past the first errFull: same moves, same failures
			h := uint64(i) * 0xbf58476d1ce4e5b9
			if e1, e2 := f.AddHash(h), g.AddHash(h); (e1 == nil) != (e2 == nil) {
				t.Fatalf("add %d: %v vs %v", i, e1, e2)
			}
		}
		if !bytes.Equal(encode(t, f), encode(t, &g)) {
			t.Fatal("a decoded filter continues differently")
		}
	}
	r := bytes.NewReader(stream.Bytes())
	for i := 0; ; i++ {
		var g Filter
		n, err := g.ReadFrom(r)
		if err == io.EOF {
			if n != 0 || i != len(all) {
				t.Fatalf("io.EOF after %d encodings, %d bytes", i, n)
			}
			break
		}
		if err != nil || !bytes.Equal(encode(t, &g), all[i]) {
			t.Fatalf("encoding %d: %v", i, err)
		}
	}
	var z Filter
	if _, err := z.MarshalBinary(); !errors.Is(err, errs.ErrGeometry) {
		t.Fatalf("MarshalBinary of a zero Filter: %v", err)
	}
}

// TestEncodingCrafted changes fields with the checksums made right: each is
// refused with the documented error and the receiver is unchanged.
func TestEncodingCrafted(t *testing.T) {
	f, _ := filled(t, 17, geometry{12, SemiSorted}, 40, 1) // 17 x 44 bits: 4 bits of padding
	good := encode(t, f)
	le := binary.LittleEndian
	p := format.HeaderSize
	cases := []struct {
		name   string
		damage func(b []byte)
		want   []error
	}{
		{"layout 4 (a later version)", func(b []byte) { b[17] = 4 }, []error{errs.ErrVersion}},
		{"layout 1 (an earlier draft)", func(b []byte) { b[17] = 1 }, []error{errs.ErrVersion}},
		{"layout 0", func(b []byte) { b[17] = 0 }, []error{errs.ErrCorrupt}},
		{"plain layout", func(b []byte) { b[17] = format.CuckooLayoutPlain }, []error{errs.ErrCorrupt}},
		{"8 slots", func(b []byte) { b[18] = 8 }, []error{errs.ErrCorrupt, errs.ErrGeometry}},
		{"parameter byte", func(b []byte) { b[23] = 1 }, []error{errs.ErrCorrupt}},
		{"3-bit fingerprints", func(b []byte) { b[7] = 3 }, []error{errs.ErrCorrupt, errs.ErrGeometry}},
		{"33-bit fingerprints", func(b []byte) { b[7] = 33 }, []error{errs.ErrCorrupt, errs.ErrGeometry}},
		{"0 buckets", func(b []byte) { le.PutUint64(b[8:], 0) }, []error{errs.ErrCorrupt, errs.ErrGeometry}},
		{"2^33 buckets", func(b []byte) { le.PutUint64(b[8:], 1<<33) }, []error{errs.ErrCorrupt, errs.ErrTooLarge}},
		{"payload length", func(b []byte) { le.PutUint64(b[24:], le.Uint64(b[24:])+6) }, []error{errs.ErrCorrupt}},
		{"padding bits", func(b []byte) { b[len(b)-1] |= 0x80 }, []error{errs.ErrCorrupt}},
		{"code 3876", func(b []byte) {
			t := b[p+format.CuckooPrefixBytes:]
			t[0], t[1] = numCodes&0xff, t[1]&0xf0|numCodes>>8
		}, []error{errs.ErrCorrupt}},
		{"code 4095", func(b []byte) {
			t := b[p+format.CuckooPrefixBytes:]
			t[0], t[1] = 0xff, t[1]|0x0f
		}, []error{errs.ErrCorrupt}},
		{"count one more", func(b []byte) { le.PutUint64(b[p+8:], uint64(f.EstimatedCount())+1) }, []error{errs.ErrCorrupt}},
		{"count one less", func(b []byte) { le.PutUint64(b[p+8:], uint64(f.EstimatedCount())-1) }, []error{errs.ErrCorrupt}},
		{"a slot emptied", func(b []byte) {
			t := b[p+format.CuckooPrefixBytes:]
			for i := range t {
				if t[i] != 0 {
					t[i] = 0 // 12-bit lanes: clears at least part of one slot
					break
				}
			}
		}, nil},
		{"planned 0", func(b []byte) { le.PutUint64(b[p:], 0) }, []error{errs.ErrCorrupt}},
		{"generator 0", func(b []byte) { le.PutUint64(b[p+16:], 0) }, []error{errs.ErrCorrupt}},
		{"reserved word", func(b []byte) { b[p+24] = 1 }, []error{errs.ErrCorrupt}},
		{"variant", func(b []byte) { b[6] = 1 }, []error{errs.ErrVariant}},
	}
	for _, tc := range cases {
		b := bytes.Clone(good)
		tc.damage(b)
		binary.LittleEndian.PutUint32(b[32:], format.CRC(b[format.HeaderSize:]))
		binary.LittleEndian.PutUint32(b[60:], format.CRC(b[:60]))
		dst, _ := filled(t, 8, geometry{8, Plain}, 5, 2)
		before := encode(t, dst)
		err := dst.UnmarshalBinary(b)
		if tc.want == nil { // may decode or not, but consistently
			if err == nil && uint64(dst.EstimatedCount()) != countSlots(dst) {
				t.Errorf("%s: accepted with a wrong count", tc.name)
			}
			continue
		}
		for _, w := range tc.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: %v, want %v", tc.name, err, w)
			}
		}
		if !bytes.Equal(encode(t, dst), before) {
			t.Errorf("%s: the receiver changed", tc.name)
		}
		if _, err := dst.ReadFrom(bytes.NewReader(b)); err == nil {
			t.Errorf("%s: ReadFrom accepted", tc.name)
		}
	}
	if err := new(Filter).UnmarshalBinary(good[:len(good)-1]); !errors.Is(err, errs.ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
	// A semi-sorted bucket whose fingerprints are out of order (the code
	// cannot show it: only the low bits of equal nibbles can be).
	g := mustBuckets(t, 9, 13, SemiSorted)
	g.setBits(codeBits+2*uint64(g.rest), g.rest, 5)
	g.setBits(codeBits+3*uint64(g.rest), g.rest, 3)
	g.count = 2
	if err := new(Filter).UnmarshalBinary(encode(t, g)); !errors.Is(err, errs.ErrCorrupt) {
		t.Errorf("unsorted bucket: %v", err)
	}
	g.setBits(codeBits+2*uint64(g.rest), g.rest, 3)
	g.setBits(codeBits+3*uint64(g.rest), g.rest, 5)
	if err := new(Filter).UnmarshalBinary(encode(t, g)); err != nil {
		t.Errorf("the same bucket sorted: %v", err)
	}
}

// countSlots returns the occupied slots of f, read bit by bit.
func countSlots(f *Filter) uint64 {
	var n uint64
	for _, s := range f.refSlots() {
		n += b2u(s != 0)
	}
	return n
}

// goldens are the golden files and the filters they hold.
var goldens = []struct {
	file    string
	buckets uint64
	g       geometry
}{
	{"testdata/golden/cuckoo.sblm", 37, geometry{13, SemiSorted}},
	{"testdata/golden/cuckoo-plain.sblm", 37, geometry{11, Plain}},
}

// TestGoldenCuckoo compares filters built from known hashes with the
// encodings the amd64 build wrote (go test -run GoldenCuckoo -update
// ./cuckoo), byte for byte, and decodes the files. Run on s390x under qemu
// it proves the big-endian build writes and reads the same bytes.
func TestGoldenCuckoo(t *testing.T) {
	for _, gf := range goldens {
		f, hs := filled(t, gf.buckets, gf.g, 110, 9)
		for _, h := range hs[:10] {
			f.RemoveHash(h)
		}
		b := encode(t, f)
		if *updateGolden {
			if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
				t.Fatal("write golden files on a little-endian machine")
			}
			if err := os.MkdirAll("testdata/golden", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(gf.file, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(gf.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, want) {
			t.Fatalf("encoding differs from %s", gf.file)
		}
		var g Filter
		if err := g.UnmarshalBinary(want); err != nil {
			t.Fatal(err)
		}
		for _, h := range hs[10:] {
			if !g.HasHash(h) {
				t.Fatal("golden filter misses a hash")
			}
		}
		if uint64(g.EstimatedCount()) != 100 || g.Layout() != gf.g.l || g.NumBuckets() != gf.buckets {
			t.Fatalf("golden filter holds %d fingerprints, want 100", uint64(g.EstimatedCount()))
		}
	}
}

// FuzzDecode feeds arbitrary bytes to UnmarshalBinary and ReadFrom: no
// panic, only the format's errors, and an accepted filter re-encodes to the
// same bytes.
func FuzzDecode(f *testing.F) {
	for _, geo := range shortGeometries {
		g, _ := filled(f, 9, geo, 15, uint64(geo.fb))
		b := encode(f, g)
		f.Add(b)
		f.Add(b[:len(b)-3])
	}
	f.Add([]byte{})
	sentinels := []error{errs.ErrMagic, errs.ErrVersion, errs.ErrVariant, errs.ErrChecksum, errs.ErrTruncated, errs.ErrCorrupt}
	check := func(t *testing.T, err error) {
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("%v is none of the format's errors", err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter
		if err := g.UnmarshalBinary(data); err != nil {
			check(t, err)
		} else if !bytes.Equal(encode(t, &g), data) {
			t.Fatal("accepted encoding does not re-encode to itself")
		}
		var r Filter
		if _, err := r.ReadFrom(bytes.NewReader(data)); err != nil && err != io.EOF {
			check(t, err)
		}
	})
}

// TestDecodedHugePages: a decoded table of alloc.HugeFrom bytes or more
// (UnmarshalBinary, ReadFrom of a reader that tells its length and of a
// stream) gets its memory as New does, from internal/alloc: at a 2 MiB
// boundary and advised for huge pages (on Linux; hugetest calibrates).
func TestDecodedHugePages(t *testing.T) {
	f := mustBuckets(t, alloc.HugeFrom/16+100, 32, Plain) // 16 bytes a bucket
	for i := range uint64(3000) {
		if err := f.AddHash(i * 0x9e3779b97f4a7c15); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, g *Filter) {
		t.Helper()
		if !g.Equal(f) {
			t.Errorf("%s: not equal to the filter encoded", what)
		}
		hugetest.Check(t, what, unsafe.Pointer(unsafe.SliceData(g.data)), uint64(len(g.data)))
	}
	check("New", f)
	var g Filter
	if err := g.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	check("UnmarshalBinary", &g)
	for name, r := range map[string]io.Reader{
		"ReadFrom":            bytes.NewReader(enc),
		"ReadFrom (streamed)": struct{ io.Reader }{bytes.NewReader(enc)},
	} {
		var g Filter
		if _, err := g.ReadFrom(r); err != nil {
			t.Fatal(err)
		}
		check(name, &g)
	}
}
