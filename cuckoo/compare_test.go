package cuckoo

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/blocked"
)

// idealBitsPerKey is the cuckoo filter's bits/key with no power-of-two
// rounding: the best fingerprint size at its highest allowed load.
func idealBitsPerKey(fpr float64) (float64, int) {
	best, bestF := math.Inf(1), 0
	for _, f := range fpSizes {
		load := min(MaxLoad, maxLoadFor(f, fpr))
		if load < minLoad {
			continue
		}
		if b := float64(f) / load; b <= best {
			best, bestF = b, f
		}
	}
	return best, bestF
}

// TestBitsPerKeyTable prints the memory each structure needs for the same
// target FPR (from the formulas the FPR tests check against measurement) and
// checks that every size meets its target:
//   - classic Bloom: the floor, log2(1/p)/ln 2;
//   - blocked.Filter from blocked.New (k = 8 or 16, exact Poisson sizing);
//   - blocked.Counting from blocked.NewCounting (4-bit counters);
//   - cuckoo, ideal: f/load with the best f in {8, 12, 16}, load capped at
//     0.95 and by the FPR (no rounding: n just under a power-of-two capacity);
//   - cuckoo from New at n = 1e6 (2^18 or 2^19 buckets: rounding costs);
//   - cuckoo from New averaged over n log-uniform in [1e6, 2e6).
//
// 0.002 and 0.00012 are the rates 12- and 16-bit fingerprints reach at
// 95% load: where the cuckoo filter is at its best.
func TestBitsPerKeyTable(t *testing.T) {
	const n = 1_000_000
	var tab strings.Builder
	fmt.Fprintf(&tab, "\n%-8s %8s %9s %9s %14s %14s %12s\n", "FPR", "classic", "blocked", "counting", "cuckoo ideal", "cuckoo n=1e6", "cuckoo avg")
	for _, p := range []float64{0.1, 0.03, 0.01, 0.002, 0.001, 0.00012, 0.0001} {
		classic := math.Log2(1/p) / math.Ln2
		bs, err := blocked.SizeFilter(n, p)
		if err != nil {
			t.Fatal(err)
		}
		if blocked.FPR(n, bs.Blocks, bs.K) > p {
			t.Fatalf("blocked sizing misses %v", p)
		}
		c, err := blocked.NewCounting(n, p)
		if err != nil {
			t.Fatal(err)
		}
		if blocked.CountingFPR(n, c.NumBlocks()) > p {
			t.Fatalf("counting sizing misses %v", p)
		}
		ideal, idealF := idealBitsPerKey(p)
		s, err := Size(n, p)
		if err != nil {
			t.Fatal(err)
		}
		if s.FPR > p || s.Load > MaxLoad {
			t.Fatalf("cuckoo sizing misses %v: FPR %v at load %v", p, s.FPR, s.Load)
		}
		avg := 0.0
		const steps = 64
		for i := range steps {
			m := uint64(n * math.Pow(2, float64(i)/steps))
			si, err := Size(m, p)
			if err != nil {
				t.Fatal(err)
			}
			avg += float64(si.Bits) / float64(m) / steps
		}
		fmt.Fprintf(&tab, "%-8v %8.2f %6.2f k%-2d %9.2f %10.2f f%-2d %8.2f f%-2d %5.1f%% %12.2f\n", p, classic,
			bs.BitsPerKey, bs.K, float64(c.NumBits())/n, ideal, idealF,
			float64(s.Bits)/n, s.FingerprintBits, 100*s.Load, avg)
	}
	t.Log(tab.String())
}
