package bloom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

// TestFillPredictsFillRatio checks blocked.Fill, the expected fill the
// Scalable's trigger reads, against the fill of Filters that New sized,
// holding their planned keys, over rates that give k = 8 and k = 16.
func TestFillPredictsFillRatio(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	const n = 100_000
	for _, p := range []float64{0.5, 0.1, 0.05, 0.01, 1e-3, 1e-4, 1e-6, 1e-9, 1e-12} {
		f, err := blocked.New(n, p)
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			f.AddHash(r.Uint64())
		}
		want := blocked.Fill(n, f.NumBlocks(), f.K())
		if got := f.FillRatio(); math.Abs(got-want) > 0.003 {
			t.Errorf("fpr %v (k = %d, %d blocks): fill %.4f, Fill %.4f", p, f.K(), f.NumBlocks(), got, want)
		}
	}
	if !math.IsNaN(blocked.Fill(1, 1, 12)) || !math.IsNaN(blocked.Fill(1, 0, 8)) || blocked.Fill(0, 5, 16) != 0 {
		t.Error("Fill outside its domain")
	}
}

// TestScalableOpensStageAtPlan adds keys one at a time to Scalables planned
// for 100,000 keys and counts the keys the first stage takes (those not
// already found): exactly the planned keys. A stage at its planned keys has
// more than half its bits set at these rates (0.55 to 0.92), so the old
// half-fill trigger opened the second stage at the fill read after 56,250,
// 81,250 and 93,750 keys (9, 13 and 15 sixteenths) at fpr 0.5, 0.1 and
// 0.05.
func TestScalableOpensStageAtPlan(t *testing.T) {
	const planned = 100_000
	for _, p := range []float64{0.5, 0.1, 0.05, 0.01} {
		s, err := NewScalable[uint64](planned, p)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(p*1000), 12))
		taken := 0
		for s.Stages() == 1 {
			k := r.Uint64()
			if !s.Has(k) {
				taken++
			}
			s.Add(k)
		}
		if taken-1 != planned { // the last one opened the second stage
			t.Errorf("fpr %v: the first stage took %d keys of %d planned (fill %.3f)", p, taken-1, planned, s.stages[0].FillRatio())
		}
	}
}
