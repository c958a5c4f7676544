package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"

	"github.com/simdbloom/bloom/internal/errs"
)

// hashesOf turns fuzz bytes into hashes, 8 bytes each (a short tail is padded).
func hashesOf(data []byte) []uint64 {
	hs := make([]uint64, 0, len(data)/8+1)
	for len(data) > 0 {
		var b [8]byte
		n := copy(b[:], data)
		hs = append(hs, binary.LittleEndian.Uint64(b[:]))
		data = data[n:]
	}
	return hs
}

// withLevel runs fn with cpu.Active set to l.
func withLevel(l cpu.Level, fn func()) {
	saved := cpu.Active
	cpu.Active = l
	defer func() { cpu.Active = saved }()
	fn()
}

func addSeeds(f *testing.F) {
	f.Add(uint32(1), true, []byte{})
	f.Add(uint32(1), false, []byte("0123456789abcdef"))
	f.Add(uint32(3), true, make([]byte, 8*70))
	f.Add(uint32(1000), false, []byte("\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff"))
	f.Add(uint32(4097), true, []byte("a few hashes in a larger filter, not a power of two in size"))
}

// FuzzFilterKernels: for arbitrary hashes and sizes, every kernel this CPU
// runs builds exactly the generic kernel's filter, answers as it does, and
// never reports an added hash absent. Each level runs in a child process
// (childtest.FuzzLevels), building the generic reference there too.
func FuzzFilterKernels(f *testing.F) {
	addSeeds(f)
	levels := childtest.NewFuzzLevels(f)
	f.Fuzz(func(t *testing.T, blocks uint32, k16 bool, data []byte) {
		nb := uint64(blocks%20000) + 1
		k := 8
		if k16 {
			k = 16
		}
		hs := hashesOf(data)
		half := hs[:len(hs)/2] // added; the rest are probes that may be absent
		// build adds half to a new filter and looks up hs, at the active level.
		build := func() (*blocked.Filter, []bool) {
			fl, err := blocked.NewBytes(nb*64, k)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]bool, len(hs))
			fl.AddHashes(half)
			fl.HasHashes(hs, out)
			return fl, out
		}
		levels.Run(t, func(t *testing.T, l cpu.Level) {
			var ref *blocked.Filter
			var refOut []bool
			withLevel(cpu.Generic, func() { ref, refOut = build() })
			fl, out := build()
			for i := range half {
				if !out[i] || !fl.HasHash(half[i]) {
					t.Fatalf("%v: false negative for %#x", l, half[i])
				}
			}
			for i, h := range hs {
				if out[i] != fl.HasHash(h) {
					t.Fatalf("%v: batch and single lookups disagree on %#x", l, h)
				}
			}
			if !fl.Equal(ref) {
				t.Fatalf("%v builds a different filter than generic", l)
			}
			for i := range out {
				if out[i] != refOut[i] {
					t.Fatalf("%v answers %v for %#x, generic %v", l, out[i], hs[i], refOut[i])
				}
			}
		})
	})
}

// FuzzSplitBlockKernels is FuzzFilterKernels for the Parquet split block
// filter, comparing the serialized bitsets byte for byte.
func FuzzSplitBlockKernels(f *testing.F) {
	addSeeds(f)
	levels := childtest.NewFuzzLevels(f)
	f.Fuzz(func(t *testing.T, blocks uint32, _ bool, data []byte) {
		nb := int(blocks%20000) + 1
		hs := hashesOf(data)
		half := hs[:len(hs)/2]
		// build adds half to a new filter and looks up hs, at the active level.
		build := func() (*blocked.SplitBlock, []bool) {
			s, err := blocked.NewSplitBlockBytes(uint64(nb * 32))
			if err != nil {
				t.Fatal(err)
			}
			out := make([]bool, len(hs))
			s.AddHashes(half)
			s.HasHashes(hs, out)
			return s, out
		}
		levels.Run(t, func(t *testing.T, l cpu.Level) {
			var ref *blocked.SplitBlock
			var refOut []bool
			withLevel(cpu.Generic, func() { ref, refOut = build() })
			s, out := build()
			for i := range half {
				if !out[i] {
					t.Fatalf("%v: false negative for %#x", l, half[i])
				}
			}
			if string(s.Bitset()) != string(ref.Bitset()) {
				t.Fatalf("%v builds a different bitset than generic", l)
			}
			for i := range out {
				if out[i] != refOut[i] {
					t.Fatalf("%v answers %v for %#x, generic %v", l, out[i], hs[i], refOut[i])
				}
			}
		})
	})
}

// FuzzTypedHash: the typed batch path hashes exactly as Hash does, and the
// typed filter never loses a key.
func FuzzTypedHash(f *testing.F) {
	f.Add([]byte("hello"), uint64(0))
	f.Add([]byte{}, uint64(1<<63))
	f.Fuzz(func(t *testing.T, data []byte, x uint64) {
		ints := hashesOf(data)
		ints = append(ints, x, -x, x>>32)
		fi, _ := New[uint64](uint64(len(ints)), 0.01)
		fs, _ := New[string](uint64(len(ints)), 0.01)
		fi.AddAll(ints)
		strs := []string{string(data), string(data[:len(data)/2])}
		fs.AddAll(strs)
		for _, v := range ints {
			if Hash(v) != HashUint64(v) || Hash(int64(v)) != HashUint64(v) {
				t.Fatalf("Hash(%#x) differs between types", v)
			}
			if !fi.Has(v) {
				t.Fatalf("typed false negative for %#x", v)
			}
		}
		out := make([]bool, len(ints))
		if n := fi.HasAll(ints, out); n != len(ints) {
			t.Fatalf("HasAll found %d of %d", n, len(ints))
		}
		for _, s := range strs {
			if !fs.Has(s) || !FromEngine[[]byte](fs.Engine()).Has([]byte(s)) {
				t.Fatalf("string key %q lost (or hashed differently as bytes)", s)
			}
		}
	})
}

// FuzzTypedDecode feeds arbitrary bytes to the typed decoders: they never
// panic, fail only with the format's errors (io.EOF only for no input), and
// what they accept is an xxh3 filter that re-encodes to a valid encoding.
func FuzzTypedDecode(f *testing.F) {
	good := mustNew[string](f, 100, 0.01)
	good.Add("a")
	b, _ := good.MarshalBinary()
	f.Add(b)
	f.Add(b[:len(b)-1])
	f.Add(append(bytes.Clone(b), b...))
	c, _ := blocked.NewCountingBytes(64)
	cb, _ := c.MarshalBinary()
	f.Add(cb)
	f.Add([]byte{})
	sentinels := []error{errs.ErrMagic, errs.ErrVersion, errs.ErrVariant, errs.ErrChecksum,
		errs.ErrTruncated, errs.ErrCorrupt, errs.ErrByteOrder, errs.ErrHashMismatch}
	check := func(t *testing.T, how string, err error) {
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("%s: %v is none of the format's errors", how, err)
	}
	accepted := func(t *testing.T, how string, g *Filter[string]) {
		if g.Engine().KeyHash() != blocked.HashXXH3 {
			t.Fatalf("%s accepted key hash %v", how, g.Engine().KeyHash())
		}
		out, _ := g.MarshalBinary()
		if err := blocked.Verify(out); err != nil {
			t.Fatalf("%s: re-encoding fails Verify: %v", how, err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter[string]
		if err := g.UnmarshalBinary(data); err != nil {
			check(t, "UnmarshalBinary", err)
		} else {
			accepted(t, "UnmarshalBinary", &g)
		}
		var r Filter[string]
		n, err := r.ReadFrom(bytes.NewReader(data))
		switch {
		case err == io.EOF:
			if len(data) != 0 || n != 0 {
				t.Fatalf("ReadFrom: io.EOF after %d of %d bytes", n, len(data))
			}
		case err != nil:
			check(t, "ReadFrom", err)
		default:
			accepted(t, "ReadFrom", &r)
		}
		if v, err := newView[string](aligned(data)); err != nil {
			check(t, "View", err)
		} else {
			v.Has("a")
		}
	})
}

// FuzzHashStrings: for random lengths, contents and batch sizes, the batch
// hash of strings and of byte slices with every set of string kernels
// (strVariants: every level, AVX-512 with and without IFMA) equals xxh3 in
// every lane. Each key is one length byte (above 200: (b-200)*20 bytes, so that
// some exceed 240) and then that many bytes of data, or what is left.
func FuzzHashStrings(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x03abc\x08abcdefgh\x10abcdefghijklmnop\x00\x11abcdefghijklmnopq"))
	f.Add(append([]byte{250, 129}, make([]byte, 2000)...))
	levels := childtest.NewFuzzLevels(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var keys []string
		for len(data) > 0 {
			n := int(data[0])
			if n > 200 {
				n = (n - 200) * 20
			}
			data = data[1:]
			n = min(n, len(data))
			keys = append(keys, string(data[:n]))
			data = data[n:]
		}
		levels.Run(t, func(t *testing.T, l cpu.Level) {
			for _, v := range strVariantsAt(l) {
				v.run(func() { checkStrings(t, keys) })
			}
		})
	})
}

// FuzzScalableView feeds arbitrary bytes to ScalableView.Reset: it never
// panics, fails only with the format's errors, accepts every encoding
// UnmarshalBinary accepts (on little-endian machines) and refuses what it
// refuses but for payload checksums, which it does not read (blocked.Verify
// finds every checksum the decoder finds wrong, the stages' included, and
// refuses nothing the decoder accepts); and where both accept, the view
// answers as the decoded filter.
func FuzzScalableView(f *testing.F) {
	for _, n := range []int{1, 300} {
		s := mustNewScalable(f, n)
		b, _ := s.MarshalBinary()
		f.Add(b)
		f.Add(b[:len(b)-1])
		f.Add(append(bytes.Clone(b), b...))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var v ScalableView[uint64]
		verr := v.Reset(data)
		var d Scalable[uint64]
		derr := d.UnmarshalBinary(data)
		switch {
		case verr != nil && !errors.Is(verr, ErrByteOrder) && !isFormatError(verr):
			t.Fatalf("Reset: %v is none of the format's errors", verr)
		case derr == nil && verr != nil && !errors.Is(verr, ErrByteOrder):
			t.Fatalf("Reset refuses what UnmarshalBinary accepts: %v", verr)
		case verr == nil && derr != nil && !errors.Is(derr, ErrChecksum):
			t.Fatalf("Reset accepts what UnmarshalBinary refuses: %v", derr)
		}
		if err := blocked.Verify(data); (err == nil) != (derr == nil) && (derr == nil || errors.Is(derr, ErrChecksum)) {
			t.Fatalf("Verify: %v; UnmarshalBinary: %v", err, derr)
		}
		if verr == nil && derr == nil {
			for _, k := range hashesOf(data[:min(len(data), 256)]) {
				if v.Has(k) != d.Has(k) {
					t.Fatalf("key %#x: the view %v, the decoded filter %v", k, v.Has(k), d.Has(k))
				}
			}
		}
	})
}

// mustNewScalable returns a Scalable[uint64] of n keys, several stages for
// a few hundred.
func mustNewScalable(t testing.TB, n int) *Scalable[uint64] {
	s, err := NewScalable[uint64](30, 0.01, WithGrowth(1.5))
	if err != nil {
		t.Fatal(err)
	}
	s.AddAll(seedKeys(5, n))
	return s
}
