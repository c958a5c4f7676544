package bloom

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// codec is what every typed filter implements to be saved and loaded.
type codec interface {
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
	encoding.BinaryAppender
	io.WriterTo
	io.ReaderFrom
}

// persisted describes one typed filter under test: build(seed) makes a
// filter holding keys that depend on seed, zero returns a zero value, and
// has checks that a decoded filter answers true for build(seed)'s keys.
type persisted struct {
	name  string
	build func(t testing.TB, seed int) codec
	zero  func() codec
	has   func(c codec, seed int) bool
}

func seedKeys(seed, n int) []uint64 {
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = uint64(seed)<<32 | uint64(i)
	}
	return keys
}

var persistedTypes = []persisted{
	{"Counting",
		func(t testing.TB, seed int) codec {
			c, err := NewCounting[uint64](500, 0.01)
			if err != nil {
				t.Fatal(err)
			}
			c.AddAll(seedKeys(seed, 300))
			return c
		},
		func() codec { return new(Counting[uint64]) },
		func(c codec, seed int) bool {
			out := make([]bool, 300)
			return c.(*Counting[uint64]).HasAll(seedKeys(seed, 300), out) == 300
		}},
	{"Cuckoo",
		func(t testing.TB, seed int) codec {
			c, err := NewCuckoo[uint64](500, 0.01)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.AddAll(seedKeys(seed, 300)); err != nil {
				t.Fatal(err)
			}
			return c
		},
		func() codec { return new(Cuckoo[uint64]) },
		func(c codec, seed int) bool {
			out := make([]bool, 300)
			return c.(*Cuckoo[uint64]).HasAll(seedKeys(seed, 300), out) == 300
		}},
	{"Scalable",
		func(t testing.TB, seed int) codec {
			s, err := NewScalable[uint64](40, 0.01, WithGrowth(1.5))
			if err != nil {
				t.Fatal(err)
			}
			s.AddAll(seedKeys(seed, 300))
			return s
		},
		func() codec { return new(Scalable[uint64]) },
		func(c codec, seed int) bool {
			out := make([]bool, 300)
			return c.(*Scalable[uint64]).HasAll(seedKeys(seed, 300), out) == 300
		}},
}

func mustMarshal(t testing.TB, c codec) []byte {
	t.Helper()
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPersistRoundTrip saves each typed filter in every way and loads it in
// every way (into a zero value), and checks the loaded filter encodes to the
// same bytes and holds every key; a stream of three encodings reads back in
// a loop that ends with io.EOF.
func TestPersistRoundTrip(t *testing.T) {
	for _, p := range persistedTypes {
		t.Run(p.name, func(t *testing.T) {
			f := p.build(t, 1)
			b := mustMarshal(t, f)
			if err := blocked.Verify(b); err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if h, err := format.Parse(b, 0); err != nil || blocked.HashID(h.Hash) != blocked.HashXXH3 {
				t.Fatalf("ParseHeader: %+v, %v: want key hash xxh3", h, err)
			}
			a, err := f.AppendBinary([]byte("prefix"))
			if err != nil || string(a[:6]) != "prefix" || !bytes.Equal(a[6:], b) {
				t.Fatalf("AppendBinary differs from MarshalBinary (%v)", err)
			}
			var w bytes.Buffer
			if n, err := f.WriteTo(&w); err != nil || n != int64(len(b)) || !bytes.Equal(w.Bytes(), b) {
				t.Fatalf("WriteTo: %d, %v, or bytes differ from MarshalBinary", n, err)
			}
			g := p.zero()
			if err := g.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(mustMarshal(t, g), b) || !p.has(g, 1) {
				t.Fatal("UnmarshalBinary: not the same filter")
			}
			var stream bytes.Buffer
			for seed := 1; seed <= 3; seed++ {
				p.build(t, seed).WriteTo(&stream)
			}
			r := noLen{bytes.NewReader(stream.Bytes())}
			seed := 0
			for {
				g := p.zero()
				n, err := g.ReadFrom(r)
				if err == io.EOF {
					if n != 0 {
						t.Fatalf("io.EOF after %d bytes", n)
					}
					break
				}
				if err != nil {
					t.Fatalf("encoding %d: %v", seed+1, err)
				}
				seed++
				if !p.has(g, seed) || !bytes.Equal(mustMarshal(t, g), mustMarshal(t, p.build(t, seed))) {
					t.Fatalf("encoding %d read back differs", seed)
				}
			}
			if seed != 3 {
				t.Fatalf("read %d encodings, wrote 3", seed)
			}
		})
	}
}

// noLen hides a reader's Len method, so ReadFrom grows memory as data arrives.
type noLen struct{ r io.Reader }

func (n noLen) Read(p []byte) (int, error) { return n.r.Read(p) }

// TestPersistTruncatedAndFlipped cuts each encoding at every length and
// flips every bit of it: each is an error of the format's set, never a
// panic, and the receiver (holding another filter) is unchanged.
func TestPersistTruncatedAndFlipped(t *testing.T) {
	sentinels := []error{ErrMagic, ErrVersion, ErrVariant, ErrChecksum, ErrTruncated, ErrCorrupt, ErrHashMismatch}
	isFormat := func(err error) bool {
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return true
			}
		}
		return false
	}
	for _, p := range persistedTypes {
		t.Run(p.name, func(t *testing.T) {
			b := mustMarshal(t, p.build(t, 1))
			dst := p.build(t, 2)
			before := mustMarshal(t, dst)
			unchanged := func(how string, l int) {
				if !bytes.Equal(mustMarshal(t, dst), before) {
					t.Fatalf("%s at %d: a failed decode changed the receiver", how, l)
				}
			}
			step := 1
			if testing.Short() {
				step = 7
			}
			for l := 0; l < len(b); l += step {
				if err := dst.UnmarshalBinary(b[:l]); !errors.Is(err, ErrTruncated) {
					t.Fatalf("UnmarshalBinary of %d of %d bytes: %v, want ErrTruncated", l, len(b), err)
				}
				unchanged("UnmarshalBinary", l)
				n, err := dst.ReadFrom(noLen{bytes.NewReader(b[:l])})
				if l == 0 && (err != io.EOF || n != 0) {
					t.Fatalf("ReadFrom of nothing: %d, %v, want 0, io.EOF", n, err)
				}
				if l > 0 && (!errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) || n != int64(l)) {
					t.Fatalf("ReadFrom of %d of %d bytes: %d, %v", l, len(b), n, err)
				}
				unchanged("ReadFrom", l)
			}
			if err := dst.UnmarshalBinary(append(bytes.Clone(b), 0)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("a trailing byte: %v, want ErrCorrupt", err)
			}
			for i := 0; i < len(b)*8; i += step {
				c := bytes.Clone(b)
				c[i/8] ^= 1 << (i % 8)
				err := dst.UnmarshalBinary(c)
				if err == nil || !isFormat(err) {
					t.Fatalf("bit %d flipped: %v", i, err)
				}
				unchanged("bit flip", i)
				if _, err := dst.ReadFrom(bytes.NewReader(c)); err == nil || !isFormat(err) {
					t.Fatalf("ReadFrom, bit %d flipped: %v", i, err)
				}
				unchanged("ReadFrom bit flip", i)
			}
		})
	}
}

// refixed returns b with its payload CRC and header CRC made right again,
// so that a crafted change reaches the checks after the checksums.
func refixed(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[32:], format.CRC(b[format.HeaderSize:]))
	binary.LittleEndian.PutUint32(b[60:], format.CRC(b[:60]))
	return b
}

// TestPersistCrafted changes fields a writer could lie about, with the
// checksums made right, and checks each is refused with the right error.
func TestPersistCrafted(t *testing.T) {
	s := persistedTypes[2].build(t, 1).(*Scalable[uint64])
	if s.Stages() < 3 {
		t.Fatalf("want at least 3 stages to craft, have %d", s.Stages())
	}
	good := mustMarshal(t, s)
	le := binary.LittleEndian
	const pb = format.HeaderSize // parameter block offset
	stage0 := pb + format.ScalableParamBytes
	cases := []struct {
		name   string
		damage func(b []byte)
		want   error
	}{
		{"fpr 0", func(b []byte) { le.PutUint64(b[pb+spFPR:], 0) }, ErrCorrupt},
		{"fpr NaN", func(b []byte) { le.PutUint64(b[pb+spFPR:], math.Float64bits(math.NaN())) }, ErrCorrupt},
		{"growth below 1", func(b []byte) { le.PutUint64(b[pb+spGrowth:], math.Float64bits(0.5)) }, ErrCorrupt},
		{"growth other", func(b []byte) { le.PutUint64(b[pb+spGrowth:], math.Float64bits(2)) }, ErrCorrupt},
		{"tightening 1", func(b []byte) { le.PutUint64(b[pb+spTightening:], math.Float64bits(1)) }, ErrCorrupt},
		{"initial 0", func(b []byte) { le.PutUint64(b[pb+spInitial:], 0) }, ErrCorrupt},
		{"planned other", func(b []byte) { le.PutUint64(b[pb+spPlanned:], le.Uint64(b[pb+spPlanned:])+1) }, ErrCorrupt},
		{"count above planned", func(b []byte) { le.PutUint64(b[pb+spCount:], le.Uint64(b[pb+spPlanned:])+1) }, ErrCorrupt},
		{"next check 0", func(b []byte) { le.PutUint64(b[pb+spNextCheck:], 0) }, ErrCorrupt},
		{"next check far", func(b []byte) { le.PutUint64(b[pb+spNextCheck:], 1<<40) }, ErrCorrupt},
		{"reserved word", func(b []byte) { b[pb+spReserved] = 1 }, ErrCorrupt},
		{"k not 0", func(b []byte) { b[7] = 8 }, ErrCorrupt},
		{"parameter byte", func(b []byte) { b[20] = 1 }, ErrCorrupt},
		{"one stage fewer", func(b []byte) { le.PutUint64(b[8:], le.Uint64(b[8:])-1) }, ErrCorrupt},
		{"one stage more", func(b []byte) { le.PutUint64(b[8:], le.Uint64(b[8:])+1) }, ErrCorrupt},
		{"stages beyond the input", func(b []byte) { le.PutUint64(b[8:], 1<<40) }, ErrCorrupt},
		{"stage not a Filter", func(b []byte) { b[stage0+6] = 3; refixed(b[stage0:]) }, ErrVariant},
		{"stage key hash", func(b []byte) { b[stage0+16] = 0; refixed(b[stage0:]) }, ErrCorrupt},
		{"stage payload", func(b []byte) { b[stage0+format.HeaderSize] ^= 1 }, ErrChecksum},
		{"key hash", func(b []byte) { b[16] = byte(blocked.HashXXH64) }, ErrHashMismatch},
	}
	for _, tc := range cases {
		b := bytes.Clone(good)
		tc.damage(b)
		refixed(b)
		var g Scalable[uint64]
		if err := g.UnmarshalBinary(b); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if g.Stages() != 0 {
			t.Errorf("%s: the receiver was changed", tc.name)
		}
	}

	// A stage that is smaller than the one before: swap two stages.
	var g Scalable[uint64]
	st := s.stages
	s.stages = []*blocked.Filter{st[1], st[0], st[2]}
	swapped := mustMarshal(t, s)
	s.stages = st
	if err := g.UnmarshalBinary(swapped); !errors.Is(err, ErrCorrupt) {
		t.Errorf("stages out of order: %v, want ErrCorrupt", err)
	}

	// Counting[K] and Cuckoo[K] refuse encodings of other key hashes.
	c := persistedTypes[0].build(t, 1).(*Counting[uint64])
	c.c.SetKeyHash(blocked.HashXXH64)
	if err := new(Counting[uint64]).UnmarshalBinary(mustMarshal(t, c)); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("Counting of key hash xxh64: %v, want ErrHashMismatch", err)
	}
	k := persistedTypes[1].build(t, 1).(*Cuckoo[uint64])
	k.f.SetKeyHash(blocked.HashUnspecified)
	if err := new(Cuckoo[uint64]).UnmarshalBinary(mustMarshal(t, k)); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("Cuckoo of no key hash: %v, want ErrHashMismatch", err)
	}
	// And one variant is not read as another.
	for i, p := range persistedTypes {
		b := mustMarshal(t, p.build(t, 1))
		for j, q := range persistedTypes {
			if i != j {
				if err := q.zero().UnmarshalBinary(b); !errors.Is(err, ErrVariant) {
					t.Errorf("%s read as %s: %v, want ErrVariant", p.name, q.name, err)
				}
			}
		}
	}
}

// TestPersistHostileSizes gives each decoder a header announcing a huge
// filter (or a huge number of stages) followed by a few bytes: an error,
// and far less memory allocated than announced.
func TestPersistHostileSizes(t *testing.T) {
	header := func(v format.Variant, k uint8, blocks, payload uint64, params [7]byte) []byte {
		b := make([]byte, format.HeaderSize, format.HeaderSize+100)
		format.Header{Version: format.Version, Variant: v, K: k, Blocks: blocks, Hash: 1, Params: params, PayloadBytes: payload}.Put(b)
		return append(b, make([]byte, 100)...)
	}
	cuckooParams := [7]byte{format.CuckooLayoutSemiSorted, format.CuckooSlots}
	cases := []struct {
		name string
		b    []byte
		dst  func() codec
	}{
		{"cuckoo 2^32 buckets", header(format.Cuckoo, 16, 1<<32, format.CuckooPrefixBytes+60<<29, cuckooParams), func() codec { return new(Cuckoo[uint64]) }},
		{"scalable 2^40 stages", header(format.Scalable, 0, 1<<40, 64+128<<40, [7]byte{}), func() codec { return new(Scalable[uint64]) }},
		{"scalable 2^60 bytes", header(format.Scalable, 0, 1, 1<<60, [7]byte{}), func() codec { return new(Scalable[uint64]) }},
		{"counting 2^32 blocks", header(format.Counting, 8, 1<<32, 64<<32, [7]byte{}), func() codec { return new(Counting[uint64]) }},
	}
	for _, tc := range cases {
		for _, how := range []string{"UnmarshalBinary", "ReadFrom"} {
			d := tc.dst()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var err error
			if how == "UnmarshalBinary" {
				err = d.UnmarshalBinary(tc.b)
			} else {
				_, err = d.ReadFrom(noLen{bytes.NewReader(tc.b)})
			}
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Errorf("%s/%s: accepted", tc.name, how)
			}
			// ReadFrom may allocate its first 1 MiB chunk.
			if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
				t.Errorf("%s/%s: allocated %d bytes for %d bytes of input (%v)", tc.name, how, got, len(tc.b), err)
			}
		}
	}
}

// TestScalableResumes checks that a decoded Scalable grows exactly as the
// original would have: both take the same keys and encode the same.
func TestScalableResumes(t *testing.T) {
	s, err := NewScalable[uint64](20, 0.01, WithGrowth(1.7), WithTightening(0.6))
	if err != nil {
		t.Fatal(err)
	}
	s.AddAll(seedKeys(1, 150))
	var g Scalable[uint64]
	if err := g.UnmarshalBinary(mustMarshal(t, s)); err != nil {
		t.Fatal(err)
	}
	more := seedKeys(2, 2000)
	s.AddAll(more)
	for _, k := range more {
		g.Add(k)
	}
	if s.Stages() < 5 || !bytes.Equal(mustMarshal(t, s), mustMarshal(t, &g)) {
		t.Fatalf("a decoded Scalable grows differently (%d stages)", s.Stages())
	}
}

var goldenScalable = "testdata/golden/scalable.sblm"

// TestGoldenScalable compares a Scalable[string] built from known keys with
// the encoding the amd64 build wrote (go test -run GoldenScalable -update),
// byte for byte, and decodes the file: every key is present. Run on s390x
// under qemu it proves the big-endian build writes and reads the same bytes.
func TestGoldenScalable(t *testing.T) {
	s, err := NewScalable[string](30, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	keys := goldenKeys()
	s.AddAll(keys)
	b := mustMarshal(t, s)
	if *updateGolden {
		if !littleEndian {
			t.Fatal("write golden files on a little-endian machine")
		}
		if err := os.MkdirAll("testdata/golden", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenScalable, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenScalable)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) {
		t.Fatalf("encoding differs from %s (%d stages)", goldenScalable, s.Stages())
	}
	var g Scalable[string]
	if err := g.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	out := make([]bool, len(keys))
	if g.Stages() < 3 || g.HasAll(keys, out) != len(keys) {
		t.Fatalf("golden Scalable: %d stages, keys missing", g.Stages())
	}
}

// FuzzScalableDecode, FuzzCountingDecode and FuzzCuckooDecode feed arbitrary
// bytes to the typed decoders: no panic, only the format's errors, and what
// they accept re-encodes to a valid encoding of the same bytes.
func FuzzScalableDecode(f *testing.F) { fuzzDecode(f, persistedTypes[2]) }
func FuzzCountingDecode(f *testing.F) { fuzzDecode(f, persistedTypes[0]) }
func FuzzCuckooDecode(f *testing.F)   { fuzzDecode(f, persistedTypes[1]) }

// withFamily returns the encoding b as a typed filter of key family k
// re-encodes it: an encoding that records no key family is read as any key
// type, and the decoded filter records k (in the header's compatible flags,
// so the header CRC changes too); one that records a family re-encodes as
// it is.
func withFamily(b []byte, k blocked.KeyFamily) []byte {
	if len(b) < format.HeaderSize || b[36]&3 != 0 {
		return b
	}
	b = bytes.Clone(b)
	b[36] |= byte(k)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

func fuzzDecode(f *testing.F, p persisted) {
	b := mustMarshal(f, p.build(f, 1))
	f.Add(b)
	f.Add(b[:len(b)-1])
	f.Add(append(bytes.Clone(b), b...))
	f.Add([]byte{})
	sentinels := []error{ErrMagic, ErrVersion, ErrVariant, ErrChecksum, ErrTruncated, ErrCorrupt, ErrHashMismatch}
	check := func(t *testing.T, how string, err error) {
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("%s: %v is none of the format's errors", how, err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := p.zero()
		if err := g.UnmarshalBinary(data); err != nil {
			check(t, "UnmarshalBinary", err)
		} else if out := mustMarshal(t, g); !bytes.Equal(out, withFamily(data, blocked.KeysIntegers)) || blocked.Verify(out) != nil {
			t.Fatal("an accepted encoding does not re-encode to itself")
		}
		r := p.zero()
		n, err := r.ReadFrom(bytes.NewReader(data))
		switch {
		case err == io.EOF:
			if len(data) != 0 || n != 0 {
				t.Fatalf("ReadFrom: io.EOF after %d of %d bytes", n, len(data))
			}
		case err != nil:
			check(t, "ReadFrom", err)
		default:
			if out := mustMarshal(t, r); !bytes.Equal(out, withFamily(data[:n], blocked.KeysIntegers)) {
				t.Fatal("ReadFrom: an accepted encoding does not re-encode to itself")
			}
		}
	})
}

var _ = fmt.Sprint
