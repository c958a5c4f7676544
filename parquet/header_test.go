package sbparquet

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/simdbloom/bloom/blocked"

	"github.com/simdbloom/bloom/internal/errs"
)

func mustFilter(t testing.TB, numBytes int, keys int) *blocked.SplitBlock {
	t.Helper()
	f, err := blocked.NewSplitBlockBytes(uint64(numBytes))
	if err != nil {
		t.Fatal(err)
	}
	f.SetKeyHash(blocked.HashXXH64) // as New and ReadFilter record
	r := rand.New(rand.NewPCG(uint64(numBytes), 3))
	for range keys {
		f.AddHash(HashInt64(r.Int64()))
	}
	return f
}

// hdr is the header for numBytes, spelled out from the Thrift compact
// protocol: field 1 i32 (0x15) zigzag varint; fields 2-4 struct (0x1c)
// holding field 1 struct (0x1c) and two stop bytes; a final stop.
func hdr(varint ...byte) []byte {
	b := append([]byte{0x15}, varint...)
	return append(b, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0)
}

func TestAppendHeaderBytes(t *testing.T) {
	for _, c := range []struct {
		n    int32
		want []byte
	}{
		{32, hdr(0x40)},         // zigzag 64
		{64, hdr(0x80, 0x01)},   // zigzag 128
		{1024, hdr(0x80, 0x10)}, // zigzag 2048
		{1 << 20, hdr(0x80, 0x80, 0x80, 0x01)},
		{128 << 20, hdr(0x80, 0x80, 0x80, 0x80, 0x01)},
	} {
		if got := AppendHeader(nil, c.n); !bytes.Equal(got, c.want) {
			t.Errorf("AppendHeader(%d) = % x, want % x", c.n, got, c.want)
		}
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	for _, size := range []int{32, 64, 1024, 16 << 10, 1 << 20, 16 << 20} {
		f := mustFilter(t, size, size/16)
		var buf bytes.Buffer
		if err := WriteFilter(&buf, f); err != nil {
			t.Fatal(err)
		}
		h := AppendHeader(nil, int32(size))
		if !bytes.Equal(buf.Bytes()[:len(h)], h) || buf.Len() != len(h)+size {
			t.Fatalf("%d bytes: WriteFilter output is not header + bitset", size)
		}
		if !bytes.Equal(buf.Bytes()[len(h):], f.Bitset()) {
			t.Fatalf("%d bytes: written bitset differs", size)
		}
		buf.WriteString("trailing data")
		// Through a plain io.Reader (byte-at-a-time header) and a ByteReader.
		for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(buf.Bytes())), &buf} {
			g, err := ReadFilter(r)
			if err != nil {
				t.Fatalf("%d bytes: %v", size, err)
			}
			if !g.Equal(f) || g.KeyHash() != blocked.HashXXH64 {
				t.Fatalf("%d bytes: read filter differs (key hash %v)", size, g.KeyHash())
			}
		}
		if buf.String() != "trailing data" {
			t.Fatalf("ReadFilter consumed past the bitset: %q left", buf.String())
		}
	}
}

func TestReadAcceptsNonPowerOfTwoAndUnknownFields(t *testing.T) {
	// numBytes 96 (zigzag 192 = 0xc0 0x01); unknown fields everywhere:
	// field 7 binary "xy", field 9 list of 2 i32, a bool true in the header,
	// field 2 of SplitBlockAlgorithm an i64, a map and nested struct in the
	// hash's empty struct, and a long-form field id 300.
	h := []byte{
		0x15, 0xc0, 0x01, // 1: numBytes = 96
		0x68, 0x02, 'x', 'y', // 7 (delta 6): binary "xy"
		0x29, 0x25, 0x02, 0x04, // 9 (delta 2): list<i32>[2] = {1, 2}
		0x0c, 0x04, // 2 (long form: struct, zigzag id 4 = 2)
		0x1c, 0x26, 0x02, 0, 0, // BLOCK { 2: i64 1 }, end of union
		0x61,       // 8 (delta 6): bool true, no payload
		0x0c, 0x06, // 3 (long form): struct
		0x1c, 0x1b, 0x01, 0x35, 0x02, 0x04, 0x1c, 0x15, 0x02, 0, 0, 0, // XXHASH { 1: map<byte,i32>{2:2}, 2: struct{1: i32 1} }, end of union
		0x1c, 0x1c, 0, 0, // 4 (delta 1 from 3): UNCOMPRESSED
		0x06, 0xd8, 0x04, 0x0a, // field 300 (long form, zigzag 600): i64 5
		0,
	}
	bitset := make([]byte, 96)
	bitset[5], bitset[95] = 0x10, 0x80
	f, err := ReadFilter(bytes.NewReader(append(h, bitset...)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Bitset(), bitset) {
		t.Fatal("bitset differs")
	}
	// A non-power-of-two filter reads, but WriteFilter refuses it.
	if err := WriteFilter(io.Discard, f); !errors.Is(err, errs.ErrGeometry) {
		t.Fatalf("WriteFilter of 96 bytes: %v, want errs.ErrGeometry", err)
	}
}

func TestReadRejects(t *testing.T) {
	bits := func(h []byte, n int) []byte { return append(h, make([]byte, n)...) }
	block := []byte{0x1c, 0x1c, 0, 0}
	cases := []struct {
		name string
		in   []byte
		want error
		msg  string
	}{
		{"empty", nil, io.ErrUnexpectedEOF, "header"},
		{"header cut", hdr(0x40)[:6], io.ErrUnexpectedEOF, "header"},
		{"bitset cut", bits(hdr(0x40), 31), io.ErrUnexpectedEOF, "31 of 32"},
		{"negative", bits(hdr(0x3f), 32), errs.ErrGeometry, "-32"},
		{"zero", hdr(0x00), errs.ErrGeometry, "0 bytes"},
		{"not multiple of 32", bits(hdr(0x42), 33), errs.ErrGeometry, "33"},
		{"over 128 MiB", hdr(0xc0, 0x80, 0x80, 0x80, 0x01), errs.ErrGeometry, "134217760"},
		{"max int32", hdr(0xfe, 0xff, 0xff, 0xff, 0x0f), errs.ErrGeometry, "2147483647"},
		{"varint too long", hdr(0xff, 0xff, 0xff, 0xff, 0x7f), errs.ErrCorrupt, "varint"},
		{"algorithm 2", append([]byte{0x15, 0x40, 0x1c, 0x2c, 0, 0}, block...), errs.ErrVariant, "algorithm"},
		{"hash 2", []byte{0x15, 0x40, 0x1c, 0x1c, 0, 0, 0x1c, 0x2c, 0, 0}, errs.ErrHashMismatch, "hash"},
		{"compression 2", []byte{0x15, 0x40, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0x1c, 0x2c, 0, 0}, errs.ErrVariant, "compression"},
		{"algorithm not a struct", []byte{0x15, 0x40, 0x1c, 0x15, 0x02, 0}, errs.ErrVariant, "algorithm"},
		{"empty union", []byte{0x15, 0x40, 0x1c, 0}, errs.ErrCorrupt, "empty"},
		{"missing hash", []byte{0x15, 0x40, 0x1c, 0x1c, 0, 0, 0x2c, 0x1c, 0, 0, 0}, errs.ErrCorrupt, "hash"},
		{"missing numBytes", []byte{0x2c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0}, errs.ErrCorrupt, "numBytes"},
		{"numBytes wrong type", []byte{0x16, 0x40, 0}, errs.ErrCorrupt, "type"},
		{"unknown type", []byte{0x15, 0x40, 0x5e, 0}, errs.ErrCorrupt, "type 14"},
		{"deep nesting", append([]byte{0x15, 0x40}, bytes.Repeat([]byte{0x1c}, 100)...), errs.ErrCorrupt, "nested"},
		{"binary cut", []byte{0x15, 0x40, 0x58, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2}, io.ErrUnexpectedEOF, "header"},
		{"binary cut, errs.ErrTruncated", []byte{0x15, 0x40, 0x58, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2}, errs.ErrTruncated, "header"},
	}
	for _, c := range cases {
		f, err := ReadFilter(bytes.NewReader(c.in))
		if !errors.Is(err, c.want) || f != nil {
			t.Errorf("%s: ReadFilter = %v, %v; want %v", c.name, f, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %q does not mention %q", c.name, err, c.msg)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	if err := WriteFilter(io.Discard, nil); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("WriteFilter(nil) = %v", err)
	}
	for _, n := range []int{96, 32 * 1000, MaxFilterBytes * 2} {
		var buf bytes.Buffer
		if err := WriteFilter(&buf, mustFilter(t, n, 0)); !errors.Is(err, errs.ErrGeometry) || buf.Len() != 0 {
			t.Errorf("WriteFilter of %d bytes = %v, wrote %d", n, err, buf.Len())
		}
	}
	wantErr := errors.New("disk full")
	if err := WriteFilter(failWriter{wantErr}, mustFilter(t, 64, 1)); !errors.Is(err, wantErr) {
		t.Errorf("WriteFilter to a failing writer = %v", err)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestReadDoesNotOverAllocate: a header claiming 128 MiB followed by 10
// bytes must fail having allocated about the first chunk, not 128 MiB.
func TestReadDoesNotOverAllocate(t *testing.T) {
	in := append(AppendHeader(nil, MaxFilterBytes), make([]byte, 10)...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		if _, err := ReadFilter(bytes.NewReader(in)); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("ReadFilter of a truncated 128 MiB filter: %v", err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 2*firstChunk {
		t.Fatalf("ReadFilter allocated %d bytes per call for 10 bytes of bitset", per)
	}
	// With 3 MiB present, it allocates a few times that, not 128 MiB.
	in = append(AppendHeader(nil, MaxFilterBytes), make([]byte, 3<<20)...)
	runtime.ReadMemStats(&before)
	if _, err := ReadFilter(bytes.NewReader(in)); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("ReadFilter of a truncated 128 MiB filter: %v", err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Fatalf("ReadFilter allocated %d bytes for 3 MiB of bitset", got)
	}
}
