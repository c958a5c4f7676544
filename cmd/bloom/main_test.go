package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSizeBillion(t *testing.T) {
	code, out, errs := runArgs(t, "size", "-n", "1e9", "-p", "0.01", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Variants []sizeRow `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]sizeRow{}
	for _, v := range r.Variants {
		got[v.Variant] = v
	}
	if c := got["classic"]; math.Abs(float64(c.Bytes)/1e9-1.2) > 0.01 || c.K != 7 {
		t.Errorf("classic: %+v, want 1.2 GB and k=7", c)
	}
	for _, name := range []string{"blocked", "blocked-k8", "blocked-k16", "split-block"} {
		if v, ok := got[name]; !ok || v.FPR > 0.01 || v.BitsPerKey < got["classic"].BitsPerKey {
			t.Errorf("%s: %+v", name, v)
		}
	}
	// The filters that can delete: 4-bit counters (about 4.5x the blocked
	// size), and a cuckoo filter of 10-bit fingerprints, smaller than the
	// blocked filter at 1%.
	if c := got["counting"]; c.K != 8 || c.FPR > 0.01 || c.BitsPerKey < 4*got["blocked"].BitsPerKey {
		t.Errorf("counting: %+v", c)
	}
	if c := got["cuckoo"]; c.FingerprintBits != 10 || c.K != 0 || c.FPR > 0.01 || c.BitsPerKey >= got["blocked"].BitsPerKey {
		t.Errorf("cuckoo: %+v, want f=10 and fewer bits per key than blocked (%+v)", c, got["blocked"])
	}
	code, out, _ = runArgs(t, "size", "-n", "1000", "-p", "0.001")
	if code != 0 || !strings.Contains(out, "blocked-k16") || !strings.Contains(out, "bits/key") || !strings.Contains(out, "f=") {
		t.Errorf("text output: %d %s", code, out)
	}
}

func TestSizeBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"size"}, {"size", "-n", "0"}, {"size", "-n", "-5"}, {"size", "-n", "abc"}, {"size", "-n", "1.5"},
		{"size", "-n", "10", "-p", "0"}, {"size", "-n", "10", "-p", "1"}, {"size", "-n", "10", "-p", "NaN"},
		{"size", "-n", "10", "extra"}, {"nosuchcommand"}, {},
	} {
		code, _, errs := runArgs(t, args...)
		if code == 0 || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want an error", args, code, errs)
		}
	}
	if code, out, errs := runArgs(t, "size", "-h"); code != 0 || !strings.Contains(out, "-n") || errs != "" {
		t.Errorf("size -h: exit %d, stdout %q, stderr %q; want the flags on stdout", code, out, errs)
	}
}

// The seed lesson's table: formulas to four places, measurements within the
// sampling error of 4000 probes (3 sigma).
func TestExperimentSeedTable(t *testing.T) {
	code, out, errs := runArgs(t, "experiment", "--json", "-scale-n", "100000", "-scale-probes", "1000000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r experimentResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := map[int]float64{1: 0.0952, 3: 0.0174, 7: 0.0082, 14: 0.0190}
	if len(r.Classic) != 4 {
		t.Fatalf("want 4 classic rows, got %d", len(r.Classic))
	}
	for _, c := range r.Classic {
		if math.Round(c.FPRFormula*1e4)/1e4 != want[c.K] {
			t.Errorf("k=%d: formula %.4f, want %.4f", c.K, c.FPRFormula, want[c.K])
		}
		if math.Abs(c.FPR-c.FPRFormula) > 3*c.Sigma {
			t.Errorf("k=%d: measured %.4f is more than 3 sigma (%.4f) from %.4f", c.K, c.FPR, c.Sigma, c.FPRFormula)
		}
		if math.Abs(c.Fill-c.FillFormula) > 0.02 {
			t.Errorf("k=%d: fill %.3f vs formula %.3f", c.K, c.Fill, c.FillFormula)
		}
	}
	for _, s := range r.Scale {
		if math.Abs(s.FPR-s.FPRFormula) > 4*s.Sigma {
			t.Errorf("%s at scale: measured %.5f, formula %.5f (sigma %.5f)", s.Variant, s.FPR, s.FPRFormula, s.Sigma)
		}
	}
	for _, s := range r.Overflow {
		if strings.HasPrefix(s.Variant, "scalable") {
			if s.FPR > s.FPRFormula+3*s.Sigma || s.Keys != 10*s.PlannedKeys {
				t.Errorf("scalable at 10x: measured %.5f above its target %.5f", s.FPR, s.FPRFormula)
			}
			continue
		}
		if s.Keys != 10*s.PlannedKeys || s.Fill < 0.9 || s.FPR < 0.9 {
			t.Errorf("overflow %s: %+v; a 10x overfull filter should be nearly all ones", s.Variant, s)
		}
	}
}

func TestBenchShort(t *testing.T) {
	code, out, errs := runArgs(t, "bench", "-seconds", "0.2", "-max-size", "16K", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r benchResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Kernel == "" || len(r.Results) < 4 {
		t.Fatalf("bench result: %+v", r)
	}
	for _, row := range r.Results {
		if !(row.NsPerKey > 0) || row.SizeBytes != 16<<10 {
			t.Errorf("bad row %+v", row)
		}
	}
	for in, want := range map[uint64]string{512: "512", 16 << 10: "16K", 1536 << 10: "1.5M", 256 << 20: "256M", 1 << 30: "1G"} {
		if got := sizeLabel(in); got != want {
			t.Errorf("sizeLabel(%d) = %q, want %q", in, got, want)
		}
	}
	for _, args := range [][]string{{"bench", "-max-size", "1K"}, {"bench", "-max-size", "lots"}, {"bench", "-seconds", "-1"}} {
		if code, _, _ := runArgs(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

func TestExperimentBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"experiment", "-k", "0"}, {"experiment", "-k", "x"}, {"experiment", "-m", "0"}, {"experiment", "-probes", "-1"},
	} {
		if code, _, _ := runArgs(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
