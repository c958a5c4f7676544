package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
	"github.com/simdbloom/bloom/internal/sizing"
)

// classicRow is one line of the seed lesson's experiment.
type classicRow struct {
	K           int     `json:"k"`
	Fill        float64 `json:"fill"`
	FillFormula float64 `json:"fill_formula"`
	FPR         float64 `json:"fpr"`
	FPRFormula  float64 `json:"fpr_formula"`
	Sigma       float64 `json:"sigma"` // sampling error of FPR over the probes
}

// scaleRow is one variant measured at scale, or one overflow case.
type scaleRow struct {
	Variant      string  `json:"variant"`
	Keys         uint64  `json:"keys"`
	PlannedKeys  uint64  `json:"planned_keys,omitempty"`
	BitsPerKey   float64 `json:"bits_per_key"`
	K            int     `json:"k"`
	Fill         float64 `json:"fill"`
	FPR          float64 `json:"fpr"`
	FPRFormula   float64 `json:"fpr_formula"`
	EstimatedFPR float64 `json:"estimated_fpr,omitempty"`
	Sigma        float64 `json:"sigma"`
}

type experimentResult struct {
	M        uint64       `json:"m"`
	N        uint64       `json:"n"`
	Probes   int          `json:"probes"`
	Seed     uint64       `json:"seed"`
	Classic  []classicRow `json:"classic"`
	Scale    []scaleRow   `json:"scale,omitempty"`
	Overflow []scaleRow   `json:"overflow,omitempty"`
}

func runExperiment(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("experiment", "bloom experiment: measured fill and false-positive rate against the formulas.\n"+
		"First the seed lesson's classic filter (m bits, n keys, each k), then every variant at scale\n"+
		"at the same bits per key, then the overflow case (planned n keys, 10n inserted).")
	m := fs.Uint64("m", 5000, "classic filter size in bits")
	n := fs.Uint64("n", 500, "keys inserted into the classic filter")
	kList := fs.String("k", "1,3,7,14", "comma-separated numbers of hash functions")
	probes := fs.Int("probes", 4000, "absent keys probed in the classic experiment")
	seed := fs.Uint64("seed", 1, "seed: keys are seed*2^40 + 0, 1, 2, ...")
	scaleN := fs.Uint64("scale-n", 1_000_000, "keys in the at-scale runs (0 skips them)")
	scaleProbes := fs.Int("scale-probes", 10_000_000, "absent keys probed in the at-scale runs")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, stdout); err != nil {
		return err
	}
	ks, err := parseKs(*kList)
	if err != nil {
		return usageError{err.Error()}
	}
	if *m == 0 || *n == 0 || *probes <= 0 || *scaleProbes <= 0 {
		return usageError{"-m, -n, -probes and -scale-probes must be positive"}
	}
	if *m > maxExperimentBits {
		return usageError{"-m is larger than 2^36 bits; this is an experiment, not a filter"}
	}
	if *n > maxExperimentKeys || *scaleN > maxExperimentKeys {
		return usageError{"-n and -scale-n must be at most 2^32 keys; this is an experiment"}
	}
	bitsPerKey := float64(*m) / float64(*n)
	if *scaleN > 0 {
		// Check the at-scale geometry before the classic runs spend time.
		if err := checkScale(*scaleN, bitsPerKey); err != nil {
			return err
		}
	}
	res := experimentResult{M: *m, N: *n, Probes: *probes, Seed: *seed}
	base := *seed << 40
	for _, k := range ks {
		c := newClassic(*m, k)
		for i := range *n {
			c.add(base + i)
		}
		fp := 0
		for i := range uint64(*probes) {
			if c.has(base + *n + i) {
				fp++
			}
		}
		want := sizing.ClassicFPR(*m, *n, k)
		res.Classic = append(res.Classic, classicRow{K: k, Fill: c.fill(), FillFormula: sizing.ClassicFill(*m, *n, k),
			FPR: float64(fp) / float64(*probes), FPRFormula: want, Sigma: sigma(want, *probes)})
	}
	if *scaleN > 0 {
		if res.Scale, err = scaleRows(*scaleN, bitsPerKey, *scaleProbes, base); err != nil {
			return err
		}
		if res.Overflow, err = overflowRows(*n, bitsPerKey, *scaleProbes, base); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, res)
	}
	return printExperiment(stdout, res)
}

// Limits of the experiment's flags: the classic filter is a plain bit array
// and every key is hashed k times, so these bound its memory and time.
const (
	maxExperimentBits = 1 << 36
	maxExperimentKeys = 1 << 32
	// maxScaleK bounds the classic k at scale (OptimalKInt of m/n bits per
	// key, 7 at the default 10): a huge m/n would hash each key billions of times.
	maxScaleK = 64
)

// checkScale refuses an at-scale geometry the runs cannot build: n keys at
// bitsPerKey must give at least one byte for the blocked and split-block
// filters, and at most maxExperimentBits.
func checkScale(n uint64, bitsPerKey float64) error {
	m := math.Round(float64(n) * bitsPerKey)
	if m < 8 {
		return usagef("at -scale-n %d and %.3g bits per key (-m/-n) the at-scale filters would have %.0f bits; "+
			"they need at least 8: raise -scale-n or -m, or skip them with -scale-n 0", n, bitsPerKey, m)
	}
	if m > maxExperimentBits {
		return usagef("at -scale-n %d and %.3g bits per key (-m/-n) the at-scale filters would have %.4g bits, "+
			"more than 2^36: lower -scale-n or -m, or skip them with -scale-n 0", n, bitsPerKey, m)
	}
	return nil
}

// scaleError reports that a filter for the at-scale runs could not be made
// from the flags: a usage error.
func scaleError(what string, err error) error {
	return usagef("the at-scale %s cannot be made from these flags: %s", what, toolWords(err))
}

// scaleRows measures every variant with n keys at bitsPerKey.
func scaleRows(n uint64, bitsPerKey float64, probes int, base uint64) ([]scaleRow, error) {
	m := uint64(math.Round(float64(n) * bitsPerKey))
	var rows []scaleRow
	k := min(sizing.OptimalKInt(m, n), maxScaleK)
	c := newClassic(m, k)
	for i := range n {
		c.add(base + i)
	}
	fp := countFP(probes, base+n, c.has)
	want := sizing.ClassicFPR(m, n, k)
	rows = append(rows, scaleRow{Variant: "classic", Keys: n, BitsPerKey: float64(m) / float64(n), K: k, Fill: c.fill(),
		FPR: fp, FPRFormula: want, Sigma: sigma(want, probes)})
	for _, k := range []int{8, 16} {
		name := fmt.Sprintf("blocked-k%d", k)
		f, err := blocked.NewBytes(m/8, k)
		if err != nil {
			return nil, scaleError(name+" filter", err)
		}
		rows = append(rows, measureBlocked(name, f, n, n, probes, base))
	}
	s, err := blocked.NewSplitBlockBytes(m / 8)
	if err != nil {
		return nil, scaleError("split-block filter", err)
	}
	rows = append(rows, measureSplit(s, n, n, probes, base))
	cr, err := measureCounting(n, probes, base)
	if err != nil {
		return nil, err
	}
	kr, err := measureCuckoo(n, probes, base)
	if err != nil {
		return nil, err
	}
	return append(rows, cr, kr), nil
}

// measureCounting adds n keys to a counting filter sized for 1%, removes half,
// and measures the FPR over absent keys against the formula at n/2 keys.
func measureCounting(n uint64, probes int, base uint64) (scaleRow, error) {
	c, err := blocked.NewCounting(n, 0.01)
	if err != nil {
		return scaleRow{}, scaleError("counting filter", err)
	}
	addRange(c.AddHashes, base, n)
	removed := uint64(0)
	addRange(func(hs []uint64) { removed += uint64(c.RemoveHashes(hs)) }, base, n/2)
	if removed != n/2 {
		return scaleRow{}, fmt.Errorf("counting filter: removed %d of the %d keys added", removed, n/2)
	}
	want := blocked.CountingFPR(n-n/2, c.NumBlocks())
	return scaleRow{Variant: "counting (1%, half removed)", Keys: n - n/2, PlannedKeys: n,
		BitsPerKey: float64(c.NumBits()) / float64(n), K: 8, Fill: c.FillRatio(),
		FPR: countFPBatch(probes, base+n, c.HasHashes), FPRFormula: want, EstimatedFPR: c.EstimatedFPR(), Sigma: sigma(want, probes)}, nil
}

// measureCuckoo adds n keys to a cuckoo filter sized for 1%, removes half,
// and measures the FPR against the formula at the load left.
func measureCuckoo(n uint64, probes int, base uint64) (scaleRow, error) {
	c, err := cuckoo.New(n, 0.01)
	if err != nil {
		return scaleRow{}, scaleError("cuckoo filter", err)
	}
	var addErr error
	addRange(func(hs []uint64) {
		for _, h := range hs {
			if addErr == nil {
				addErr = c.AddHash(h)
			}
		}
	}, base, n)
	if addErr != nil { // sized for n keys: a failure here is a bug, not a usage error
		return scaleRow{}, fmt.Errorf("cuckoo filter sized for %d keys: %w", n, addErr)
	}
	removed := uint64(0)
	addRange(func(hs []uint64) {
		for _, h := range hs {
			if c.RemoveHash(h) {
				removed++
			}
		}
	}, base, n/2)
	if removed != n/2 {
		return scaleRow{}, fmt.Errorf("cuckoo filter: removed %d of the %d keys added", removed, n/2)
	}
	want := c.EstimatedFPR()
	return scaleRow{Variant: fmt.Sprintf("cuckoo f=%d (1%%, half removed)", c.FingerprintBits()), Keys: n - n/2, PlannedKeys: n,
		BitsPerKey: float64(c.NumBits()) / float64(n), K: 2, Fill: c.LoadFactor(),
		FPR: countFPBatch(probes, base+n, c.HasHashes), FPRFormula: want, Sigma: sigma(want, probes)}, nil
}

// overflowRows fills filters planned for n keys at bitsPerKey with 10n keys.
func overflowRows(n uint64, bitsPerKey float64, probes int, base uint64) ([]scaleRow, error) {
	m := uint64(math.Round(float64(n) * bitsPerKey))
	k := min(sizing.OptimalKInt(m, n), maxScaleK)
	c := newClassic(m, k)
	for i := range 10 * n {
		c.add(base + i)
	}
	want := sizing.ClassicFPR(m, 10*n, k)
	rows := []scaleRow{{Variant: "classic", Keys: 10 * n, PlannedKeys: n, BitsPerKey: float64(m) / float64(10*n), K: k,
		Fill: c.fill(), FPR: countFP(probes, base+10*n, c.has), FPRFormula: want, Sigma: sigma(want, probes)}}
	f, err := blocked.NewBytes((m+7)/8, 8)
	if err != nil {
		return nil, usagef("the overflow blocked-k8 filter cannot be made from these flags: %s", toolWords(err))
	}
	rows = append(rows, measureBlocked("blocked-k8", f, n, 10*n, probes, base))
	sr, err := measureScalable(n, 10*n, 0.01, probes, base)
	if err != nil {
		return nil, err
	}
	return append(rows, sr), nil
}

// measureScalable plans a Scalable filter for planned keys at target, adds
// n keys, and measures it; its formula column is the target it must stay under.
func measureScalable(planned, n uint64, target float64, probes int, base uint64) (scaleRow, error) {
	s, err := bloom.NewScalable[uint64](planned, target)
	if err != nil {
		return scaleRow{}, usagef("the overflow scalable filter cannot be made from these flags: %s", toolWords(err))
	}
	for i := range n {
		s.Add(base + i)
	}
	fp := countFP(probes, base+n, s.Has)
	return scaleRow{Variant: fmt.Sprintf("scalable (%d stages)", s.Stages()), Keys: n, PlannedKeys: planned,
		BitsPerKey: float64(s.NumBits()) / float64(n), K: 8, Fill: s.FillRatio(), FPR: fp, FPRFormula: target,
		EstimatedFPR: s.EstimatedFPR(), Sigma: sigma(target, probes)}, nil
}

func measureBlocked(name string, f *blocked.Filter, planned, n uint64, probes int, base uint64) scaleRow {
	addRange(f.AddHashes, base, n)
	want := blocked.FPR(n, f.NumBlocks(), f.K())
	return scaleRow{Variant: name, Keys: n, PlannedKeys: planned, BitsPerKey: float64(f.NumBits()) / float64(n), K: f.K(),
		Fill: f.FillRatio(), FPR: countFPBatch(probes, base+n, f.HasHashes), FPRFormula: want,
		EstimatedFPR: f.EstimatedFPR(), Sigma: sigma(want, probes)}
}

func measureSplit(s *blocked.SplitBlock, planned, n uint64, probes int, base uint64) scaleRow {
	addRange(s.AddHashes, base, n)
	want := blocked.SplitBlockFPR(n, s.NumBlocks())
	return scaleRow{Variant: "split-block", Keys: n, PlannedKeys: planned, BitsPerKey: float64(s.NumBits()) / float64(n), K: 8,
		Fill: s.FillRatio(), FPR: countFPBatch(probes, base+n, s.HasHashes), FPRFormula: want,
		EstimatedFPR: s.EstimatedFPR(), Sigma: sigma(want, probes)}
}

// addRange adds the hashes of keys base .. base+n-1 in batches.
func addRange(add func([]uint64), base, n uint64) {
	buf := make([]uint64, 4096)
	for i := uint64(0); i < n; i += uint64(len(buf)) {
		b := buf[:min(uint64(len(buf)), n-i)]
		for j := range b {
			b[j] = bloom.Hash(base + i + uint64(j))
		}
		add(b)
	}
}

// countFPBatch returns the fraction of keys from .. from+probes-1 that has reports present.
func countFPBatch(probes int, from uint64, has func([]uint64, []bool) int) float64 {
	buf := make([]uint64, 4096)
	out := make([]bool, len(buf))
	fp := 0
	for i := 0; i < probes; i += len(buf) {
		b := buf[:min(len(buf), probes-i)]
		for j := range b {
			b[j] = bloom.Hash(from + uint64(i+j))
		}
		fp += has(b, out)
	}
	return float64(fp) / float64(probes)
}

// countFP is countFPBatch for a single-key lookup on raw keys.
func countFP(probes int, from uint64, has func(uint64) bool) float64 {
	fp := 0
	for i := range uint64(probes) {
		if has(from + i) {
			fp++
		}
	}
	return float64(fp) / float64(probes)
}

// sigma is the binomial standard deviation of a rate p measured over n trials.
func sigma(p float64, n int) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

func parseKs(s string) ([]int, error) {
	var ks []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 || k > 64 {
			return nil, fmt.Errorf("-k: %q is not a number of hash functions from 1 to 64", f)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

func printExperiment(w io.Writer, r experimentResult) error {
	fmt.Fprintf(w, "Classic Bloom filter, m=%d bits, n=%d keys, %d absent probes (m/n = %.3g)\n\n", r.M, r.N, r.Probes, float64(r.M)/float64(r.N))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "k\tfill\tfill formula\tFPR measured\tFPR formula\t± sigma\t")
	for _, c := range r.Classic {
		fmt.Fprintf(tw, "%d\t%.3f\t%.3f\t%.4f\t%.4f\t%.4f\t\n", c.K, c.Fill, c.FillFormula, c.FPR, c.FPRFormula, c.Sigma)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\noptimal k = (m/n) ln 2 = %.2f\n", sizing.OptimalK(r.M, r.N))
	printScale := func(title string, rows []scaleRow) error {
		if len(rows) == 0 {
			return nil
		}
		fmt.Fprintf(w, "\n%s\n\n", title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "variant\tkeys\tplanned\tbits/key\tk\tfill\tFPR measured\tFPR formula\t± sigma\testimated\t")
		for _, s := range rows {
			est := "-"
			if s.EstimatedFPR > 0 {
				est = fmt.Sprintf("%.4g", s.EstimatedFPR)
			}
			planned := "-"
			if s.PlannedKeys > 0 {
				planned = strconv.FormatUint(s.PlannedKeys, 10)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%.2f\t%d\t%.3f\t%.5f\t%.5f\t%.5f\t%s\t\n", s.Variant, s.Keys, planned, s.BitsPerKey, s.K, s.Fill, s.FPR, s.FPRFormula, s.Sigma, est)
		}
		return tw.Flush()
	}
	if err := printScale("Every variant at scale, same bits per key (measured with the kernel in use);\n"+
		"counting and cuckoo: sized for 1% at n keys, then half removed (cuckoo: fill = load, k = buckets probed)", r.Scale); err != nil {
		return err
	}
	return printScale("Overflow: 10x the planned keys (fill and FPR show it; Scalable grows instead)", r.Overflow)
}
