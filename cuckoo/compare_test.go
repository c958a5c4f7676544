package cuckoo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/longtest"
)

// tableSizes are the key counts of the memory targets.
var tableSizes = []uint64{3_000, 100_000, 1_000_000, 1_500_000, 3_000_000}

// blockedBitsPerKey returns the bits per key of blocked.New(n, p), from
// the size it makes (blocked.Size).
func blockedBitsPerKey(t testing.TB, n uint64, p float64) float64 {
	b, err := blocked.Size(n, p)
	if err != nil {
		t.Fatal(err)
	}
	return float64(b.Bits) / float64(n)
}

// TestBitsPerKeyTable prints the bits per key New makes (NumBits()/n) for
// each target FPR and size, next to blocked.New's and the semi-sorted
// ideal (f-1)/0.95, and checks the targets: at every FPR up to 1% the
// cuckoo filter is no larger than the blocked one, and from 1e5 keys it is
// within 3% of (f-1)/load at the load it plans (no rounding waste). It
// then scans FPRs from 20% down to 1e-4 and prints the rate below which
// the cuckoo filter is the smaller at every size.
func TestBitsPerKeyTable(t *testing.T) {
	var tab strings.Builder
	fmt.Fprintf(&tab, "\n%-7s %4s %7s", "FPR", "f", "ideal")
	for _, n := range tableSizes {
		fmt.Fprintf(&tab, " %15s", fmt.Sprintf("n=%g c/b", float64(n)))
	}
	fmt.Fprintf(&tab, " %8s\n", "plain 1e6")
	for _, p := range []float64{0.1, 0.05, 0.03, 0.02, 0.01, 0.005, 0.002, 0.001, 1e-4, 1e-5, 1e-6} {
		s, err := Size(1_000_000, p)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&tab, "%-7v %4d %7.2f", p, s.FingerprintBits, float64(s.FingerprintBits-1)/maxLoad)
		for _, n := range tableSizes {
			f, err := New(n, p)
			if err != nil {
				t.Fatal(err)
			}
			c, b := float64(f.NumBits())/float64(n), blockedBitsPerKey(t, n, p)
			fmt.Fprintf(&tab, " %7.2f/%-7.2f", c, b)
			if p <= 0.01 && c > b {
				t.Errorf("n=%d p=%v: cuckoo %.2f bits/key, blocked %.2f", n, p, c, b)
			}
			fb := f.FingerprintBits()
			load := min(plannedLoad(fb), maxLoadFor(fb, p))
			if ideal := float64(fb-1) / load; n >= 100_000 && c > 1.03*ideal {
				t.Errorf("n=%d p=%v: %.3f bits/key, more than 3%% over (f-1)/load = %.3f", n, p, c, ideal)
			}
		}
		pl, err := newLayout(1_000_000, p, Plain)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&tab, " %8.2f\n", float64(pl.NumBits())/1e6)
	}
	// The crossover: the highest FPR of a fine log scan below which every
	// scanned rate and size has the cuckoo filter the smaller.
	const steps = 400
	cross := 0.0
	for i := steps; i >= 0; i-- {
		p := 0.2 * math.Pow(1e-4/0.2, float64(i)/steps) // from 1e-4 up to 0.2
		smaller := true
		for _, n := range tableSizes {
			s, err := Size(n, p)
			if err != nil {
				t.Fatal(err)
			}
			smaller = smaller && s.BitsPerKey <= blockedBitsPerKey(t, n, p)
		}
		if !smaller {
			break
		}
		cross = p
	}
	fmt.Fprintf(&tab, "cuckoo (semi-sorted) is no larger than blocked at every scanned FPR from 1e-4 up to %.4f (n in %v)\n", cross, tableSizes)
	t.Log(tab.String())
	if cross < 0.01 {
		t.Errorf("crossover at %v, below 1%%", cross)
	}
}

// TestPlannedKeys: New's filter takes all n planned keys without errFull
// at each target size and FPR, and its measured FPR is within 4 sigma of
// FPR at that load.
func TestPlannedKeys(t *testing.T) {
	sizes := tableSizes
	if !longtest.Enabled() {
		sizes = sizes[:2] // up to 1e5 keys; 3e6 with -long
	}
	for _, n := range sizes {
		for _, p := range []float64{0.03, 0.01, 0.001, 1e-4} {
			f, err := New(n, p)
			if err != nil {
				t.Fatal(err)
			}
			for i, h := range randomHashes(int(n), n^math.Float64bits(p)) {
				if err := f.AddHash(h); err != nil {
					t.Fatalf("New(%d, %v): add %d of %d: %v", n, p, i, n, err)
				}
			}
			const probes = 1 << 21
			r := rand.New(rand.NewPCG(n, 5))
			yes := 0
			for range probes {
				yes += int(b2u(f.HasHash(r.Uint64())))
			}
			got, want := float64(yes)/probes, f.EstimatedFPR()
			if math.Abs(got-want) > 4*sigma(want, probes) || want > p {
				t.Errorf("New(%d, %v) full: measured FPR %.6f, expected %.6f", n, p, got, want)
			}
		}
	}
}
