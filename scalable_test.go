package bloom

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
)

func TestScalableGrowsWithinTarget(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	const target = 0.01
	s, err := NewScalable[uint64](1000, target)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = r.Uint64()
	}
	s.AddAll(keys[:n/2])
	for _, k := range keys[n/2:] {
		s.Add(k)
	}
	out := make([]bool, n)
	if got := s.HasAll(keys, out); got != n {
		t.Fatalf("false negatives: %d of %d found", got, n)
	}
	for _, k := range keys[:1000] {
		if !s.Has(k) {
			t.Fatal("false negative from Has")
		}
	}
	const probes = 1 << 22
	absent := make([]uint64, probes)
	for i := range absent {
		absent[i] = r.Uint64()
	}
	fp := s.HasAll(absent, make([]bool, probes))
	got := float64(fp) / probes
	bound := target + 4*math.Sqrt(target*(1-target)/probes)
	t.Logf("1000 planned, %d added: %d stages, %.2f bits/key, measured FPR %.5f, estimated %.5f, target %v",
		n, s.Stages(), float64(s.NumBits())/float64(n), got, s.EstimatedFPR(), target)
	if got > bound {
		t.Errorf("measured FPR %.5f exceeds the target %v beyond 4 sigma (%.5f)", got, target, bound)
	}
	// No stage is fuller than its sizing predicts at its planned keys.
	expected := 0.0
	for i, f := range s.stages {
		expected += blocked.Fill(plannedChain(1000, 2, i), f.NumBlocks(), f.K()) * float64(f.NumBits())
	}
	expected /= float64(s.NumBits())
	if fill := s.FillRatio(); fill <= 0 || fill > expected+0.01 {
		t.Errorf("FillRatio %.3f: stages at their planned keys would have %.3f", fill, expected)
	}
	// Stages of 1000, 2000, 4000, ... keys: the fewest that hold n keys, or
	// one more if a stage reached its predicted fill first.
	want := 1
	for 1000*(1<<want-1) < n {
		want++
	}
	if s.Stages() != want && s.Stages() != want+1 {
		t.Errorf("%d stages for %d keys, want %d", s.Stages(), n, want)
	}
	if est := s.EstimatedCount(); math.Abs(est-float64(n)) > 0.05*float64(n) {
		t.Errorf("EstimatedCount %.0f, added %d", est, n)
	}
}

func TestScalableDuplicatesDoNotGrow(t *testing.T) {
	s, _ := NewScalable[string](100, 0.01)
	for range 10_000 {
		s.Add("same")
	}
	if s.Stages() != 1 {
		t.Fatalf("one key added 10000 times made %d stages", s.Stages())
	}
}

func TestScalableOptions(t *testing.T) {
	s, err := NewScalable[int](100, 0.001, WithGrowth(4), WithTightening(0.5))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10_000 {
		s.Add(i)
	}
	// 100, 400, 1600, 6400: 8500 keys fit in 4 stages; 10,000 need a fifth.
	if s.Stages() != 5 {
		t.Errorf("growth 4: %d stages for 10000 keys, want 5", s.Stages())
	}
	for _, o := range []ScalableOption{WithGrowth(0.5), WithGrowth(math.NaN()), WithTightening(0), WithTightening(1), WithTightening(math.NaN()), {}} {
		if _, err := NewScalable[int](100, 0.01, o); !errors.Is(err, ErrOption) {
			t.Errorf("bad option accepted: %v", err)
		}
	}
	if _, err := NewScalable[int](0, 0.01); !errors.Is(err, errs.ErrKeys) {
		t.Errorf("initial 0: %v", err)
	}
	if _, err := NewScalable[int](10, 1.5); !errors.Is(err, errs.ErrFPR) {
		t.Errorf("fpr 1.5: %v", err)
	}
}

// plannedChain returns the keys planned for stage i of a Scalable with these
// initial keys and growth factor.
func plannedChain(initial uint64, growth float64, i int) uint64 {
	p := initial
	for range i {
		p = nextPlanned(p, growth)
	}
	return p
}

func TestScalableClearKeepsOptions(t *testing.T) {
	s, err := NewScalable[int](100, 0.001, WithGrowth(3), WithTightening(0.5))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		s.Add(i)
	}
	if s.Stages() < 3 {
		t.Fatalf("%d stages", s.Stages())
	}
	s.Clear()
	want, _ := NewScalable[int](100, 0.001, WithGrowth(3), WithTightening(0.5))
	if s.Stages() != 1 || !s.equal(want) || s.Err() != nil {
		t.Fatalf("after Clear: %d stages, Equal %v", s.Stages(), s.equal(want))
	}
	for i := range 5000 { // grows again exactly as a new one
		s.Add(i)
		want.Add(i)
	}
	if !s.equal(want) {
		t.Fatal("a cleared Scalable grew unlike a new one")
	}
	if !s.clone().equal(s) {
		t.Fatal("Clone of a grown Scalable")
	}
}
