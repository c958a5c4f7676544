package blocked

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/simdbloom/bloom/internal/format"

	"github.com/simdbloom/bloom/internal/errs"
)

// TestFlags checks the header's flag words: a compatible bit is ignored by
// every decoder (and cleared when the filter is written again, but for the
// key family of a Filter, Counting or SplitBlock, which it keeps), an
// incompatible bit is bloom.ErrVersion, and encodings written today have both zero.
func TestFlags(t *testing.T) {
	hs := randomHashes(200, 31)
	for _, c := range codecs {
		good, _ := marshalHash(c.build(t, 4, hs), 200)
		if binary.LittleEndian.Uint32(good[format.OffCompat:]) != 0 || binary.LittleEndian.Uint32(good[format.OffIncompat:]) != 0 {
			t.Fatalf("%s: a writer set flags", c.name)
		}
		for bit := range 32 {
			compat := bytes.Clone(good)
			binary.LittleEndian.PutUint32(compat[format.OffCompat:], 1<<bit)
			refix(compat)
			if h, err := parseHeader(compat); err != nil || h.CompatFlags != 1<<bit {
				t.Fatalf("%s: compatible bit %d: %v (flags %#x)", c.name, bit, err, h.CompatFlags)
			}
			if err := Verify(compat); err != nil {
				t.Fatalf("%s: Verify with compatible bit %d: %v", c.name, bit, err)
			}
			dst := c.fresh()
			if err := dst.UnmarshalBinary(compat); err != nil {
				t.Fatalf("%s: UnmarshalBinary with compatible bit %d: %v", c.name, bit, err)
			}
			checkHas(t, c.name, dst, hs)
			if again, _ := dst.MarshalBinary(); !bytes.Equal(again, withoutCompat(compat)) {
				t.Fatalf("%s: re-encoding keeps the compatible bit or loses the key hash", c.name)
			}
			if _, err := c.fresh().ReadFrom(bytes.NewReader(compat)); err != nil {
				t.Fatalf("%s: ReadFrom with compatible bit %d: %v", c.name, bit, err)
			}
			if littleEndian {
				if _, err := c.view(alignedCopy(compat, 0)); err != nil {
					t.Fatalf("%s: View with compatible bit %d: %v", c.name, bit, err)
				}
			}

			if bit == 0 {
				continue // incompatible bit 0 is the no-payload-CRC flag (TestNoPayloadCRC)
			}
			incompat := bytes.Clone(good)
			binary.LittleEndian.PutUint32(incompat[format.OffIncompat:], 1<<bit)
			refix(incompat)
			if _, err := parseHeader(incompat); !errors.Is(err, errs.ErrVersion) {
				t.Fatalf("%s: incompatible bit %d: %v, want errs.ErrVersion", c.name, bit, err)
			}
			if err := c.fresh().UnmarshalBinary(incompat); !errors.Is(err, errs.ErrVersion) {
				t.Fatalf("%s: UnmarshalBinary with incompatible bit %d: %v", c.name, bit, err)
			}
			if _, err := c.fresh().ReadFrom(bytes.NewReader(incompat)); !errors.Is(err, errs.ErrVersion) {
				t.Fatalf("%s: ReadFrom with incompatible bit %d: %v", c.name, bit, err)
			}
		}
	}
}

// TestDecodeOrder checks that decoding reports the first failed check in
// FORMAT.md's order: each case damages two things and wants the error of
// the earlier check.
func TestDecodeOrder(t *testing.T) {
	filter, _ := marshalHash(mustBytes(t, 3*64, 8), HashXXH3)
	counting, _ := mustCounting(t, 3*64).MarshalBinary()
	split, _ := mustSplit(t, 6*splitBlockBytes).MarshalBinary()
	type edit func(b []byte) []byte
	fix := func(b []byte) []byte { return refix(b) }
	set := func(off int, v byte) edit { return func(b []byte) []byte { b[off] = v; return b } }
	put64 := func(off int, v uint64) edit {
		return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b }
	}
	cases := []struct {
		name  string
		base  []byte // the encoding damaged, decoded as a Filter
		edits []edit
		want  error
		not   error // the later check's error, which must not show
	}{
		{"short before magic", filter, []edit{set(0, 'X'), func(b []byte) []byte { return b[:headerSize-1] }}, errs.ErrTruncated, errs.ErrMagic},
		{"magic before version", filter, []edit{set(0, 'X'), set(format.OffVersion, 9)}, errs.ErrMagic, errs.ErrVersion},
		{"version before header CRC", filter, []edit{set(format.OffVersion, 9), set(format.OffHeaderCRC, 0)}, errs.ErrVersion, errs.ErrChecksum},
		{"header CRC before flags", filter, []edit{set(format.OffIncompat, 2), fix, set(format.OffIncompat, 4)}, errs.ErrChecksum, errs.ErrVersion},
		{"flags before variant", filter, []edit{set(format.OffIncompat, 2), set(format.OffVariant, 9), fix}, errs.ErrVersion, errs.ErrVariant},
		{"Counting read as Filter", counting, nil, errs.ErrVariant, nil},
		{"variant before k", counting, []edit{set(format.OffK, 16), fix}, errs.ErrVariant, errs.ErrGeometry},
		{"variant before blocks", split, []edit{put64(format.OffBlocks, 0), fix}, errs.ErrVariant, errs.ErrGeometry},
		{"variant before reserved", counting, []edit{set(format.OffHeaderCRC-1, 1), fix}, errs.ErrVariant, errs.ErrCorrupt},
		{"unknown variant before k", filter, []edit{set(format.OffVariant, 9), set(format.OffK, 3), fix}, errs.ErrVariant, errs.ErrGeometry},
		{"reserved variant before k", filter, []edit{set(format.OffVariant, 4), set(format.OffK, 3), fix}, errs.ErrVariant, errs.ErrGeometry},
		{"reserved before k", filter, []edit{set(format.OffHash+1, 1), set(format.OffK, 3), fix}, errs.ErrCorrupt, errs.ErrGeometry},
		{"k before blocks", filter, []edit{set(format.OffK, 3), put64(format.OffBlocks, 1<<33), fix}, errs.ErrGeometry, errs.ErrTooLarge},
		{"blocks before payload length", filter, []edit{put64(format.OffBlocks, 1<<33), put64(format.OffPayloadLen, 7), fix}, errs.ErrTooLarge, nil},
		{"payload length before input length", filter, []edit{put64(format.OffPayloadLen, 7), fix, func(b []byte) []byte { return b[:headerSize+1] }}, errs.ErrCorrupt, errs.ErrTruncated},
		{"input length before payload CRC", filter, []edit{set(headerSize, 1), func(b []byte) []byte { return b[:len(b)-1] }}, errs.ErrTruncated, errs.ErrChecksum},
		{"payload CRC", filter, []edit{set(headerSize, 1)}, errs.ErrChecksum, nil},
	}
	for _, tc := range cases {
		b := bytes.Clone(tc.base)
		for _, e := range tc.edits {
			b = e(b)
		}
		decoders := map[string]func() error{
			"UnmarshalBinary": func() error { return new(Filter).UnmarshalBinary(b) },
			"ReadFrom":        func() error { _, err := new(Filter).ReadFrom(noLenReader{bytes.NewReader(b)}); return err },
		}
		if littleEndian && tc.name != "payload CRC" { // View skips the payload CRC
			decoders["View"] = func() error { _, err := newView(alignedCopy(b, 0)); return err }
		}
		for how, dec := range decoders {
			err := dec()
			if !errors.Is(err, tc.want) || tc.not != nil && errors.Is(err, tc.not) {
				t.Errorf("%s/%s: %v, want %v before %v", tc.name, how, err, tc.want, tc.not)
			}
		}
	}
}

// TestReadFromStreamEnd reads three concatenated encodings in a loop until
// io.EOF, as a Go reader would; a stream cut inside an encoding is
// bloom.ErrTruncated and io.ErrUnexpectedEOF, never a clean io.EOF.
func TestReadFromStreamEnd(t *testing.T) {
	hs := randomHashes(300, 33)
	for _, c := range codecs {
		var stream bytes.Buffer
		var want [][]byte
		for i := range 3 {
			e := c.build(t, uint64(2+i), hs[i*100:(i+1)*100])
			b, _ := marshalHash(e, HashID(10+i))
			stream.Write(b)
			want = append(want, b)
		}
		all := bytes.Clone(stream.Bytes())
		for _, r := range []io.Reader{bytes.NewReader(all), noLenReader{bytes.NewReader(all)}} {
			var got [][]byte
			for {
				e := c.fresh()
				n, err := e.ReadFrom(r)
				if err == io.EOF {
					if n != 0 {
						t.Fatalf("%s: io.EOF after %d bytes", c.name, n)
					}
					break
				}
				if err != nil {
					t.Fatalf("%s: encoding %d: %v", c.name, len(got), err)
				}
				b, _ := e.MarshalBinary()
				got = append(got, b)
				if len(got) > 3 {
					t.Fatalf("%s: more encodings than written", c.name)
				}
			}
			if len(got) != 3 {
				t.Fatalf("%s: read %d encodings, want 3", c.name, len(got))
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("%s: encoding %d differs (key hash included)", c.name, i)
				}
			}
		}
		// Cut in the second header or payload: not a clean end.
		for _, cut := range []int{len(want[0]) + 1, len(want[0]) + headerSize - 1, len(want[0]) + headerSize + 1} {
			r := bytes.NewReader(all[:cut])
			if _, err := c.fresh().ReadFrom(r); err != nil {
				t.Fatal(err)
			}
			n, err := c.fresh().ReadFrom(r)
			if err == io.EOF || !errors.Is(err, errs.ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) || n != int64(cut-len(want[0])) {
				t.Fatalf("%s: cut at %d: n=%d %v, want errs.ErrTruncated and io.ErrUnexpectedEOF", c.name, cut, n, err)
			}
		}
	}
}

// TestKeyHash checks that the key hash is recorded, copied, compared and
// combined as documented.
func TestKeyHash(t *testing.T) {
	hs := randomHashes(100, 34)
	mk := func(id HashID) *Filter {
		f := mustBytes(t, 4*64, 8)
		f.AddHashes(hs)
		f.SetKeyHash(id)
		return f
	}
	if id := mustBytes(t, 64, 8).KeyHash(); id != HashUnspecified {
		t.Fatalf("new filter: %v", id)
	}
	a := mk(HashXXH3)
	if c := a.Clone(); c.KeyHash() != HashXXH3 || !c.Equal(a) {
		t.Fatal("Clone lost the key hash")
	}
	if mk(HashXXH64).Equal(a) || mk(HashUnspecified).Equal(a) {
		t.Fatal("Equal ignores the key hash")
	}
	for _, op := range []struct {
		name string
		do   func(f, o *Filter) error
	}{{"Union", (*Filter).Union}, {"Intersect", (*Filter).Intersect}} {
		f, before := mk(HashXXH3), mk(HashXXH3)
		f.blocks[0][0] ^= 1 << 63 // a bit the other lacks
		before.blocks[0][0] = f.blocks[0][0]
		if err := op.do(f, mk(HashXXH64)); !errors.Is(err, errs.ErrHashMismatch) || !f.Equal(before) {
			t.Fatalf("%s of xxh3 and xxh64: %v (filter changed: %v)", op.name, err, !f.Equal(before))
		}
		if err := op.do(f, mk(HashUnspecified)); err != nil || f.KeyHash() != HashXXH3 {
			t.Fatalf("%s of xxh3 and unspecified: %v, key hash %v", op.name, err, f.KeyHash())
		}
		u := mk(HashUnspecified)
		if err := op.do(u, mk(200)); err != nil || u.KeyHash() != 200 {
			t.Fatalf("%s of unspecified and 200: %v, key hash %v", op.name, err, u.KeyHash())
		}
	}
	s, o := mustSplit(t, 64), mustSplit(t, 64)
	s.SetKeyHash(HashXXH64)
	o.SetKeyHash(HashXXH3)
	if err := s.Union(o); !errors.Is(err, errs.ErrHashMismatch) {
		t.Fatalf("SplitBlock Union of two hashes: %v", err)
	}
	if err := s.Intersect(o); !errors.Is(err, errs.ErrHashMismatch) {
		t.Fatalf("SplitBlock Intersect of two hashes: %v", err)
	}
	if s.Clone().KeyHash() != HashXXH64 || s.Equal(o) {
		t.Fatal("SplitBlock Clone or Equal ignores the key hash")
	}
	cn := mustCounting(t, 64)
	cn.SetKeyHash(7)
	if d := cn.Clone(); d.KeyHash() != 7 || !d.Equal(cn) || d.Equal(mustCounting(t, 64)) {
		t.Fatal("Counting Clone or Equal ignores the key hash")
	}
}

// TestVariants45 checks that the ids of cuckoo and scalable encodings are
// named, that a decoder of this package refuses them as another variant,
// and that Verify and parseHeader, which read them, find a block filter
// relabelled as one malformed.
func TestVariants45(t *testing.T) {
	if variantCuckoo.String() != "Cuckoo" || variantScalable.String() != "Scalable" {
		t.Fatal("variants 4 and 5 are not named")
	}
	good, _ := mustBytes(t, 64, 8).MarshalBinary()
	for _, v := range []variant{variantCuckoo, variantScalable} {
		b := bytes.Clone(good)
		b[format.OffVariant] = byte(v)
		refix(b)
		if err := new(Filter).UnmarshalBinary(b); !errors.Is(err, errs.ErrVariant) {
			t.Fatalf("UnmarshalBinary %v: %v, want errs.ErrVariant", v, err)
		}
		if _, err := parseHeader(b); !errors.Is(err, errs.ErrCorrupt) {
			t.Fatalf("parseHeader %v: %v, want errs.ErrCorrupt", v, err)
		}
		if err := Verify(b); !errors.Is(err, errs.ErrCorrupt) {
			t.Fatalf("Verify %v: %v, want errs.ErrCorrupt", v, err)
		}
	}
}
