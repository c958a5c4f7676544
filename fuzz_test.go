package bloom

import (
	"encoding/binary"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/cpu"
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
// never reports an added hash absent.
func FuzzFilterKernels(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, blocks uint32, k16 bool, data []byte) {
		nb := uint64(blocks%20000) + 1
		k := 8
		if k16 {
			k = 16
		}
		hs := hashesOf(data)
		half := hs[:len(hs)/2] // added; the rest are probes that may be absent
		var ref *blocked.Filter
		var refOut []bool
		for _, l := range cpu.Usable() {
			fl, err := blocked.NewBytes(nb*64, k)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]bool, len(hs))
			withLevel(l, func() {
				fl.AddHashes(half)
				fl.HasHashes(hs, out)
			})
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
			if ref == nil {
				ref, refOut = fl, out
				continue
			}
			if !fl.Equal(ref) {
				t.Fatalf("%v builds a different filter than %v", l, cpu.Usable()[0])
			}
			for i := range out {
				if out[i] != refOut[i] {
					t.Fatalf("%v answers %v for %#x, generic %v", l, out[i], hs[i], refOut[i])
				}
			}
		}
	})
}

// FuzzSplitBlockKernels is FuzzFilterKernels for the Parquet split block
// filter, comparing the serialized bitsets byte for byte.
func FuzzSplitBlockKernels(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, blocks uint32, _ bool, data []byte) {
		nb := int(blocks%20000) + 1
		hs := hashesOf(data)
		half := hs[:len(hs)/2]
		var ref []byte
		var refOut []bool
		for _, l := range cpu.Usable() {
			s, err := blocked.NewSplitBlockBytes(uint64(nb * 32))
			if err != nil {
				t.Fatal(err)
			}
			out := make([]bool, len(hs))
			withLevel(l, func() {
				s.AddHashes(half)
				s.HasHashes(hs, out)
			})
			for i := range half {
				if !out[i] {
					t.Fatalf("%v: false negative for %#x", l, half[i])
				}
			}
			bits := s.Bitset()
			if ref == nil {
				ref, refOut = bits, out
				continue
			}
			if string(bits) != string(ref) {
				t.Fatalf("%v builds a different bitset than generic", l)
			}
			for i := range out {
				if out[i] != refOut[i] {
					t.Fatalf("%v answers %v for %#x, generic %v", l, out[i], hs[i], refOut[i])
				}
			}
		}
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
