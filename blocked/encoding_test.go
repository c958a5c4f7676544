package blocked

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"runtime"
	"testing"

	"github.com/simdbloom/bloom/internal/format"

	"github.com/simdbloom/bloom/internal/errs"
)

// looker is what every variant and every view offers: lookups.
type looker interface {
	HasHash(h uint64) bool
	HasHashes(hs []uint64, out []bool) int
}

// readable is what every variant offers: lookups and encoders.
type readable interface {
	HasHashes(hs []uint64, out []bool) int
	HasHash(h uint64) bool
	MarshalBinary() ([]byte, error)
	AppendBinary(b []byte) ([]byte, error)
	WriteTo(w io.Writer) (int64, error)
	KeyHash() HashID
}

// encodable is what every variant offers for the byte-slice encoding.
type encodable interface {
	readable
	UnmarshalBinary(b []byte) error
	ReadFrom(r io.Reader) (int64, error)
	SetKeyHash(id HashID)
}

// marshalHash returns e's encoding after recording the key hash id.
func marshalHash(e encodable, id HashID) ([]byte, error) {
	e.SetKeyHash(id)
	return e.MarshalBinary()
}

// encodeTo streams e's encoding after recording the key hash id.
func encodeTo(e encodable, w io.Writer, id HashID) (int64, error) {
	e.SetKeyHash(id)
	return e.WriteTo(w)
}

// decodeFrom reads e from r.
func decodeFrom(e encodable, r io.Reader) (int64, error) { return e.ReadFrom(r) }

// codec describes one variant for the table-driven tests.
type codec struct {
	name    string
	variant variant
	fresh   func() encodable                                     // an empty receiver
	build   func(t testing.TB, nb uint64, hs []uint64) encodable // nb blocks holding hs
	view    func(b []byte) (looker, error)
}

var codecs = []codec{
	{"filter-k8", variantFilter, func() encodable { return new(Filter) },
		func(t testing.TB, nb uint64, hs []uint64) encodable {
			f := mustBytes(t, nb*64, 8)
			f.AddHashes(hs)
			return f
		}, func(b []byte) (looker, error) { return newView(b) }},
	{"filter-k16", variantFilter, func() encodable { return new(Filter) },
		func(t testing.TB, nb uint64, hs []uint64) encodable {
			f := mustBytes(t, nb*64, 16)
			f.AddHashes(hs)
			return f
		}, func(b []byte) (looker, error) { return newView(b) }},
	{"splitblock", variantSplitBlock, func() encodable { return new(SplitBlock) },
		func(t testing.TB, nb uint64, hs []uint64) encodable {
			s := mustSplit(t, int(nb)*splitBlockBytes)
			s.AddHashes(hs)
			return s
		}, func(b []byte) (looker, error) { return newSplitBlockView(b) }},
	{"counting", variantCounting, func() encodable { return new(Counting) },
		func(t testing.TB, nb uint64, hs []uint64) encodable {
			c := mustCounting(t, nb*64)
			c.AddHashes(hs)
			c.AddHashes(hs[:len(hs)/2]) // some counters above 1
			return c
		}, func(b []byte) (looker, error) { return newCountingView(b) }},
}

// alignedCopy returns a copy of b starting off bytes past a 64-byte boundary.
func alignedCopy(b []byte, off int) []byte {
	m := alignedMem(uint64(len(b)+off+7) &^ 7)
	c := m[off : off+len(b)]
	copy(c, b)
	return c
}

// refix recomputes the header checksum of an encoding after a test edits it.
func refix(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[format.OffHeaderCRC:], crc32.Checksum(b[:format.OffHeaderCRC], castagnoli))
	return b
}

// refixAll recomputes both checksums.
func refixAll(b []byte) []byte {
	if len(b) >= headerSize {
		binary.LittleEndian.PutUint32(b[format.OffPayloadCRC:], crc32.Checksum(b[headerSize:], castagnoli))
		refix(b)
	}
	return b
}

// noNotReader hides a reader's Len method, so ReadFrom cannot presize.
type noLenReader struct{ r io.Reader }

func (n noLenReader) Read(p []byte) (int, error) { return n.r.Read(p) }

func checkHas(t *testing.T, what string, e looker, hs []uint64) {
	t.Helper()
	for _, h := range hs {
		if !e.HasHash(h) {
			t.Fatalf("%s: false negative for %#x", what, h)
		}
	}
}

func TestEncodingRoundTrip(t *testing.T) {
	for _, c := range codecs {
		t.Run(c.name, func(t *testing.T) {
			for _, nb := range []uint64{1, 3, 1000, 40_000} { // 40,000 blocks: more than one 1 MiB chunk
				hs := randomHashes(int(nb)*8, nb)
				src := c.build(t, nb, hs)
				if src.KeyHash() != HashUnspecified {
					t.Fatalf("a new filter records key hash %v", src.KeyHash())
				}
				b, err := marshalHash(src, HashXXH3)
				if err != nil {
					t.Fatal(err)
				}
				h, err := parseHeader(b)
				if err != nil {
					t.Fatal(err)
				}
				want := header{Version: 1, variant: c.variant, K: h.K, Blocks: nb, Hash: HashXXH3,
					PayloadBytes: nb * c.variant.blockBytes(), PayloadCRC: h.PayloadCRC}
				if h != want || uint64(len(b)) != h.Size() || (c.name == "filter-k16") != (h.K == 16) {
					t.Fatalf("header %+v, want %+v, %d bytes", h, want, len(b))
				}
				if err := Verify(b); err != nil {
					t.Fatal(err)
				}

				// Unmarshal, then re-encode byte for byte.
				dst := c.fresh()
				if err := dst.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
				checkHas(t, "UnmarshalBinary", dst, hs)
				if b2, _ := dst.MarshalBinary(); dst.KeyHash() != HashXXH3 || !bytes.Equal(b, b2) {
					t.Fatalf("re-encoding after UnmarshalBinary differs (key hash %v)", dst.KeyHash())
				}

				// AppendBinary: the same bytes after a prefix, which is kept.
				plain, _ := src.MarshalBinary()
				if !bytes.Equal(plain, b) {
					t.Fatal("MarshalBinary is not deterministic")
				}
				app, _ := src.AppendBinary([]byte("prefix"))
				if string(app[:6]) != "prefix" || !bytes.Equal(app[6:], plain) {
					t.Fatal("AppendBinary differs from MarshalBinary")
				}

				// Streaming: the same bytes; ReadFrom with and without a Len hint.
				var buf bytes.Buffer
				n, err := src.WriteTo(&buf)
				if err != nil || n != int64(len(b)) || !bytes.Equal(buf.Bytes(), b) {
					t.Fatalf("WriteTo: n=%d err=%v, equal=%v", n, err, bytes.Equal(buf.Bytes(), b))
				}
				for _, r := range []io.Reader{bytes.NewReader(b), noLenReader{bytes.NewReader(b)}} {
					dst := c.fresh()
					n, err := decodeFrom(dst, r)
					if err != nil || n != int64(len(b)) {
						t.Fatalf("ReadFrom: n=%d err=%v", n, err)
					}
					checkHas(t, "ReadFrom", dst, hs)
					if b2, _ := dst.MarshalBinary(); dst.KeyHash() != HashXXH3 || !bytes.Equal(b, b2) {
						t.Fatalf("re-encoding after ReadFrom differs (key hash %v)", dst.KeyHash())
					}
				}

				// newView, where the machine allows it.
				v, err := c.view(alignedCopy(b, 0))
				if !littleEndian {
					if !errors.Is(err, errs.ErrByteOrder) {
						t.Fatalf("View on big-endian: %v, want errs.ErrByteOrder", err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				checkHas(t, "View", v, hs)
			}
		})
	}
}

// TestEncodingStreamExact checks that ReadFrom reads exactly one encoding,
// so encodings can be concatenated in one stream.
func TestEncodingStreamExact(t *testing.T) {
	var buf bytes.Buffer
	hs := randomHashes(500, 7)
	var want []encodable
	for _, c := range codecs {
		e := c.build(t, 11, hs)
		if _, err := encodeTo(e, &buf, HashUnspecified); err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
	}
	buf.WriteString("tail")
	r := noLenReader{&buf}
	for i, c := range codecs {
		e := c.fresh()
		if _, err := decodeFrom(e, r); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b1, _ := e.MarshalBinary()
		b2, _ := want[i].MarshalBinary()
		if !bytes.Equal(b1, b2) {
			t.Fatalf("%s: decoded filter differs", c.name)
		}
	}
	if rest, _ := io.ReadAll(r); string(rest) != "tail" {
		t.Fatalf("ReadFrom consumed past its encoding: %q left", rest)
	}
}

// TestEncodingErrors damages valid encodings in every way the format can be
// damaged and checks that each decoder names the problem, and leaves its
// receiver unchanged.
func TestEncodingErrors(t *testing.T) {
	put64 := func(off int, v uint64) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return refix(b) }
	}
	setByte := func(off int, v byte) func([]byte) []byte {
		return func(b []byte) []byte { b[off] = v; return refix(b) }
	}
	cases := []struct {
		name   string
		damage func(b []byte) []byte
		want   []error // every error the result must wrap
		view   bool    // a view's Reset also reports it (it skips the checksums and the reserved bytes)
	}{
		{"empty", func(b []byte) []byte { return nil }, []error{errs.ErrTruncated}, true}, // ReadFrom: io.EOF, below
		{"short header", func(b []byte) []byte { return b[:headerSize-1] }, []error{errs.ErrTruncated}, true},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, []error{errs.ErrMagic}, true},
		{"version", func(b []byte) []byte { b[format.OffVersion] = 2; return b }, []error{errs.ErrVersion}, true},
		{"header bit flip", func(b []byte) []byte { b[format.OffBlocks] ^= 4; return b }, []error{errs.ErrChecksum}, true},
		{"header CRC", func(b []byte) []byte { b[format.OffHeaderCRC] ^= 1; return b }, []error{errs.ErrChecksum}, false},
		{"unknown variant", setByte(format.OffVariant, 9), []error{errs.ErrVariant}, true},
		{"variant zero", setByte(format.OffVariant, 0), []error{errs.ErrVariant}, true},
		{"k", setByte(format.OffK, 9), []error{errs.ErrCorrupt, errs.ErrGeometry}, true},
		{"zero blocks", put64(format.OffBlocks, 0), []error{errs.ErrCorrupt, errs.ErrGeometry}, true},
		{"2^40 blocks", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[format.OffBlocks:], 1<<40)
			binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], 64<<40)
			return refix(b)
		}, []error{errs.ErrCorrupt, errs.ErrTooLarge}, true},
		{"payload length", put64(format.OffPayloadLen, 64*3+32), []error{errs.ErrCorrupt}, true},
		{"payload length overflow", put64(format.OffPayloadLen, 1<<63), []error{errs.ErrCorrupt}, true},
		{"reserved after hash", setByte(format.OffHash+3, 1), []error{errs.ErrCorrupt}, false},
		{"reserved before header CRC", setByte(format.OffHeaderCRC-1, 1), []error{errs.ErrCorrupt}, false},
		{"incompatible flag", setByte(format.OffIncompat+3, 0x80), []error{errs.ErrVersion}, true},
		{"variant cuckoo", setByte(format.OffVariant, 4), []error{errs.ErrVariant}, true},
		{"variant scalable", setByte(format.OffVariant, 5), []error{errs.ErrVariant}, true},
		{"more blocks than bytes", func(b []byte) []byte {
			bb := binary.LittleEndian.Uint64(b[format.OffPayloadLen:]) / binary.LittleEndian.Uint64(b[format.OffBlocks:])
			binary.LittleEndian.PutUint64(b[format.OffBlocks:], 1<<24) // fits in memory on 32-bit platforms too
			binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], bb<<24)
			return refix(b)
		}, []error{errs.ErrTruncated}, true},
		{"payload cut", func(b []byte) []byte { return b[:len(b)-1] }, []error{errs.ErrTruncated}, true},
		{"header only", func(b []byte) []byte { return b[:headerSize] }, []error{errs.ErrTruncated}, true},
		{"trailing byte", func(b []byte) []byte { return append(b, 0) }, []error{errs.ErrCorrupt}, true},
		{"payload bit flip", func(b []byte) []byte { b[len(b)-5] ^= 0x10; return b }, []error{errs.ErrChecksum}, false},
		{"payload CRC", func(b []byte) []byte { b[format.OffPayloadCRC] ^= 1; return refix(b) }, []error{errs.ErrChecksum}, false},
	}
	hs := randomHashes(100, 3)
	for _, c := range codecs {
		good, _ := c.build(t, 3, hs).MarshalBinary()
		for _, tc := range cases {
			bad := tc.damage(bytes.Clone(good))
			check := func(how string, err error, wantErr bool) {
				t.Helper()
				if !wantErr {
					if err != nil {
						t.Errorf("%s/%s/%s: %v, want success", c.name, tc.name, how, err)
					}
					return
				}
				for _, w := range tc.want {
					if !errors.Is(err, w) {
						t.Errorf("%s/%s/%s: %v, want %v", c.name, tc.name, how, err, w)
					}
				}
			}
			// The receiver holds a different filter; it must survive the error.
			dst := c.build(t, 2, hs[:10])
			before, _ := dst.MarshalBinary()
			check("UnmarshalBinary", dst.UnmarshalBinary(bad), true)
			// A stream may go on after the encoding: not an error for ReadFrom.
			_, err := decodeFrom(dst, noLenReader{bytes.NewReader(bad)})
			if tc.name == "empty" { // the clean end of a stream
				if err != io.EOF {
					t.Errorf("%s/empty/ReadFrom: %v, want io.EOF itself", c.name, err)
				}
			} else {
				check("ReadFrom", err, tc.name != "trailing byte")
			}
			if after, _ := dst.MarshalBinary(); !bytes.Equal(before, after) && tc.name != "trailing byte" {
				t.Errorf("%s/%s: a failed decode changed the receiver", c.name, tc.name)
			}
			if tc.name == "variant cuckoo" || tc.name == "variant scalable" {
				// Verify reads variants 4 and 5: a relabelled block filter
				// is a malformed one of those.
				if err := Verify(bad); !errors.Is(err, errs.ErrCorrupt) {
					t.Errorf("%s/%s/Verify: %v, want errs.ErrCorrupt", c.name, tc.name, err)
				}
			} else {
				check("Verify", Verify(bad), true)
			}
			if littleEndian {
				_, err := c.view(alignedCopy(bad, 0))
				check("View", err, tc.view)
			}
		}
		// A decoder of one variant refuses the others.
		for _, o := range codecs {
			if o.variant != c.variant {
				if err := o.fresh().UnmarshalBinary(good); !errors.Is(err, errs.ErrVariant) {
					t.Errorf("%s decoding a %s: %v, want errs.ErrVariant", o.name, c.name, err)
				}
			}
		}
	}
}

func TestViewAlignment(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	hs := randomHashes(100, 4)
	probe := randomHashes(4000, 5)
	// At any offset the view answers as the filter does, at every level:
	// the kernels load unaligned.
	forEachLevel(t, func(t *testing.T) {
		for _, c := range codecs {
			f := c.build(t, 37, hs)
			good, _ := f.MarshalBinary()
			for _, off := range []int{0, 1, 4, 8, 12, 16, 24, 32, 40, 48, 56, 63} {
				v, err := c.view(alignedCopy(good, off))
				if err != nil {
					t.Fatalf("%s at offset %d: %v", c.name, off, err)
				}
				want, got := make([]bool, len(probe)), make([]bool, len(probe))
				nw, ng := batchHas(f, probe, want), batchHas(v, probe, got)
				if nw != ng {
					t.Fatalf("%s at offset %d: view finds %d, filter %d", c.name, off, ng, nw)
				}
				for i, h := range probe {
					if got[i] != want[i] || v.HasHash(h) != want[i] {
						t.Fatalf("%s at offset %d: view and filter differ on %#x", c.name, off, h)
					}
				}
				checkHas(t, "view", v, hs)
			}
		}
	})
}

// batchHas runs the HasHashes of e, a filter or a view.
func batchHas(e looker, hs []uint64, out []bool) int { return e.HasHashes(hs, out) }

// TestViewSharesMemory checks that a view reads the caller's bytes in place.
func TestViewSharesMemory(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	f := mustBytes(t, 64*4, 8)
	b := alignedCopy(func() []byte { b, _ := f.MarshalBinary(); return b }(), 0)
	v, err := newView(b)
	if err != nil {
		t.Fatal(err)
	}
	h := uint64(0x0123456789abcdef)
	if v.HasHash(h) {
		t.Fatal("empty view has a key")
	}
	for i := headerSize; i < len(b); i++ {
		b[i] = 0xff
	}
	if !v.HasHash(h) || v.HasHashes([]uint64{1, 2, 3}, make([]bool, 3)) != 3 {
		t.Fatal("view does not see changes to its bytes")
	}
	if Verify(b) == nil {
		t.Fatal("Verify accepted a payload that no longer matches its CRC")
	}
}

// TestDecodeMemoryBound checks that a header announcing a huge filter costs
// no more memory than the bytes that actually arrive.
func TestDecodeMemoryBound(t *testing.T) {
	good, _ := mustBytes(t, 64, 8).MarshalBinary()
	huge := bytes.Clone(good[:headerSize])
	binary.LittleEndian.PutUint64(huge[format.OffBlocks:], MaxBlocks) // 256 GiB
	binary.LittleEndian.PutUint64(huge[format.OffPayloadLen:], 64*MaxBlocks)
	refix(huge)
	if _, err := parseHeader(huge); err != nil && !errors.Is(err, errs.ErrTooLarge) {
		t.Fatal(err) // 32-bit platforms refuse 256 GiB outright: fine too
	}
	short := append(bytes.Clone(huge), make([]byte, 100)...)

	allocs := func(fn func()) (bytesAlloc uint64) {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		fn()
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	var f Filter
	if a := allocs(func() {
		if err := f.UnmarshalBinary(short); err == nil {
			t.Fatal("accepted")
		}
	}); a > 64<<10 { // the error's words and the memory-limit check allocate a few KiB; the process may too
		t.Errorf("UnmarshalBinary of a 164-byte input announcing 256 GiB allocated %d bytes", a)
	}
	if a := allocs(func() {
		if _, err := f.ReadFrom(noLenReader{bytes.NewReader(short)}); !errors.Is(err, errs.ErrTruncated) && !errors.Is(err, errs.ErrTooLarge) {
			t.Fatalf("ReadFrom: %v", err)
		}
	}); a > chunkBytes+64<<10 {
		t.Errorf("ReadFrom of a 164-byte stream announcing 256 GiB allocated %d bytes", a)
	}
	// A stream that sends 20 MiB of the 256 GiB it announces: memory stays
	// within a small factor of what arrived.
	const sent = 20 << 20
	stream := io.MultiReader(bytes.NewReader(huge), io.LimitReader(zeros{}, sent))
	if a := allocs(func() {
		if _, err := f.ReadFrom(stream); !errors.Is(err, errs.ErrTruncated) && !errors.Is(err, errs.ErrTooLarge) {
			t.Fatalf("ReadFrom: %v", err)
		}
	}); a > 4*sent+chunkBytes {
		t.Errorf("ReadFrom of %d bytes announcing 256 GiB allocated %d bytes", sent, a)
	}
	if got := testing.AllocsPerRun(10, func() { _ = f.UnmarshalBinary(short) }); got > 8 {
		t.Errorf("UnmarshalBinary of a hostile header: %v allocations (error values only expected)", got)
	}
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// failWriter accepts limit bytes, then fails.
type failWriter struct{ limit int }

var errWrite = errors.New("write failed")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errWrite
	}
	w.limit -= len(p)
	return len(p), nil
}

func TestWriteToErrors(t *testing.T) {
	f := mustBytes(t, 3<<20, 8) // three 1 MiB chunks
	for _, limit := range []int{0, 10, headerSize, headerSize + 100, headerSize + 2<<20 + 5} {
		n, err := f.WriteTo(&failWriter{limit: limit})
		if !errors.Is(err, errWrite) || n != int64(limit) {
			t.Errorf("limit %d: n=%d err=%v", limit, n, err)
		}
	}
}

// TestReadFromReaderErrors checks that a failing reader's error is passed on.
func TestReadFromReaderErrors(t *testing.T) {
	good, _ := mustBytes(t, 64*10, 8).MarshalBinary()
	errRead := errors.New("read failed")
	for _, cut := range []int{0, 10, headerSize, headerSize + 100} {
		r := io.MultiReader(bytes.NewReader(good[:cut]), iotestErr{errRead})
		var f Filter
		if _, err := f.ReadFrom(r); !errors.Is(err, errRead) {
			t.Errorf("cut %d: %v, want the reader's error", cut, err)
		}
	}
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

func TestHeaderStrings(t *testing.T) {
	for v, s := range map[variant]string{variantFilter: "Filter", variantSplitBlock: "SplitBlock", variantCounting: "Counting", 7: "Variant(7)"} {
		if v.String() != s {
			t.Errorf("%d: %q", uint8(v), v.String())
		}
	}
	for id, s := range map[HashID]string{HashUnspecified: "unspecified", HashXXH3: "xxh3-64", HashXXH64: "xxh64-parquet", 200: "HashID(200)"} {
		if id.String() != s {
			t.Errorf("%d: %q", uint8(id), id.String())
		}
	}
}

// TestFormatByHand builds an encoding from FORMAT.md's table, byte by byte,
// without the package's header code, and compares it with MarshalBinary.
func TestFormatByHand(t *testing.T) {
	var h uint64 = 0xFFFFFFFF_12345678 // upper bits: the last of 2 blocks
	f := mustBytes(t, 128, 16)
	f.AddHash(h)
	var payload []byte
	for blk := range 2 {
		for i := range 8 {
			var w uint64
			if blk == 1 {
				x := uint32(h)
				w = 1<<((x*salt[i])>>26) | 1<<((x*salt[i+8])>>26)
			}
			payload = binary.LittleEndian.AppendUint64(payload, w)
		}
	}
	cast := crc32.MakeTable(crc32.Castagnoli)
	want := []byte{'S', 'B', 'L', 'M', 1, 0, 1, 16}
	want = binary.LittleEndian.AppendUint64(want, 2) // blocks
	want = append(want, 200, 0, 0, 0, 0, 0, 0, 0)    // hash id, reserved
	want = binary.LittleEndian.AppendUint64(want, 128)
	want = binary.LittleEndian.AppendUint32(want, crc32.Checksum(payload, cast))
	want = append(want, make([]byte, 24)...)
	want = binary.LittleEndian.AppendUint32(want, crc32.Checksum(want, cast))
	want = append(want, payload...)
	got, _ := marshalHash(f, 200)
	if !bytes.Equal(got, want) {
		t.Fatalf("encoding differs from FORMAT.md:\n got %x\nwant %x", got, want)
	}
}
