package cuckoo

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/longtest"
)

// The batch lookup (the grouped Go loop and the assembly kernels) against
// the one-key lookup, answer by answer, at every usable level: every batch
// length 0 to 70 and around the group sizes, every fingerprint width in both
// layouts, one bucket to a large odd number of buckets, empty and full
// buckets, duplicate keys and keys sharing a fingerprint or a bucket.

// withLevel runs fn with cpu.Active set to l.
func withLevel(l cpu.Level, fn func()) {
	saved := cpu.Active
	defer func() { cpu.Active = saved }()
	cpu.Active = l
	fn()
}

// refHas is HasHash through the generic bucket decode (slots), for every
// fingerprint width.
func (f *Filter) refHas(h uint64) bool {
	if f.zero() {
		return false
	}
	i1, fp := f.split(h)
	return f.holds(i1, fp) || f.holds(f.alt(i1, fp), fp)
}

// checkHasHashes runs HasHashes on probe at level l into the middle of a
// poisoned buffer and compares every answer and the count with refHas and
// HasHash.
func checkHasHashes(t *testing.T, l cpu.Level, f *Filter, probe []uint64, desc string) {
	t.Helper()
	for _, poison := range []bool{false, true} {
		buf := make([]bool, len(probe)+16)
		for i := range buf {
			buf[i] = poison
		}
		out := buf[8 : 8+len(probe)]
		var got int
		withLevel(l, func() { got = f.HasHashes(probe, out) })
		want := 0
		for i, h := range probe {
			w := f.refHas(h)
			if w != f.HasHash(h) {
				t.Fatalf("%s: HasHash(%#x) = %v, generic decode %v", desc, h, !w, w)
			}
			if out[i] != w {
				t.Fatalf("%v %s len=%d: HasHashes[%d] (%#x) = %v, want %v", l, desc, len(probe), i, h, out[i], w)
			}
			want += int(b2u(w))
		}
		if got != want {
			t.Fatalf("%v %s len=%d: HasHashes counted %d, want %d", l, desc, len(probe), got, want)
		}
		for i := range 8 {
			if buf[i] != poison || buf[len(buf)-1-i] != poison {
				t.Fatalf("%v %s len=%d: HasHashes wrote outside out", l, desc, len(probe))
			}
		}
	}
}

// adversarial returns n probe hashes for f: added keys, random keys, and
// keys that share a fingerprint or a first bucket with added ones (so some
// bucket compares match in one part of a slot and not the other).
func adversarial(f *Filter, added []uint64, n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 7))
	hs := make([]uint64, n)
	for i := range hs {
		a := uint64(0)
		if len(added) > 0 {
			a = added[r.IntN(len(added))]
		}
		switch r.IntN(6) {
		case 0, 1:
			hs[i] = a
		case 2:
			hs[i] = r.Uint64()
		case 3: // same fingerprint, another first bucket
			hs[i] = r.Uint64()&^f.fpMask | a&f.fpMask
		case 4: // same first bucket, fingerprint off by a bit
			hs[i] = a ^ 1<<r.IntN(int(f.fpBits))
		case 5: // fingerprint 0 (read as 1), or all ones
			hs[i] = r.Uint64() &^ f.fpMask
			if r.IntN(2) == 0 {
				hs[i] |= f.fpMask
			}
		}
	}
	return hs
}

// fillTo returns a filter of g with nb buckets and the keys added, filled
// to load (stopping at the first failed Add).
func fillTo(t testing.TB, nb uint64, g geometry, load float64, seed uint64) (*Filter, []uint64) {
	f := mustBuckets(t, nb, g.fb, g.l)
	var added []uint64
	for _, h := range randomHashes(int(load*float64(nb*bucketSize))+1, seed) {
		if f.AddHash(h) != nil {
			break
		}
		added = append(added, h)
	}
	return f, added
}

func TestHasHashesLevels(t *testing.T) {
	bucketCounts := []uint64{1, 2, 3, 17, 1000, 100_003}
	switch {
	case longtest.Enabled():
	case testing.Short(): // emulated and race runs
		bucketCounts = []uint64{1, 3, 17, 1000}
	default:
		bucketCounts = []uint64{1, 3, 17, 1000, 100_003}
	}
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, l cpu.Level) {
		for fb := minFingerprintBits; fb <= maxFingerprintBits; fb++ {
			for _, lay := range []Layout{SemiSorted, Plain} {
				if !longtest.Enabled() && fb > 17 && fb%5 != 0 && fb != maxFingerprintBits {
					continue
				}
				g := geometry{fb, lay}
				for _, nb := range bucketCounts {
					// Without -long, the large table at four widths only
					// (the narrowest, byte, half-word and widest codes).
					if !longtest.Enabled() && nb > 1000 && fb != minFingerprintBits && fb != 8 && fb != 16 && fb != maxFingerprintBits {
						continue
					}
					for _, load := range []float64{0, 0.5, 1} {
						f, added := fillTo(t, nb, g, load, uint64(fb)*131+nb)
						desc := fmt.Sprintf("%v buckets=%d load=%.1f", g, nb, load)
						probe := adversarial(f, added, 1100, nb+uint64(fb))
						for n := 0; n <= 70; n++ {
							checkHasHashes(t, l, f, probe[:n], desc)
						}
						for _, n := range []int{127, 128, 129, 255, 256, 257, 1024, 1100} {
							checkHasHashes(t, l, f, probe[:n], desc)
						}
					}
				}
			}
		}
	})
}

// TestHasHashesDuplicates probes one key many times and a full one-bucket
// table with all of its fingerprints and their neighbours.
func TestHasHashesDuplicates(t *testing.T) {
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, l cpu.Level) {
		for _, g := range geometries {
			f := mustBuckets(t, 1, g.fb, g.l)
			var probe []uint64
			for v := uint64(0); v < 64; v++ {
				h := v * 0x9e3779b97f4a7c15
				if f.AddHash(h) == nil {
					probe = append(probe, h, h, h^1, h+1<<32)
				}
			}
			for range 20 {
				probe = append(probe, probe[0])
			}
			checkHasHashes(t, l, f, probe, fmt.Sprintf("%v one bucket", g))
		}
	})
}

// FuzzHasHashes compares HasHashes at every level with the one-key lookup
// on a filter and a probe batch decoded from the input.
func FuzzHasHashes(f *testing.F) {
	f.Add(byte(6), byte(1), uint16(100), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(byte(12), byte(0), uint16(3), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add(byte(0), byte(1), uint16(1), []byte{})
	levels := childtest.NewFuzzLevels(f)
	f.Fuzz(func(t *testing.T, fb, lay byte, nb uint16, in []byte) {
		g := geometry{minFingerprintBits + int(fb)%(maxFingerprintBits-minFingerprintBits+1), Layout(lay%2 + 1)}
		seed := uint64(len(in))
		for _, b := range in {
			seed = seed*31 + uint64(b)
		}
		c, added := fillTo(t, uint64(nb)+1, g, float64(seed%11)/10, seed)
		probe := adversarial(c, added, len(in), seed)
		for i := 0; i+8 <= len(in); i += 8 {
			var h uint64
			for _, b := range in[i : i+8] {
				h = h<<8 | uint64(b)
			}
			probe[i] = h
		}
		levels.Run(t, func(t *testing.T, l cpu.Level) {
			checkHasHashes(t, l, c, probe, fmt.Sprintf("%v buckets=%d", g, uint64(nb)+1))
		})
	})
}

// TestBatchMutations: AddHashes adds like a loop of AddHash and, when one
// does not fit, stops there (reporting how many were added, the failed one
// changing nothing); RemoveHashes removes like a loop of RemoveHash and
// counts the removals.
func TestBatchMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	hs := make([]uint64, 5000)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	a, _ := NewBuckets(1024, 12, SemiSorted)
	b, _ := NewBuckets(1024, 12, SemiSorted)
	n, err := a.AddHashes(hs)
	want := len(hs)
	var werr error
	for i, h := range hs {
		if werr = b.AddHash(h); werr != nil {
			want = i
			break
		}
	}
	if n != want || (err == nil) != (werr == nil) || !a.Equal(b) {
		t.Fatalf("AddHashes: %d, %v; a loop of AddHash: %d, %v; equal %v", n, err, want, werr, a.Equal(b))
	}
	if err == nil || n >= len(hs) {
		t.Fatalf("4096 slots took %d of %d hashes without errFull", n, len(hs))
	}
	removed := a.RemoveHashes(hs[:n/2])
	m := 0
	for _, h := range hs[:n/2] {
		if b.RemoveHash(h) {
			m++
		}
	}
	if removed != m || m != n/2 || !a.Equal(b) {
		t.Fatalf("RemoveHashes removed %d, a loop of RemoveHash %d of %d; equal %v", removed, m, n/2, a.Equal(b))
	}
}
