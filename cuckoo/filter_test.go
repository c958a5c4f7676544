package cuckoo

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
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

func mustBuckets(t testing.TB, buckets uint64, fpBits int) *Filter {
	t.Helper()
	f, err := NewBuckets(buckets, fpBits)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var fpSizes = []int{8, 12, 16}

// slots returns every stored fingerprint, bucket by bucket, read lane by lane
// without SWAR (the reference the SWAR code is checked against).
func (f *Filter) slots() []uint64 {
	var r []uint64
	for i := range f.NumBuckets() {
		var bucket uint64
		for k := range f.stride {
			bucket |= uint64(f.data[i*f.stride+k]) << (8 * k)
		}
		for j := range uint(BucketSize) {
			r = append(r, bucket>>(j*f.fpBits)&f.fpMask)
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

// TestSWARMatchesLanes checks lookups against a lane-by-lane reading of the
// table, for every fingerprint size, including fingerprints 0/1 and values
// with every lane bit pattern.
func TestSWARMatchesLanes(t *testing.T) {
	for _, fb := range fpSizes {
		f := mustBuckets(t, 64, fb)
		hs := randomHashes(200, uint64(fb))
		for v := range uint64(16) {
			hs = append(hs, v, v<<32, f.fpMask-v, f.fpMask<<(f.fpBits-4)|v, 1<<(f.fpBits-1)|v<<32)
		}
		var added []uint64
		for _, h := range hs {
			if f.AddHash(h) == nil {
				added = append(added, h)
			}
		}
		slots := f.slots()
		var n uint64
		for _, s := range slots {
			n += b2u(s != 0)
		}
		if n != f.Len() {
			t.Fatalf("f=%d: %d occupied slots, Len %d", fb, n, f.Len())
		}
		probe := append(randomHashes(5000, 99), hs...)
		for _, h := range probe {
			i1, fp := f.split(h)
			i2 := f.alt(i1, fp)
			if f.alt(i2, fp) != i1 {
				t.Fatalf("alt is not an involution")
			}
			want := false
			for _, b := range []uint64{i1, i2} {
				for j := range uint64(BucketSize) {
					want = want || slots[b*BucketSize+j] == fp
				}
			}
			if got := f.HasHash(h); got != want {
				t.Fatalf("f=%d: HasHash(%#x) = %v, lane-by-lane %v", fb, h, got, want)
			}
		}
		for _, h := range added {
			if !f.HasHash(h) {
				t.Fatalf("f=%d: false negative for %#x", fb, h)
			}
		}
	}
}

// TestLoadFactorBeforeFull: the first failed Add comes at a load of at
// least 0.95, for every fingerprint size and several table sizes.
func TestLoadFactorBeforeFull(t *testing.T) {
	sizes := []uint64{16, 1 << 10, 1 << 14, 1 << 18}
	if testing.Short() {
		sizes = sizes[:3]
	}
	for _, fb := range fpSizes {
		for _, nb := range sizes {
			for seed := range uint64(3) {
				f := mustBuckets(t, nb, fb)
				n, _, err := fillUntilFull(f, seed+nb)
				if !errors.Is(err, ErrFull) {
					t.Fatalf("want ErrFull, got %v", err)
				}
				lf := f.LoadFactor()
				if seed == 0 {
					t.Logf("f=%d buckets=%d: first failed Add at load %.4f (%d keys)", fb, nb, lf, n)
				}
				if lf < 0.95 && nb >= 1<<10 {
					t.Errorf("f=%d buckets=%d seed %d: first failed Add at load %.4f, below 0.95", fb, nb, seed, lf)
				}
				if lf < 0.80 {
					t.Errorf("f=%d buckets=%d seed %d: first failed Add at load %.4f", fb, nb, seed, lf)
				}
			}
		}
	}
}

// TestFailedAddUnchanged: a failed Add leaves the filter byte for byte as
// it was (table, count and the victim generator), and every added key is
// still present.
func TestFailedAddUnchanged(t *testing.T) {
	for _, fb := range fpSizes {
		for _, nb := range []uint64{1, 2, 64, 4096} {
			f := mustBuckets(t, nb, fb)
			r := rand.New(rand.NewPCG(uint64(fb), nb))
			var added []uint64
			failures := 0
			for failures < 20 {
				h := r.Uint64()
				before := f.Clone()
				beforeRNG := f.rng
				if err := f.AddHash(h); err != nil {
					failures++
					if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "evictions") {
						t.Fatalf("failed Add returned %v", err)
					}
					if !f.Equal(before) || f.rng != beforeRNG || string(f.data) != string(before.data) {
						t.Fatalf("f=%d buckets=%d: a failed Add changed the filter", fb, nb)
					}
					continue
				}
				added = append(added, h)
			}
			for _, h := range added {
				if !f.HasHash(h) {
					t.Fatalf("f=%d buckets=%d: false negative after failed Adds", fb, nb)
				}
			}
			if f.Len() != uint64(len(added)) {
				t.Fatalf("Len %d, added %d", f.Len(), len(added))
			}
		}
	}
}

// TestRemoveKeepsOthers: removing added keys never loses the others, frees
// their slots, and a removed key answers no except at the FPR.
func TestRemoveKeepsOthers(t *testing.T) {
	for _, fb := range fpSizes {
		f := mustBuckets(t, 1<<14, fb)
		hs := randomHashes(int(0.94*float64(f.NumBuckets()*BucketSize)), uint64(fb)+100)
		for _, h := range hs {
			if err := f.AddHash(h); err != nil {
				t.Fatal(err)
			}
		}
		removed, kept := hs[:len(hs)/2], hs[len(hs)/2:]
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
		if f.Len() != uint64(len(kept)) {
			t.Fatalf("Len %d after removals, want %d", f.Len(), len(kept))
		}
		yes := 0
		for _, h := range removed {
			yes += int(b2u(f.HasHash(h)))
		}
		want := ExpectedFPR(fb, f.LoadFactor())
		if got := float64(yes) / float64(len(removed)); got > want+4*sigma(want, len(removed)) {
			t.Errorf("f=%d: removed keys still present at %.5f, want about %.5f", fb, got, want)
		}
		// Removing everything leaves an empty table.
		for _, h := range kept {
			f.RemoveHash(h)
		}
		if f.Len() != 0 || f.LoadFactor() != 0 {
			t.Fatalf("f=%d: Len %d after removing every key", fb, f.Len())
		}
		for _, s := range f.slots() {
			if s != 0 {
				t.Fatalf("f=%d: a slot is still occupied after removing every key", fb)
			}
		}
	}
}

func TestDuplicates(t *testing.T) {
	f := mustBuckets(t, 1<<10, 12)
	h := uint64(0xfeedface12345678)
	for i := range 8 {
		if err := f.AddHash(h); err != nil {
			t.Fatalf("copy %d of a key: %v", i+1, err)
		}
	}
	if err := f.AddHash(h); !errors.Is(err, ErrFull) {
		t.Fatalf("a 9th copy of a key should not fit in its 2 buckets, got %v", err)
	}
	for i := range 8 {
		if !f.HasHash(h) || !f.RemoveHash(h) {
			t.Fatalf("remove %d of 8 copies failed", i+1)
		}
	}
	if f.HasHash(h) || f.RemoveHash(h) || f.Len() != 0 {
		t.Fatal("a key removed as often as added is still there")
	}
}

// sigma is the binomial standard deviation of a rate p measured over n trials.
func sigma(p float64, n int) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

// TestFPRMatchesFormula measures the FPR of full tables against
// ExpectedFPR(f, load) = 1 - (1 - (2^f+2)/4^f)^(8*load).
func TestFPRMatchesFormula(t *testing.T) {
	for _, fb := range fpSizes {
		for _, target := range []float64{0.95, 0.5} {
			f := mustBuckets(t, 1<<16, fb)
			keys := randomHashes(int(target*float64(f.NumBuckets()*BucketSize)), uint64(fb))
			for _, h := range keys {
				if err := f.AddHash(h); err != nil {
					t.Fatal(err)
				}
			}
			probes := 1 << 22
			if fb == 16 {
				probes = 1 << 24
			}
			if testing.Short() {
				probes /= 4
			}
			r := rand.New(rand.NewPCG(uint64(fb), 77))
			yes := 0
			for range probes {
				yes += int(b2u(f.HasHash(r.Uint64())))
			}
			got := float64(yes) / float64(probes)
			want := ExpectedFPR(fb, f.LoadFactor())
			s := sigma(want, probes)
			t.Logf("f=%d load %.3f: measured FPR %.6f, formula %.6f (sigma %.6f), 2b/2^f = %.6f",
				fb, f.LoadFactor(), got, want, s, 8/math.Ldexp(1, fb))
			if math.Abs(got-want) > 4*s {
				t.Errorf("f=%d load %.3f: measured FPR %.6f is more than 4 sigma from %.6f", fb, f.LoadFactor(), got, want)
			}
			if math.Abs(f.EstimatedFPR()-want) > 1e-12 {
				t.Errorf("EstimatedFPR %v, want %v", f.EstimatedFPR(), want)
			}
		}
	}
}

func TestNewSizing(t *testing.T) {
	for _, c := range []struct {
		p  float64
		fb int
	}{{0.1, 8}, {0.03, 8}, {0.01, 12}, {0.002, 12}, {0.001, 0}, {1e-4, 16}} {
		for _, n := range []uint64{1, 100, 1000, 1_000_000, 3_800_000} {
			f, err := New(n, c.p)
			if err != nil {
				t.Fatalf("New(%d, %v): %v", n, c.p, err)
			}
			load := float64(n) / float64(f.NumBuckets()*BucketSize)
			maxLoad := MaxLoad
			if f.NumBuckets() < smallBuckets {
				maxLoad = smallMaxLoad
			}
			if load > maxLoad || ExpectedFPR(f.FingerprintBits(), load) > c.p {
				t.Fatalf("New(%d, %v): load %.3f, expected FPR %v", n, c.p, load, ExpectedFPR(f.FingerprintBits(), load))
			}
			if n >= 1000 && c.fb != 0 && f.FingerprintBits() != c.fb {
				t.Errorf("New(%d, %v) chose %d-bit fingerprints, want %d", n, c.p, f.FingerprintBits(), c.fb)
			}
			if f.NumBuckets()&(f.NumBuckets()-1) != 0 {
				t.Fatalf("%d buckets is not a power of two", f.NumBuckets())
			}
			if got, want := f.BitsPerKey(), float64(f.NumBits())/float64(n); got != want {
				t.Fatalf("BitsPerKey %v, want %v", got, want)
			}
			// Halving the table would overflow the load or the FPR.
			if nb := f.NumBuckets() / 2; nb > 0 {
				l := float64(n) / float64(nb*BucketSize)
				if l <= MaxLoad && (nb >= smallBuckets || l <= smallMaxLoad) && ExpectedFPR(f.FingerprintBits(), l) <= c.p {
					t.Fatalf("New(%d, %v): %d buckets is not the smallest", n, c.p, f.NumBuckets())
				}
			}
		}
	}
	// New's filters take their planned keys, small ones included (a table
	// just at 0.95 load, and every n up to 1000 with 20 seeds each).
	for _, fpr := range []float64{0.03, 0.002, 1e-4} {
		for _, n := range []int{3_800_000 / 16, 1 << 16 * 4 * 95 / 100} {
			f, _ := New(uint64(n), fpr)
			for i, h := range randomHashes(n, 5) {
				if err := f.AddHash(h); err != nil {
					t.Fatalf("New(%d, %v): add %d failed at load %.3f: %v", n, fpr, i, f.LoadFactor(), err)
				}
			}
		}
		for n := 1; n <= 1000; n++ {
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
		{0, 0.01, ErrKeys}, {10, 0, ErrFPR}, {10, -0.1, ErrFPR}, {10, 1, ErrFPR}, {10, 2, ErrFPR},
		{10, math.NaN(), ErrFPR}, {10, math.Inf(1), ErrFPR}, {10, 1e-5, ErrFPR}, {10, 1e-12, ErrFPR},
		{math.MaxUint64, 0.01, ErrTooLarge}, {1 << 40, 0.001, ErrTooLarge},
	} {
		f, err := New(c.n, c.p)
		if !errors.Is(err, c.want) || f != nil {
			t.Errorf("New(%d, %v) = %v, %v; want error %v", c.n, c.p, f, err, c.want)
		}
	}
	for _, c := range []struct {
		buckets uint64
		fb      int
		want    error
	}{
		{0, 8, ErrGeometry}, {3, 8, ErrGeometry}, {1000, 12, ErrGeometry}, {1 << 33, 16, ErrTooLarge}, {1<<32 + 1, 8, ErrGeometry},
		{16, 0, ErrGeometry}, {16, 4, ErrGeometry}, {16, 32, ErrGeometry}, {16, -8, ErrGeometry},
	} {
		f, err := NewBuckets(c.buckets, c.fb)
		if !errors.Is(err, c.want) || f != nil {
			t.Errorf("NewBuckets(%d, %d) = %v, %v; want error %v", c.buckets, c.fb, f, err, c.want)
		}
	}
}

// TestTooLargeFor32Bit: on 32-bit platforms a table an int cannot size is
// an error, not a panic in make.
func TestTooLargeFor32Bit(t *testing.T) {
	if math.MaxInt != math.MaxInt32 {
		t.Skip("64-bit platform")
	}
	if _, err := NewBuckets(1<<30, 16); !errors.Is(err, ErrTooLarge) {
		t.Errorf("NewBuckets(2^30, 16) on 32-bit: %v", err)
	}
	if _, err := New(1<<31, 0.01); !errors.Is(err, ErrTooLarge) {
		t.Errorf("New(2^31, 0.01) on 32-bit: %v", err)
	}
	// Size is arithmetic: it answers what the format can address.
	if s, err := Size(1<<31, 0.01); err != nil || s.Bytes <= 1<<31 {
		t.Errorf("Size(2^31, 0.01) on 32-bit = %+v, %v; want a table over 2 GiB", s, err)
	}
}

func TestCloneClearEqualBatch(t *testing.T) {
	f := mustBuckets(t, 256, 12)
	hs := randomHashes(900, 8)
	for _, h := range hs {
		if err := f.AddHash(h); err != nil {
			t.Fatal(err)
		}
	}
	c := f.Clone()
	if !c.Equal(f) || c.Equal(nil) || c.Equal(mustBuckets(t, 256, 16)) {
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
	if f.Len() != 0 || f.HasHash(hs[1]) {
		t.Fatal("Clear left keys")
	}
}

func TestZeroAllocs(t *testing.T) {
	f := mustBuckets(t, 1<<12, 8)
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

// TestSizingFields: Size's result is the shared Sizing shape, its fields
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
				s.Load != float64(n)/float64(s.Blocks*BucketSize) || s.FPR != ExpectedFPR(s.FingerprintBits, s.Load) ||
				s.FPR > p || s.K != 0 {
				t.Errorf("Size(%d, %v) = %+v; filter has %d buckets of %d bits", n, p, s, f.NumBuckets(), f.FingerprintBits())
			}
		}
	}
}
