package cuckoo

import (
	"flag"
	"fmt"
	"slices"
	"testing"
)

var fullLoads = flag.Bool("loads", false, "TestLoads: 50 seeds at 1e3 to 1e7 keys (minutes) instead of 10 seeds up to 1e4")

// TestLoads measures the load at the first failed Add over many seeds for
// tables sized for n keys at MaxLoad, and checks that it never comes below
// the load Size plans for the fingerprint width. The full experiment (-loads)
// takes 50 seeds at 1e3 to 1e7 keys; without it, 10 seeds at 1e3 and 1e4.
func TestLoads(t *testing.T) {
	seeds, sizes := 10, []uint64{1_000, 10_000}
	if *fullLoads {
		seeds, sizes = 50, []uint64{1_000, 10_000, 100_000, 1_000_000, 10_000_000}
	}
	for _, g := range []geometry{{6, SemiSorted}, {7, SemiSorted}, {8, SemiSorted}, {10, SemiSorted}, {13, SemiSorted}} {
		t.Run(g.String(), func(t *testing.T) {
			if *fullLoads {
				t.Parallel()
			}
			for _, n := range sizes {
				nb, _ := bucketsFor(n, plannedLoad(g.fb))
				var loads []float64
				for seed := range uint64(seeds) {
					f := mustBuckets(t, nb, g.fb, g.l)
					fillUntilFull(f, seed<<40|n)
					loads = append(loads, f.LoadFactor())
				}
				slices.Sort(loads)
				q := func(p float64) float64 { return loads[int(p*float64(len(loads)-1))] }
				t.Log(fmt.Sprintf("%v n=%g (%d buckets, %d seeds): first failure at load min %.4f p10 %.4f median %.4f p90 %.4f max %.4f (planned %.2f)",
					g, float64(n), nb, seeds, loads[0], q(0.1), q(0.5), q(0.9), loads[len(loads)-1], min(smallLoad(nb), plannedLoad(g.fb))))
				if loads[0] < min(smallLoad(nb), plannedLoad(g.fb)) {
					t.Errorf("%v n=%d: a first failure at load %.4f, below the planned %.3f", g, n, loads[0], plannedLoad(g.fb))
				}
			}
		})
	}
}
