package bench

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/plot"
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
	for _, size := range parseSizes(t) {
		for _, c := range lookupCases(getFixture(t, size)) {
			if strings.Contains(c.lib, "string") {
				continue // the plot compares the uint64 and hash-level paths
			}
			r := testing.Benchmark(c.fn)
			ns := float64(r.T.Nanoseconds()) / float64(r.N)
			t.Logf("%s %s: %.2f ns/key", sizeLabel(size), c.lib, ns)
			if series[c.lib] == nil {
				series[c.lib] = &plot.Series{Name: c.lib}
				order = append(order, c.lib)
			}
			series[c.lib].Points = append(series[c.lib].Points, plot.Point{X: float64(size), Y: ns})
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
