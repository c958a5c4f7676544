// Command benchplot draws the output of "bloom bench --json" as an SVG
// chart: ns per key against filter size, one line per operation and kernel
// level, next to the floor (one random cache-line load per key).
//
//	go run ./cmd/bloom bench --json > bench.json     (in the library's checkout)
//	cd bench && go run ./benchplot < ../bench.json > ../bench.svg
//
// It reads the JSON on its standard input and writes the SVG on its
// standard output. It lives in the bench module with the plotting code, so
// that neither is in the library's module download.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/simdbloom/bloom/bench/internal/plot"
)

// benchResult is the part of "bloom bench --json" the chart reads.
type benchResult struct {
	CPU     string `json:"cpu"`
	Results []struct {
		SizeBytes uint64  `json:"size_bytes"`
		Op        string  `json:"op"`
		Kernel    string  `json:"kernel"`
		NsPerKey  float64 `json:"ns_per_key"`
	} `json:"results"`
}

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: bloom bench --json | benchplot > bench.svg")
		os.Exit(2)
	}
	c, err := chart(os.Stdin)
	if err == nil {
		err = c.WriteSVG(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchplot:", err)
		os.Exit(1)
	}
}

// chart decodes the output of "bloom bench --json" from r and returns its
// chart: a series per operation and kernel level (the floor's level is
// left out: it runs no kernel), in the order they first appear.
func chart(r io.Reader) (plot.Chart, error) {
	var res benchResult
	if err := json.NewDecoder(r).Decode(&res); err != nil {
		return plot.Chart{}, fmt.Errorf("reading bloom bench --json: %w", err)
	}
	if len(res.Results) == 0 {
		return plot.Chart{}, fmt.Errorf("reading bloom bench --json: no results")
	}
	series := map[string]*plot.Series{}
	var names []string
	for _, row := range res.Results {
		name := row.Op
		if !strings.HasPrefix(row.Op, "floor") {
			name += " (" + row.Kernel + ")"
		}
		if series[name] == nil {
			series[name] = &plot.Series{Name: name}
			names = append(names, name)
		}
		series[name].Points = append(series[name].Points, plot.Point{X: float64(row.SizeBytes), Y: row.NsPerKey})
	}
	c := plot.Chart{Title: "simdbloom blocked.Filter, " + res.CPU, XLabel: "filter size (bytes)", YLabel: "ns per key"}
	for _, n := range names {
		c.Series = append(c.Series, *series[n])
	}
	return c, nil
}
