package bench

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/bench/internal/benchkit"
	"github.com/simdbloom/bloom/bench/internal/plot"
)

var plotOut = flag.String("plot.out", "", "TestPlotLookup writes its SVG here (the test is skipped without it)")

// TestPlotLookup draws ns/key of every library's hash-level and uint64
// lookups against filter size, measured with testing.Benchmark in this
// process, as an SVG for the README:
//
//	cd bench && go test -run PlotLookup -plot.out ../docs/lookup.svg -bench.sizes 16K,1M,8M,256M .
func TestPlotLookup(t *testing.T) {
	if *plotOut == "" {
		t.Skip("no -plot.out")
	}
	series := map[string]*plot.Series{}
	var order []string
	for _, size := range benchkit.Sizes(t) {
		for _, c := range lookupCases(getFixture(t, size)) {
			if strings.Contains(c.Lib, "string") {
				continue // the plot compares the uint64 and hash-level paths
			}
			r := testing.Benchmark(c.Fn)
			ns := float64(r.T.Nanoseconds()) / float64(r.N)
			t.Logf("%s %s: %.2f ns/key", benchkit.SizeLabel(size), c.Lib, ns)
			if series[c.Lib] == nil {
				series[c.Lib] = &plot.Series{Name: c.Lib}
				order = append(order, c.Lib)
			}
			series[c.Lib].Points = append(series[c.Lib].Points, plot.Point{X: float64(size), Y: ns})
		}
	}
	chart := plot.Chart{Title: "Lookup cost against filter size (10 bits/key, half present)", XLabel: "filter size (bytes)",
		YLabel: "ns per key (log scale)", LogY: true}
	for _, name := range order {
		chart.Series = append(chart.Series, *series[name])
	}
	f, err := os.Create(*plotOut)
	if err != nil {
		t.Fatal(err)
	}
	if err := chart.WriteSVG(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
