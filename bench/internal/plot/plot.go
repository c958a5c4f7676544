// Package plot draws the small line charts of simdbloom's benchmark reports
// as standalone SVG: ns/key against filter size, one line per series.
package plot

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Point is one measurement: X is the filter size in bytes, Y is ns/key.
type Point struct{ X, Y float64 }

// Series is one line of the chart.
type Series struct {
	Name   string
	Points []Point
}

// Chart describes a chart: a logarithmic x axis (sizes) and a linear y
// axis, or a logarithmic one with LogY (for values spanning decades).
type Chart struct {
	Title  string
	XLabel string
	YLabel string
	LogY   bool
	Series []Series
}

var colors = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// SizeLabel formats a byte count as 16K, 1M, 256M, 1G.
func SizeLabel(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%gG", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%gM", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%gK", b/(1<<10))
	}
	return fmt.Sprintf("%g", b)
}

// WriteSVG writes the chart as an SVG document.
func (c Chart) WriteSVG(w io.Writer) error {
	const W, H = 860, 440
	const left, right, top, bottom = 60, 280, 40, 50
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), 0.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.X <= 0 || math.IsNaN(p.Y) || math.IsInf(p.Y, 0) {
				continue
			}
			xmin, xmax, ymax = math.Min(xmin, p.X), math.Max(xmax, p.X), math.Max(ymax, p.Y)
			if p.Y > 0 {
				ymin = math.Min(ymin, p.Y)
			}
		}
	}
	if math.IsInf(xmin, 0) {
		return fmt.Errorf("plot: no points to draw")
	}
	if xmax == xmin {
		xmax = xmin * 2
	}
	ymax = niceCeil(ymax * 1.05)
	px := func(x float64) float64 {
		return left + (math.Log2(x)-math.Log2(xmin))/(math.Log2(xmax)-math.Log2(xmin))*(W-left-right)
	}
	py := func(y float64) float64 { return H - bottom - y/ymax*(H-top-bottom) }
	var yticks []float64
	for i := 0; i <= 5; i++ {
		yticks = append(yticks, ymax*float64(i)/5)
	}
	if c.LogY && !math.IsInf(ymin, 0) {
		lo := math.Pow(10, math.Floor(math.Log10(ymin)))
		hi := math.Pow(10, math.Ceil(math.Log10(ymax)))
		py = func(y float64) float64 {
			y = math.Max(y, lo)
			return H - bottom - (math.Log10(y)-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))*(H-top-bottom)
		}
		yticks = nil
		for d := lo; d <= hi*1.0001; d *= 10 {
			yticks = append(yticks, d, 2*d, 5*d)
		}
		yticks = slices.DeleteFunc(yticks, func(y float64) bool { return y > hi*1.0001 })
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", W, H)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15">%s</text>`+"\n", left, html.EscapeString(c.Title))
	// Axes and grid.
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, H-bottom, W-right, H-bottom)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, H-bottom)
	for _, y := range yticks {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`, left, py(y), W-right, py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, py(y)+4, tickLabel(y))
	}
	for x := xmin; x <= xmax*1.0001; x *= 4 {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`, px(x), top, px(x), H-bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", px(x), H-bottom+16, SizeLabel(x))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", (left+W-right)/2, H-12, html.EscapeString(c.XLabel))
	fmt.Fprintf(&b, `<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">%s</text>`+"\n", (top+H-bottom)/2, (top+H-bottom)/2, html.EscapeString(c.YLabel))
	// Lines and legend.
	for i, s := range c.Series {
		col := colors[i%len(colors)]
		var pts []string
		for _, p := range s.Points {
			if p.X > 0 && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(p.X), py(p.Y)))
			}
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", col, strings.Join(pts, " "))
		for _, q := range pts {
			xy := strings.Split(q, ",")
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`, xy[0], xy[1], col)
		}
		ly := top + 10 + i*18
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>`, W-right+12, ly, W-right+32, ly, col)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", W-right+38, ly+4, html.EscapeString(s.Name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// tickLabel formats an axis value: whole numbers in full (1000, not 1e+03),
// others to three significant digits.
func tickLabel(y float64) string {
	if y >= 1 && y == math.Trunc(y) && y < 1e9 {
		return strconv.FormatFloat(y, 'f', 0, 64)
	}
	return strconv.FormatFloat(y, 'g', 3, 64)
}

// niceCeil rounds y up to 1, 2 or 5 times a power of ten.
func niceCeil(y float64) float64 {
	if y <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(y)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= y {
			return m * p
		}
	}
	return 10 * p
}
