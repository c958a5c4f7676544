package blocked

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/longtest"

	"github.com/simdbloom/bloom/internal/errs"
)

// randomHashes returns n well-mixed hashes from a seeded generator.
func randomHashes(n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

func mustBytes(t testing.TB, numBytes uint64, k int) *Filter {
	t.Helper()
	f, err := NewBytes(numBytes, k)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAligned(t *testing.T) {
	for _, nb := range []uint64{1, 3, 1000, 1 << 14} {
		f := mustBytes(t, nb*64, 8)
		if p := uintptr(unsafePointer(f)); p%64 != 0 {
			t.Fatalf("%d blocks: bit array at %#x is not 64-byte aligned", nb, p)
		}
		if f.NumBlocks() != nb || f.NumBits() != nb*512 {
			t.Fatalf("NumBlocks %d NumBits %d for %d blocks", f.NumBlocks(), f.NumBits(), nb)
		}
	}
}

func TestNoFalseNegatives(t *testing.T) { forEachLevel(t, testNoFalseNegatives) }

func testNoFalseNegatives(t *testing.T) {
	n := 1_000_000
	if !longtest.Enabled() {
		n = 100_000 // the full size and the 1 GiB filter run with -long
	}
	hs := randomHashes(n, 1)
	sizes := []uint64{1, 2, 7, 1000, 12_345, 1 << 20, 3_000_001} // in blocks; not only powers of two
	if longtest.Enabled() {
		sizes = append(sizes, 1<<24) // 1 GiB
	}
	out := make([]bool, n)
	for _, k := range []int{8, 16} {
		for _, nb := range sizes {
			f := mustBytes(t, nb*64, k)
			if nb%2 == 0 {
				f.AddHashes(hs)
			} else {
				for _, h := range hs {
					f.AddHash(h)
				}
			}
			for i, h := range hs {
				if !f.HasHash(h) {
					t.Fatalf("k=%d blocks=%d: false negative for hash %d (%#x)", k, nb, i, h)
				}
			}
			if got := f.HasHashes(hs, out); got != n {
				t.Fatalf("k=%d blocks=%d: HasHashes found %d of %d added hashes", k, nb, got, n)
			}
		}
	}
}

// Adversarial hashes: all in one block, all with the same low half, extremes.
func adversarialHashes() []uint64 {
	var hs []uint64
	for i := uint64(0); i < 64; i++ {
		hs = append(hs, i, ^i, i<<32, i<<32|0xffffffff, 1<<63|i, 0x8000000080000000^i,
			i*0x9e3779b97f4a7c15, (i*0x9e3779b97f4a7c15)&0xffffffff00000000)
	}
	return hs
}

// TestBatchEqualsSingle checks every batch kernel against the pure-Go
// single-key path: the same bits set, the same answers.
func TestBatchEqualsSingle(t *testing.T) { forEachLevel(t, testBatchEqualsSingle) }

func testBatchEqualsSingle(t *testing.T) {
	for _, k := range []int{8, 16} {
		for _, nb := range []uint64{1, 5, 256, 10_007} {
			a, b := mustBytes(t, nb*64, k), mustBytes(t, nb*64, k)
			add := append(randomHashes(5000, nb), adversarialHashes()...)
			for _, h := range add {
				a.addHashGo(h) // pure Go, not the one-key assembly
			}
			b.AddHashes(add)
			if !a.Equal(b) {
				t.Fatalf("k=%d blocks=%d: AddHashes and AddHash set different bits", k, nb)
			}
			probe := append(randomHashes(20000, nb+1), add...)
			out := make([]bool, len(probe)+3)
			for i := range out {
				out[i] = true // HasHashes must overwrite, and leave the tail alone
			}
			count := a.HasHashes(probe, out)
			want := 0
			for i, h := range probe {
				if out[i] != a.hasHashGo(h) {
					t.Fatalf("k=%d blocks=%d: HasHashes[%d] = %v, HasHash = %v", k, nb, i, out[i], !out[i])
				}
				if out[i] {
					want++
				}
			}
			if count != want {
				t.Fatalf("HasHashes returned %d, counted %d", count, want)
			}
			if !out[len(probe)] || !out[len(probe)+2] {
				t.Fatal("HasHashes wrote past len(hs)")
			}
		}
	}
}

func TestHasHashesShortOutPanics(t *testing.T) {
	f := mustBytes(t, 64, 8)
	hs := randomHashes(4, 2)
	out := make([]bool, 3)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "shorter") {
			t.Fatalf("want a panic naming the short slice, got %v", r)
		}
		for _, o := range out {
			if o {
				t.Fatal("out was written before the panic")
			}
		}
	}()
	f.AddHashes(hs)
	f.HasHashes(hs, out)
}

// measureFPR probes a filter holding n hashes with probes absent hashes.
func measureFPR(f *Filter, probes int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, 99))
	const chunk = 1 << 16
	hs := make([]uint64, chunk)
	out := make([]bool, chunk)
	fp := 0
	for done := 0; done < probes; done += chunk {
		for i := range hs {
			hs[i] = r.Uint64()
		}
		fp += f.HasHashes(hs, out)
	}
	return float64(fp) / float64(probes/chunk*chunk)
}

// sigma is the binomial standard deviation of a rate p measured over n trials.
func sigma(p float64, n int) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

func TestFPRMatchesFormula(t *testing.T) {
	if testing.Short() {
		t.Skip("4M probes per case: runs without -short")
	}
	const n = 1_000_000
	const probes = 1 << 22     // 4,194,304
	keys := randomHashes(n, 7) // probes come from another stream: absent with overwhelming probability
	type tc struct {
		name   string
		f      *Filter
		target float64 // 0 when only the formula is checked
	}
	var cases []tc
	for _, k := range []int{8, 16} {
		cases = append(cases, tc{name: "10 bits/key", f: mustBytes(t, n*10/8, k)})
	}
	for _, p := range []float64{0.01, 0.001} {
		f, err := New(n, p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{name: "New", f: f, target: p})
	}
	for i, c := range cases {
		c.f.AddHashes(keys)
		want := FPR(n, c.f.NumBlocks(), c.f.K())
		got := measureFPR(c.f, probes, uint64(i))
		s := sigma(want, probes)
		t.Logf("%s k=%d: %.2f bits/key, measured FPR %.5f, formula %.5f (sigma %.5f), estimated %.5f",
			c.name, c.f.K(), float64(c.f.NumBits())/n, got, want, s, c.f.EstimatedFPR())
		if math.Abs(got-want) > 4*s {
			t.Errorf("%s k=%d: measured FPR %.5f is more than 4 sigma from the formula %.5f", c.name, c.f.K(), got, want)
		}
		if c.target > 0 && got > c.target+4*sigma(c.target, probes) {
			t.Errorf("New(%d, %v): measured FPR %.5f exceeds the target beyond 4 sigma", n, c.target, got)
		}
		if est := c.f.EstimatedFPR(); math.Abs(est-want) > 0.05*want {
			t.Errorf("EstimatedFPR %.5f is more than 5%% from the formula %.5f", est, want)
		}
		if est := c.f.EstimatedCount(); math.Abs(est-n) > 0.02*n {
			t.Errorf("EstimatedCount %.0f is more than 2%% from %d", est, n)
		}
	}
}

func TestNewSizing(t *testing.T) {
	for _, p := range []float64{0.5, 0.01, 0.001, 1e-4, 1e-6} {
		for _, n := range []uint64{1, 10, 1000, 1_000_000} {
			f, err := New(n, p)
			if err != nil {
				t.Fatalf("New(%d, %v): %v", n, p, err)
			}
			nb, k := f.NumBlocks(), f.K()
			if got := FPR(n, nb, k); got > p {
				t.Fatalf("New(%d, %v): formula FPR %v above the target", n, p, got)
			}
			if nb > 1 && FPR(n, nb-1, 8) <= p && FPR(n, nb-1, 16) <= p {
				t.Fatalf("New(%d, %v): %d blocks is not the smallest", n, p, nb)
			}
		}
	}
	// k = 8 wins at 1%, k = 16 at 1e-4 (DESIGN.md section 3's table).
	for _, c := range []struct {
		p float64
		k int
	}{{0.01, 8}, {0.001, 8}, {1e-4, 16}, {1e-6, 16}} {
		f, _ := New(1_000_000, c.p)
		if f.K() != c.k {
			t.Errorf("New(1e6, %v) chose k=%d, want %d", c.p, f.K(), c.k)
		}
	}
}

func TestBadInput(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		n    uint64
		p    float64
		want error
	}{
		{0, 0.01, errs.ErrKeys}, {10, 0, errs.ErrFPR}, {10, -0.1, errs.ErrFPR}, {10, 1, errs.ErrFPR}, {10, 1.5, errs.ErrFPR},
		{10, nan, errs.ErrFPR}, {10, math.Inf(1), errs.ErrFPR}, {math.MaxUint64, 0.01, errs.ErrTooLarge}, {1 << 40, 1e-9, errs.ErrTooLarge},
	} {
		f, err := New(c.n, c.p)
		if !errors.Is(err, c.want) || f != nil {
			t.Errorf("New(%d, %v) = %v, %v; want error %v", c.n, c.p, f, err, c.want)
		}
	}
	for _, c := range []struct {
		bytes uint64
		k     int
		want  error
	}{
		{0, 8, errs.ErrGeometry}, {64, 0, errs.ErrGeometry}, {64, 7, errs.ErrGeometry}, {64, 32, errs.ErrGeometry}, {64, -8, errs.ErrGeometry},
		{MaxBlocks*64 + 1, 8, errs.ErrTooLarge}, {math.MaxUint64, 16, errs.ErrTooLarge},
	} {
		f, err := NewBytes(c.bytes, c.k)
		if !errors.Is(err, c.want) || f != nil {
			t.Errorf("NewBytes(%d, %d) = %v, %v; want error %v", c.bytes, c.k, f, err, c.want)
		}
	}
	if f := mustBytes(t, 65, 8); f.NumBlocks() != 2 {
		t.Errorf("NewBytes(65) has %d blocks, want 2 (rounded up)", f.NumBlocks())
	}
}

func TestUnionIntersect(t *testing.T) {
	for _, k := range []int{8, 16} {
		checkUnionIntersect(t, func() *Filter { return mustBytes(t, 1000*64, k) }, 3000, 500, 11,
			[]*Filter{mustBytes(t, 1001*64, k), mustBytes(t, 1000*64, 24-k), nil})
	}
}

// combinable is what Filter and SplitBlock share for checkUnionIntersect.
type combinable[T any, W uint32 | uint64] interface {
	AddHashes(hs []uint64)
	HasHash(h uint64) bool
	Clone() T
	Union(o T) error
	Intersect(o T) error
	Equal(o T) bool
	FillRatio() float64
	words() []W
}

// checkUnionIntersect checks Union against the filter of all keys, that
// Intersect is the bitwise AND and keeps every key added to both sides, and
// that Union and Intersect with each of bad (filters of another geometry,
// and nil) fail with bloom.ErrGeometry and leave the filter as it was. n keys go
// into one side only, shared into both; seed picks the hashes.
func checkUnionIntersect[T combinable[T, W], W uint32 | uint64](t *testing.T, mk func() T, n, shared int, seed uint64, bad []T) {
	t.Helper()
	a, b, all := mk(), mk(), mk()
	ha, hb, both := randomHashes(n, seed), randomHashes(n, seed+1), randomHashes(shared, seed+2)
	a.AddHashes(ha)
	a.AddHashes(both)
	b.AddHashes(hb)
	b.AddHashes(both)
	all.AddHashes(ha)
	all.AddHashes(hb)
	all.AddHashes(both)
	u := a.Clone()
	if err := u.Union(b); err != nil {
		t.Fatal(err)
	}
	if !u.Equal(all) {
		t.Fatal("Union differs from the filter of all keys")
	}
	i := a.Clone()
	if err := i.Intersect(b); err != nil {
		t.Fatal(err)
	}
	for _, h := range both {
		if !i.HasHash(h) {
			t.Fatal("Intersect lost a key added to both")
		}
	}
	// Intersect is the bitwise AND: it never holds a bit one side lacks.
	for j, w := range i.words() {
		if w != a.words()[j]&b.words()[j] {
			t.Fatal("Intersect is not the bitwise AND")
		}
	}
	if i.FillRatio() >= a.FillRatio() {
		t.Fatal("Intersect did not clear any bit")
	}
	before := a.Clone()
	for _, o := range bad {
		if err := a.Union(o); !errors.Is(err, errs.ErrGeometry) {
			t.Errorf("Union of mismatched filters: %v", err)
		}
		if err := a.Intersect(o); !errors.Is(err, errs.ErrGeometry) {
			t.Errorf("Intersect of mismatched filters: %v", err)
		}
		if !a.Equal(before) {
			t.Fatal("a failed Union or Intersect changed the filter")
		}
	}
}

func TestCloneClearEqual(t *testing.T) {
	f := mustBytes(t, 64*100, 16)
	f.AddHashes(randomHashes(1000, 3))
	c := f.Clone()
	if !c.Equal(f) || c.K() != 16 {
		t.Fatal("Clone is not Equal")
	}
	c.AddHash(12345)
	c.Clear()
	if c.FillRatio() != 0 || c.Equal(f) || f.FillRatio() == 0 {
		t.Fatal("Clear of a clone touched the original or left bits")
	}
	if c.EstimatedCount() != 0 || c.EstimatedFPR() != 0 {
		t.Fatal("an empty filter estimates keys")
	}
}

func TestOverflowIsVisible(t *testing.T) {
	f, _ := New(500, 0.01)
	f.AddHashes(randomHashes(5000, 5))
	if f.FillRatio() < 0.5 || f.EstimatedFPR() < 0.3 {
		t.Fatalf("10x overfull filter: fill %.2f, estimated FPR %.3f; both should show the overflow", f.FillRatio(), f.EstimatedFPR())
	}
}

func TestZeroAllocs(t *testing.T) {
	f := mustBytes(t, 16<<10, 8)
	hs := randomHashes(1000, 4)
	out := make([]bool, len(hs))
	for name, fn := range map[string]func(){
		"AddHash":   func() { f.AddHash(hs[3]) },
		"HasHash":   func() { f.HasHash(hs[5]) },
		"AddHashes": func() { f.AddHashes(hs) },
		"HasHashes": func() { f.HasHashes(hs, out) },
	} {
		if a := testing.AllocsPerRun(100, fn); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}
