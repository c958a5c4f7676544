package bloom

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/internal/format"
)

// TestLookupAgreesWithView checks that Lookup answers as a FilterView[K]
// held across calls does, for string, []byte and uint64 keys of random
// filters, at every payload offset from a 64-byte boundary, and that it
// allocates nothing.
func TestLookupAgreesWithView(t *testing.T) {
	skipBigEndian(t)
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 6 {
		n := 1 + r.IntN(3000)
		fs, _ := New[string](uint64(n), []float64{0.3, 0.01, 1e-4}[trial%3])
		fu, _ := New[uint64](uint64(n), 0.05)
		keys := make([]string, 2*n)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%d-%d", trial, r.Uint64()>>r.IntN(64))
			if i%2 == 0 {
				fs.Add(keys[i])
				fu.Add(uint64(i) * 977)
			}
		}
		es, _ := fs.MarshalBinary()
		eu, _ := fu.MarshalBinary()
		for off := range 9 {
			bs, bu := unalignedAt(es, off*7), unalignedAt(eu, off*7)
			var vs FilterView[string]
			var vb FilterView[[]byte]
			var vu FilterView[uint64]
			if vs.Reset(bs) != nil || vb.Reset(bs) != nil || vu.Reset(bu) != nil {
				t.Fatal("Reset of a good encoding fails")
			}
			for i, k := range keys {
				a, err1 := Lookup(bs, k)
				c, err2 := Lookup(bs, []byte(k))
				u, err3 := Lookup(bu, uint64(i)*977)
				if err1 != nil || err2 != nil || err3 != nil {
					t.Fatal(err1, err2, err3)
				}
				if a != vs.Has(k) || c != vb.Has([]byte(k)) || u != vu.Has(uint64(i)*977) {
					t.Fatalf("trial %d, offset %d, key %d: Lookup differs from the held view", trial, off*7, i)
				}
			}
		}
		// Every integer kind and a named string type: Lookup hashes
		// strings, byte slices and 64-bit integers itself and hands the
		// smaller integers to the fused kernel.
		fi, _ := New[int64](uint64(n), 0.05)
		for i := range n {
			fi.Add(int64(i-n/2) * 31)
		}
		ei, _ := fi.MarshalBinary()
		bi := unalignedAt(ei, trial)
		for i := range 2 * n {
			x := int64(i-n) * 31
			checkLookup(t, bi, x)
			checkLookup(t, bi, int(x))
			checkLookup(t, bi, uint64(x))
			checkLookup(t, bi, int32(x))
			checkLookup(t, bi, int16(x))
			checkLookup(t, bi, uint8(x))
		}
		type name string
		for _, k := range keys[:200] {
			checkLookup(t, unalignedAt(es, trial), name(k))
		}
		kb := []byte(keys[0])
		if a := testing.AllocsPerRun(50, func() {
			_, _ = Lookup(es, keys[0])
			_, _ = Lookup(es, kb)
			_, _ = Lookup(eu, uint64(5))
		}); a != 0 {
			t.Fatalf("Lookup allocates %v times", a)
		}
	}
}

// TestLookupHostile checks that Lookup on damaged or hostile bytes returns
// the error Reset on a FilterView[K] returns (and false), or the answer of
// the view Reset makes, never reading outside b: for every k byte, every
// key-hash byte, every key-family value, random block counts, payload
// lengths and header bytes, and cut or extended encodings.
func TestLookupHostile(t *testing.T) {
	skipBigEndian(t)
	f, _ := New[string](400, 0.01)
	keys := make([]string, 200)
	for i := range keys {
		keys[i] = fmt.Sprint("key-", i)
		if i%2 == 0 {
			f.Add(keys[i])
		}
	}
	good, _ := f.MarshalBinary()
	check := func(what string, b []byte) {
		t.Helper()
		var vs FilterView[string]
		var vu FilterView[uint64]
		es, eu := vs.Reset(b), vu.Reset(b)
		for i, k := range keys[:8] {
			a, err := Lookup(b, k)
			if (err == nil) != (es == nil) || (err != nil && err.Error() != es.Error()) || a != vs.Has(k) {
				t.Fatalf("%s: Lookup[string] %v, %v; the view %v, %v", what, a, err, vs.Has(k), es)
			}
			u, err := Lookup(b, uint64(i))
			if (err == nil) != (eu == nil) || (err != nil && err.Error() != eu.Error()) || u != vu.Has(uint64(i)) {
				t.Fatalf("%s: Lookup[uint64] %v, %v; the view %v, %v", what, u, err, vu.Has(uint64(i)), eu)
			}
		}
	}
	for v := range 256 {
		for _, off := range []int{format.OffK, format.OffHash, format.OffCompat} {
			b := bytes.Clone(good)
			b[off] = byte(v)
			refixHeader(b)
			check(fmt.Sprintf("byte %d = %d", off, v), unalignedAt(b, v%9))
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		b := bytes.Clone(good)
		switch i % 4 {
		case 0:
			binary.LittleEndian.PutUint64(b[format.OffBlocks:], r.Uint64()>>r.IntN(64))
		case 1:
			binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], r.Uint64()>>r.IntN(64))
		case 2:
			nb := r.Uint64() >> r.IntN(64)
			binary.LittleEndian.PutUint64(b[format.OffBlocks:], nb)
			binary.LittleEndian.PutUint64(b[format.OffPayloadLen:], nb<<6)
		default:
			b[r.IntN(format.HeaderSize)] = byte(r.Uint32())
		}
		switch r.IntN(4) {
		case 0:
			b = b[:r.IntN(len(b)+1)]
		case 1:
			b = append(b, make([]byte, 64*r.IntN(3))...)
		}
		check("random header", b[:len(b):len(b)])
	}
}

// refixHeader recomputes the header CRC of b, so that what a test changed
// in the header is what a check finds, not the checksum.
func refixHeader(b []byte) {
	binary.LittleEndian.PutUint32(b[format.OffHeaderCRC:], format.CRC(b[:format.OffHeaderCRC]))
}

// checkLookup fails t if Lookup of key in b differs from a FilterView[K]
// of b (Reset) or errs.
func checkLookup[K Key](t *testing.T, b []byte, key K) {
	t.Helper()
	var v FilterView[K]
	if err := v.Reset(b); err != nil {
		t.Fatal(err)
	}
	got, err := Lookup(b, key)
	if err != nil || got != v.Has(key) {
		t.Fatalf("Lookup(%T %v) = %v, %v; the view says %v", key, key, got, err, v.Has(key))
	}
}
