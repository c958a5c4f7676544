package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const sample = `{"cpu": "Test CPU", "kernel": "avx2", "goarch": "amd64", "results": [
 {"size_bytes": 16384, "op": "lookup batch", "kernel": "avx2", "ns_per_key": 0.7, "keys_per_s": 1.4e9},
 {"size_bytes": 16384, "op": "lookup batch", "kernel": "generic", "ns_per_key": 2.1, "keys_per_s": 4.7e8},
 {"size_bytes": 16384, "op": "floor: random line", "kernel": "generic", "ns_per_key": 0.5, "keys_per_s": 2e9},
 {"size_bytes": 1048576, "op": "lookup batch", "kernel": "avx2", "ns_per_key": 1.1, "keys_per_s": 9e8},
 {"size_bytes": 1048576, "op": "lookup batch", "kernel": "generic", "ns_per_key": 2.9, "keys_per_s": 3.4e8},
 {"size_bytes": 1048576, "op": "floor: random line", "kernel": "generic", "ns_per_key": 0.9, "keys_per_s": 1.1e9}]}`

func TestChart(t *testing.T) {
	c, err := chart(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range c.Series {
		names = append(names, s.Name)
		if len(s.Points) != 2 || s.Points[0].X != 16384 || s.Points[1].X != 1<<20 {
			t.Errorf("%s: points %v, want one at 16K and one at 1M", s.Name, s.Points)
		}
	}
	if want := "lookup batch (avx2)|lookup batch (generic)|floor: random line"; strings.Join(names, "|") != want {
		t.Errorf("series %q, want %q", names, want)
	}
	var b bytes.Buffer
	if err := c.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "<polyline"); n != 3 || !strings.Contains(b.String(), "Test CPU") {
		t.Errorf("SVG with %d lines (want 3), title found %v", n, strings.Contains(b.String(), "Test CPU"))
	}
	for _, bad := range []string{"", "{", `{"results": []}`, `{"results": 3}`} {
		if _, err := chart(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestReadsBloomBench runs the library's "bloom bench --json" briefly and
// charts its output, so that a change of the tool's JSON fails here.
func TestReadsBloomBench(t *testing.T) {
	out, err := exec.Command("go", "run", "github.com/simdbloom/bloom/cmd/bloom", "bench", "--json", "-seconds", "0.2", "-max-size", "16K").Output()
	if err != nil {
		t.Fatalf("bloom bench --json: %v", err)
	}
	c, err := chart(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	// lookup batch, add batch (each at every level), lookup single, floor
	if len(c.Series) < 4 {
		t.Fatalf("%d series from\n%s", len(c.Series), out)
	}
	for _, s := range c.Series {
		if len(s.Points) != 1 || s.Points[0].X != 16<<10 || !(s.Points[0].Y > 0) {
			t.Errorf("%s: points %v, want one at 16K with ns/key > 0", s.Name, s.Points)
		}
	}
}
