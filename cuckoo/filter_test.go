package cuckoo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/longtest"

	"github.com/simdbloom/bloom/internal/errs"
)

// randomHashes returns n well-mixed hashes from a seeded generator.
func randomHashes(n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 0xc0c0))
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

func mustBuckets(t testing.TB, buckets uint64, fpBits int, l Layout) *Filter {
	t.Helper()
	f, err := NewBuckets(buckets, fpBits, l)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// geometry is a fingerprint width and a layout.
type geometry struct {
	fb int
	l  Layout
}

func (g geometry) String() string { return fmt.Sprintf("f=%d/%v", g.fb, g.l) }

// geometries covers both layouts, the shortest and longest fingerprints,
// widths on both sides of 16 (the SWAR lookup's limit) and semi-sorted
// widths with no low bits (4) or odd bucket sizes.
var geometries = []geometry{
	{4, SemiSorted}, {5, SemiSorted}, {8, SemiSorted}, {10, SemiSorted}, {13, SemiSorted},
	{16, SemiSorted}, {17, SemiSorted}, {24, SemiSorted}, {32, SemiSorted},
	{4, Plain}, {8, Plain}, {11, Plain}, {16, Plain}, {19, Plain}, {32, Plain},
}

// shortGeometries is a smaller set for the slower tests.
var shortGeometries = []geometry{{8, SemiSorted}, {13, SemiSorted}, {17, SemiSorted}, {12, Plain}}

// refSlots returns every stored fingerprint, bucket by bucket, read bit by
// bit from the table (the reference for the word-at-a-time code).
func (f *Filter) refSlots() []uint64 {
	bit := func(off uint64) uint64 { return uint64(f.data[off/8]>>(off%8)) & 1 }
	field := func(off uint64, n uint) uint64 {
		var v uint64
		for k := range uint64(n) {
			v |= bit(off+k) << k
		}
		return v
	}
	var r []uint64
	for i := range f.NumBuckets() {
		base := i * f.bBits
		for j := range uint64(bucketSize) {
			if f.layout == SemiSorted {
				nib := uint64(decodeNibbles[field(base, codeBits)]) >> (4 * j) & 15
				r = append(r, nib<<f.rest|field(base+codeBits+j*uint64(f.rest), f.rest))
			} else {
				r = append(r, field(base+j*uint64(f.fpBits), f.fpBits))
			}
		}
	}
	return r
}

// fillUntilFull adds hashes until the first failed Add and returns how many
// were added and the error.
func fillUntilFull(f *Filter, seed uint64) (int, uint64, error) {
	r := rand.New(rand.NewPCG(seed, 1))
	for n := 0; ; n++ {
		h := r.Uint64()
		if err := f.AddHash(h); err != nil {
			return n, h, err
		}
	}
}

// TestSemiSortCodes: the 3876 codes are exactly the sorted 4-tuples of
// nibbles, each once, and encoding inverts decoding.
func TestSemiSortCodes(t *testing.T) {
	seen := map[uint16]bool{}
	for c := range uint64(numCodes) {
		nib := decodeNibbles[c]
		for j := range 3 {
			if nib>>(4*j)&15 > nib>>(4*j+4)&15 {
				t.Fatalf("code %d decodes to unsorted nibbles %#04x", c, nib)
			}
		}
		if seen[nib] || (c > 0 && nib == 0) {
			t.Fatalf("nibbles %#04x decoded twice", nib)
		}
		seen[nib] = true
		if e := encodeNibbles(uint64(nib)); uint64(e) != c {
			t.Fatalf("code %d decodes to %#04x, which encodes to %d", c, nib, e)
		}
	}
	if len(seen) != 3876 {
		t.Fatalf("%d codes", len(seen))
	}
}

// TestLookupMatchesSlots checks lookups against a bit-by-bit reading of
// the table, for every geometry and odd numbers of buckets, including
// fingerprints 0/1 and the extreme values; the alternate bucket map is an
// involution; the stored count is the occupied slots; semi-sorted buckets
// are sorted.
func TestLookupMatchesSlots(t *testing.T) {
	for _, g := range geometries {
		for _, nb := range []uint64{1, 3, 61, 100} {
			f := mustBuckets(t, nb, g.fb, g.l)
			hs := randomHashes(int(nb)*5, uint64(g.fb)+nb)
			for v := range uint64(16) {
				hs = append(hs, v, v<<32, f.fpMask-v, f.fpMask<<(f.fpBits-4)|v, 1<<(f.fpBits-1)|v<<32, ^v)
			}
			var added []uint64
			for _, h := range hs {
				if f.AddHash(h) == nil {
					added = append(added, h)
				}
			}
			slots := f.refSlots()
			var n uint64
			for k, s := range slots {
				n += b2u(s != 0)
				if g.l == SemiSorted && k%bucketSize > 0 && s < slots[k-1] {
					t.Fatalf("%v: bucket %d is not sorted: %v", g, k/bucketSize, slots[k-k%bucketSize:k+1])
				}
			}
			if n != uint64(f.EstimatedCount()) {
				t.Fatalf("%v: %d occupied slots, Len %d", g, n, uint64(f.EstimatedCount()))
			}
			probe := append(randomHashes(3000, 99), hs...)
			for _, h := range probe {
				i1, fp := f.split(h)
				i2 := f.alt(i1, fp)
				if i1 >= nb || i2 >= nb || f.alt(i2, fp) != i1 {
					t.Fatalf("buckets %d, %d of %d: alt is not an involution", i1, i2, nb)
				}
				want := false
				for _, b := range []uint64{i1, i2} {
					for j := range uint64(bucketSize) {
						want = want || slots[b*bucketSize+j] == fp
					}
				}
				if got := f.HasHash(h); got != want {
					t.Fatalf("%v buckets %d: HasHash(%#x) = %v, bit by bit %v", g, nb, h, got, want)
				}
			}
			for _, h := range added {
				if !f.HasHash(h) {
					t.Fatalf("%v: false negative for %#x", g, h)
				}
			}
		}
	}
}

// TestBucketsSpread: over a table of a number of buckets that is not a
// power of two, first and alternate buckets are spread evenly (a chi-square
// test at a fixed seed, with a bound far in the tail).
func TestBucketsSpread(t *testing.T) {
	const nb = 1000
	f := mustBuckets(t, nb, 12, SemiSorted)
	var first, other [nb]float64
	const n = 200_000
	for _, h := range randomHashes(n, 3) {
		i, fp := f.split(h)
		first[i]++
		other[f.alt(i, fp)]++
	}
	for name, c := range map[string]*[nb]float64{"first": &first, "alternate": &other} {
		chi := 0.0
		for _, x := range c {
			chi += (x - n/nb) * (x - n/nb) / (n / nb)
		}
		// 999 degrees of freedom: mean 999, sd about 45.
		if chi > 999+6*45 {
			t.Errorf("%s buckets: chi-square %.0f", name, chi)
		}
	}
}

// TestLoadFactorBeforeFull: the first failed Add comes at a load of at
// least 0.95 from fullBuckets buckets up, for several geometries and table
// sizes; the full distribution over 50 seeds is TestLoads.
func TestLoadFactorBeforeFull(t *testing.T) {
	sizes := []uint64{16, 100, 1000, 1 << 14, 100_003}
	if !longtest.Enabled() {
		sizes = sizes[:4] // 100_003 buckets with -long
	}
	for _, g := range shortGeometries {
		for _, nb := range sizes {
			for seed := range uint64(3) {
				f := mustBuckets(t, nb, g.fb, g.l)
				n, _, err := fillUntilFull(f, seed+nb)
				if !errors.Is(err, errFull) {
					t.Fatalf("want errFull, got %v", err)
				}
				lf := f.LoadFactor()
				if seed == 0 {
					t.Logf("%v buckets=%d: first failed Add at load %.4f (%d keys)", g, nb, lf, n)
				}
				if lf < plannedLoad(g.fb) && nb >= fullBuckets {
					t.Errorf("%v buckets=%d seed %d: first failed Add at load %.4f, below %v", g, nb, seed, lf, plannedLoad(g.fb))
				}
				if lf < smallLoad(nb) {
					t.Errorf("%v buckets=%d seed %d: first failed Add at load %.4f, below the planned %.3f", g, nb, seed, lf, smallLoad(nb))
				}
			}
		}
	}
}

// TestFailedAddUnchanged: a failed Add leaves the filter byte for byte as
// it was (table, count and the victim generator), and every added key is
// still present.
func TestFailedAddUnchanged(t *testing.T) {
	sizes := []uint64{1, 2, 63, 1024}
	if longtest.Enabled() {
		sizes = append(sizes, 4096) // a Clone per Add: quadratic in the size
	}
	for _, g := range geometries {
		for _, nb := range sizes {
			f := mustBuckets(t, nb, g.fb, g.l)
			r := rand.New(rand.NewPCG(uint64(g.fb), nb))
			var added []uint64
			failures := 0
			for failures < 8 {
				h := r.Uint64()
				before := f.Clone()
				beforeRNG := f.rng
				if err := f.AddHash(h); err != nil {
					failures++
					if !errors.Is(err, errFull) || !strings.Contains(err.Error(), "evictions") {
						t.Fatalf("failed Add returned %v", err)
					}
					if !f.Equal(before) || f.rng != beforeRNG || string(f.data) != string(before.data) {
						t.Fatalf("%v buckets=%d: a failed Add changed the filter", g, nb)
					}
					continue
				}
				added = append(added, h)
			}
			for _, h := range added {
				if !f.HasHash(h) {
					t.Fatalf("%v buckets=%d: false negative after failed Adds", g, nb)
				}
			}
			if uint64(f.EstimatedCount()) != uint64(len(added)) {
				t.Fatalf("Len %d, added %d", uint64(f.EstimatedCount()), len(added))
			}
		}
	}
}

// TestRemoveKeepsOthers: removing added keys never loses the others, frees
// their slots, and a removed key answers no except at the FPR.
func TestRemoveKeepsOthers(t *testing.T) {
	for _, g := range geometries {
		fb := g.fb
		f := mustBuckets(t, 10_007, fb, g.l)
		hs := randomHashes(int(min(0.94, plannedLoad(fb))*float64(f.NumBuckets()*bucketSize)), uint64(fb)+100)
		for _, h := range hs {
			if err := f.AddHash(h); err != nil {
				t.Fatal(err)
			}
		}
		removed, kept := hs[:len(hs)/2], hs[len(hs)/2:]
		absent := randomHashes(1000, 7)
		before := f.Clone()
		for _, h := range absent {
			if !f.HasHash(h) && f.RemoveHash(h) {
				t.Fatalf("%v: RemoveHash of an absent hash returned true", g)
			}
		}
		if !f.Equal(before) {
			t.Fatalf("%v: removing absent hashes changed the filter", g)
		}
		for _, h := range removed {
			if !f.RemoveHash(h) {
				t.Fatalf("f=%d: RemoveHash of an added key returned false", fb)
			}
		}
		for _, h := range kept {
			if !f.HasHash(h) {
				t.Fatalf("f=%d: removing other keys lost a key", fb)
			}
		}
		if uint64(f.EstimatedCount()) != uint64(len(kept)) {
			t.Fatalf("Len %d after removals, want %d", uint64(f.EstimatedCount()), len(kept))
		}
		yes := 0
		for _, h := range removed {
			yes += int(b2u(f.HasHash(h)))
		}
		want := fprAt(fb, f.LoadFactor())
		if got := float64(yes) / float64(len(removed)); got > want+4*sigma(want, len(removed)) {
			t.Errorf("f=%d: removed keys still present at %.5f, want about %.5f", fb, got, want)
		}
		// Removing everything leaves an empty table.
		for _, h := range kept {
			f.RemoveHash(h)
		}
		if uint64(f.EstimatedCount()) != 0 || f.LoadFactor() != 0 {
			t.Fatalf("f=%d: Len %d after removing every key", fb, uint64(f.EstimatedCount()))
		}
		for _, s := range f.refSlots() {
			if s != 0 {
				t.Fatalf("f=%d: a slot is still occupied after removing every key", fb)
			}
		}
	}
}

func TestDuplicates(t *testing.T) {
	f := mustBuckets(t, 1000, 12, SemiSorted)
	h := uint64(0xfeedface12345678)
	for i := range 8 {
		if err := f.AddHash(h); err != nil {
			t.Fatalf("copy %d of a key: %v", i+1, err)
		}
	}
	if err := f.AddHash(h); !errors.Is(err, errFull) {
		t.Fatalf("a 9th copy of a key should not fit in its 2 buckets, got %v", err)
	}
	for i := range 8 {
		if !f.HasHash(h) || !f.RemoveHash(h) {
			t.Fatalf("remove %d of 8 copies failed", i+1)
		}
	}
	if f.HasHash(h) || f.RemoveHash(h) || uint64(f.EstimatedCount()) != 0 {
		t.Fatal("a key removed as often as added is still there")
	}
}

// sigma is the binomial standard deviation of a rate p measured over n trials.
func sigma(p float64, n int) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

// TestFPRMatchesFormula measures the FPR of full tables against
// fprAt(f, load) = 1 - (1 - (2^f+2)/4^f)^(8*load), within 4 sigma.
func TestFPRMatchesFormula(t *testing.T) {
	for _, g := range geometries {
		fb := g.fb
		for _, target := range []float64{0.95, 0.5} {
			f := mustBuckets(t, 65_537, fb, g.l)
			keys := randomHashes(int(min(target, plannedLoad(fb))*float64(f.NumBuckets()*bucketSize)), uint64(fb))
			for _, h := range keys {
				if err := f.AddHash(h); err != nil {
					t.Fatal(err)
				}
			}
			probes := 1 << 22
			if fb >= 16 {
				probes = 1 << 24
			}
			if !longtest.Enabled() {
				probes /= 4 // the bound is 4 sigma of the probes made
			}
			r := rand.New(rand.NewPCG(uint64(fb), 77))
			yes := 0
			for range probes {
				yes += int(b2u(f.HasHash(r.Uint64())))
			}
			got := float64(yes) / float64(probes)
			want := fprAt(fb, f.LoadFactor())
			s := sigma(want, probes)
			t.Logf("%v load %.3f: measured FPR %.6f, formula %.6f (sigma %.6f), 2b/2^f = %.6f",
				g, f.LoadFactor(), got, want, s, 8/math.Ldexp(1, fb))
			// Below 6 bits the fingerprints of a bucket are often equal
			// (15 values), and the measured rate is a few percent under
			// the formula, which then bounds it from above.
			if got-want > 4*s || (fb >= 6 && want-got > 4*s) {
				t.Errorf("f=%d load %.3f: measured FPR %.6f is more than 4 sigma from %.6f", fb, f.LoadFactor(), got, want)
			}
			if math.Abs(f.EstimatedFPR()-want) > 1e-12 {
				t.Errorf("EstimatedFPR %v, want %v", f.EstimatedFPR(), want)
			}
		}
	}
}

// TestNewSizing: New's filters meet their load and FPR, are the smallest
// table of their fingerprint width (one bucket fewer would not do) and of
// any width (checked against every width), and take their planned keys.
func TestNewSizing(t *testing.T) {
	for _, l := range []Layout{SemiSorted, Plain} {
		for _, p := range []float64{0.1, 0.03, 0.01, 0.002, 0.001, 1e-4, 1e-6} {
			for _, n := range []uint64{1, 100, 1000, 3000, 1_000_000, 3_800_000} {
				f, err := newLayout(n, p, l)
				if err != nil {
					t.Fatalf("New(%d, %v): %v", n, p, err)
				}
				fb, nb := f.FingerprintBits(), f.NumBuckets()
				load := float64(n) / float64(nb*bucketSize)
				if load > smallLoad(nb) || fprAt(fb, load) > p || f.Layout() != l {
					t.Fatalf("New(%d, %v, %v): load %.3f, expected FPR %v", n, p, l, load, fprAt(fb, load))
				}
				if l := float64(n) / float64((nb-1)*bucketSize); nb > 1 && l <= smallLoad(nb-1) && fprAt(fb, l) <= p {
					t.Fatalf("New(%d, %v): %d buckets is not the smallest", n, p, nb)
				}
				for w := minFingerprintBits; w <= maxFingerprintBits; w++ {
					load := min(plannedLoad(w), maxLoadFor(w, p))
					if load < minLoad {
						continue
					}
					if nbw, _ := bucketsFor(n, load); nbw*bucketBits(w, l) < f.NumBits() {
						t.Fatalf("New(%d, %v): %d-bit fingerprints in %d buckets are smaller than %d bits in %d", n, p, w, nbw, fb, nb)
					}
				}
			}
		}
	}
	// New's filters take their planned keys, small ones included (a table
	// just at 0.95 load, and every n up to 2000 with 20 seeds each).
	top := 2000
	if !longtest.Enabled() {
		top = 600
	}
	for _, fpr := range []float64{0.03, 0.002, 1e-4} {
		for _, n := range []int{3_800_000 / 16, 65_536 * 4 * 95 / 100} {
			f, _ := New(uint64(n), fpr)
			for i, h := range randomHashes(n, 5) {
				if err := f.AddHash(h); err != nil {
					t.Fatalf("New(%d, %v): add %d failed at load %.3f: %v", n, fpr, i, f.LoadFactor(), err)
				}
			}
		}
		for n := 1; n <= top; n++ {
			for seed := range uint64(20) {
				f, _ := New(uint64(n), fpr)
				for i, h := range randomHashes(n, seed<<20|uint64(n)) {
					if err := f.AddHash(h); err != nil {
						t.Fatalf("New(%d, %v) seed %d: add %d failed at load %.3f: %v", n, fpr, seed, i, f.LoadFactor(), err)
					}
				}
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		p    float64
		want error
	}{
		{0, 0.01, errs.ErrKeys}, {10, 0, errs.ErrFPR}, {10, -0.1, errs.ErrFPR}, {10, 1, errs.ErrFPR}, {10, 2, errs.ErrFPR},
		{10, math.NaN(), errs.ErrFPR}, {10, math.Inf(1), errs.ErrFPR}, {10, 1e-10, errs.ErrFPR}, {10, 1e-12, errs.ErrFPR},
		{math.MaxUint64, 0.01, errs.ErrTooLarge}, {1 << 40, 0.001, errs.ErrTooLarge},
	} {
		f, err := New(c.n, c.p)
		if !errors.Is(err, c.want) || f != nil {
			t.Errorf("New(%d, %v) = %v, %v; want error %v", c.n, c.p, f, err, c.want)
		}
	}
	for _, c := range []struct {
		buckets uint64
		fb      int
		l       Layout
		want    error
	}{
		{0, 8, SemiSorted, errs.ErrGeometry}, {1 << 33, 16, SemiSorted, errs.ErrTooLarge}, {1<<32 + 1, 8, Plain, errs.ErrTooLarge},
		{16, 0, SemiSorted, errs.ErrGeometry}, {16, 3, Plain, errs.ErrGeometry}, {16, 33, SemiSorted, errs.ErrGeometry},
		{16, -8, Plain, errs.ErrGeometry}, {16, 8, 0, errs.ErrGeometry}, {16, 8, 3, errs.ErrGeometry},
	} {
		f, err := NewBuckets(c.buckets, c.fb, c.l)
		if !errors.Is(err, c.want) || f != nil {
			t.Errorf("NewBuckets(%d, %d, %v) = %v, %v; want error %v", c.buckets, c.fb, c.l, f, err, c.want)
		}
	}
	if _, err := SizeLayout(10, 0.01, 7); !errors.Is(err, errs.ErrGeometry) {
		t.Errorf("SizeLayout with layout 7: %v", err)
	}
}

// TestTooLargeFor32Bit: on 32-bit platforms a table an int cannot size is
// an error, not a panic in make.
func TestTooLargeFor32Bit(t *testing.T) {
	if math.MaxInt != math.MaxInt32 {
		t.Skip("64-bit platform")
	}
	if _, err := NewBuckets(1<<30, 16, Plain); !errors.Is(err, errs.ErrTooLarge) {
		t.Errorf("NewBuckets(2^30, 16) on 32-bit: %v", err)
	}
	if _, err := New(1<<31, 0.01); !errors.Is(err, errs.ErrTooLarge) {
		t.Errorf("New(2^31, 0.01) on 32-bit: %v", err)
	}
	// Size is arithmetic: it answers what the format can address.
	if s, err := Size(1<<31, 0.01); err != nil || s.Bytes <= 1<<31 {
		t.Errorf("Size(2^31, 0.01) on 32-bit = %+v, %v; want a table over 2 GiB", s, err)
	}
}

func TestCloneClearEqualBatch(t *testing.T) {
	f := mustBuckets(t, 250, 12, SemiSorted)
	hs := randomHashes(900, 8)
	for _, h := range hs {
		if err := f.AddHash(h); err != nil {
			t.Fatal(err)
		}
	}
	c := f.Clone()
	if !c.Equal(f) || c.Equal(nil) || c.Equal(mustBuckets(t, 250, 16, SemiSorted)) || c.Equal(mustBuckets(t, 250, 12, Plain)) {
		t.Fatal("Clone/Equal")
	}
	c.RemoveHash(hs[0])
	if c.Equal(f) || !f.HasHash(hs[0]) {
		t.Fatal("a clone shares its table with the original")
	}
	probe := append(randomHashes(5000, 9), hs...)
	out := make([]bool, len(probe)+1)
	out[len(probe)] = true
	n := f.HasHashes(probe, out)
	want := 0
	for i, h := range probe {
		if out[i] != f.HasHash(h) {
			t.Fatal("HasHashes differs from HasHash")
		}
		want += int(b2u(out[i]))
	}
	if n != want || !out[len(probe)] {
		t.Fatalf("HasHashes returned %d, counted %d, or wrote past len(hs)", n, want)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "shorter") {
				t.Fatalf("want a panic naming the short slice, got %v", r)
			}
		}()
		f.HasHashes(hs, make([]bool, 3))
	}()
	f.Clear()
	if uint64(f.EstimatedCount()) != 0 || f.HasHash(hs[1]) {
		t.Fatal("Clear left keys")
	}
}

func TestZeroAllocs(t *testing.T) {
	f := mustBuckets(t, 5000, 8, SemiSorted)
	hs := randomHashes(1000, 4)
	out := make([]bool, len(hs))
	for name, fn := range map[string]func(){
		"AddHash+RemoveHash": func() { _ = f.AddHash(hs[3]); f.RemoveHash(hs[3]) },
		"HasHash":            func() { f.HasHash(hs[5]) },
		"HasHashes":          func() { f.HasHashes(hs, out) },
	} {
		if a := testing.AllocsPerRun(100, fn); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}

// TestSizingFields: Size's result is the shared blocked.Sizing shape, its fields
// agree with each other and with the filter New makes.
func TestSizingFields(t *testing.T) {
	for _, n := range []uint64{1, 500, 100_000} {
		for _, p := range []float64{0.03, 0.002, 1e-4} {
			s, err := Size(n, p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := New(n, p)
			if err != nil {
				t.Fatal(err)
			}
			if s.Keys != n || s.Blocks != f.NumBuckets() || s.FingerprintBits != f.FingerprintBits() ||
				s.Bits != f.NumBits() || s.Bytes != (s.Bits+7)/8 || s.BitsPerKey != float64(s.Bits)/float64(n) ||
				s.Load != float64(n)/float64(s.Blocks*bucketSize) || s.FPR != fprAt(s.FingerprintBits, s.Load) ||
				s.FPR > p || s.K != 0 {
				t.Errorf("Size(%d, %v) = %+v; filter has %d buckets of %d bits", n, p, s, f.NumBuckets(), f.FingerprintBits())
			}
		}
	}
}

// TestFPRKeysFirst: FPR(n, buckets, fpBits) is the rate of a filter of that
// shape holding n keys, what EstimatedFPR reports for it, and 1 for no
// buckets.
func TestFPRKeysFirst(t *testing.T) {
	f, _ := NewBuckets(256, 12, Plain)
	for i := range uint64(700) {
		if err := f.AddHash(i * 0x9e3779b97f4a7c15); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := FPR(700, 256, 12), f.EstimatedFPR(); got != want || got <= 0 {
		t.Errorf("FPR(700, 256, 12) = %v, EstimatedFPR %v", got, want)
	}
	if got := FPR(5, 0, 12); got != 1 {
		t.Errorf("FPR with no buckets = %v, want 1", got)
	}
}
