package cuckoo

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
)

var fullLoads = flag.Bool("loads", false, "TestLoads: 50 seeds at 1e3 to 1e7 keys (minutes) instead of 10 seeds up to 1e4")

// TestLoads measures the load at the first failed Add over many seeds for
// tables sized for n keys at maxLoad, and checks that it never comes below
// the load Size plans for the fingerprint width. The full experiment (-loads)
// takes 50 seeds at 1e3 to 1e6 keys for every width and at 1e7 for f = 8,
// 10 and 13; without it, 10 seeds at 1e3 and 1e4. The seeds of one size are
// filled on GOMAXPROCS workers.
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
				if n >= 10_000_000 && g.fb != 8 && g.fb != 10 && g.fb != 13 {
					continue
				}
				nb, _ := bucketsFor(n, plannedLoad(g.fb))
				loads := fillLoads(t, nb, g, seeds, n)
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

// fillLoads fills seeds tables of nb buckets with random hashes until the
// first errFull and returns the loads there, sorted. Seed s of size n uses
// the hash stream s<<40|n whichever worker fills it.
func fillLoads(t *testing.T, nb uint64, g geometry, seeds int, n uint64) []float64 {
	loads := make([]float64, seeds)
	workers := min(runtime.GOMAXPROCS(0), seeds)
	var wg sync.WaitGroup
	next := make(chan int, seeds)
	for s := range seeds {
		next <- s
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				f := newFilter(nb, g.fb, g.l)
				fillUntilFull(f, uint64(s)<<40|n)
				loads[s] = f.LoadFactor()
			}
		}()
	}
	wg.Wait()
	slices.Sort(loads)
	return loads
}
