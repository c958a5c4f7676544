package plot

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestWriteSVGIsWellFormed(t *testing.T) {
	c := Chart{Title: "lookup <ns/key>", XLabel: "filter size", YLabel: "ns/key", Series: []Series{
		{Name: "simdbloom & co", Points: []Point{{16 << 10, 0.5}, {1 << 20, 0.7}, {256 << 20, 4}}},
		{Name: "peer", Points: []Point{{16 << 10, 3}, {1 << 20, 3.5}, {256 << 20, 25}}},
	}}
	var b strings.Builder
	if err := c.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader(b.String()))
	lines := 0
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != 2 {
		t.Fatalf("want 2 polylines, got %d:\n%s", lines, b.String())
	}
	for _, want := range []string{"16K", "1M", "256M", "&lt;ns/key&gt;", "simdbloom &amp; co"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	c.LogY = true
	b.Reset()
	if err := c.WriteSVG(&b); err != nil || !strings.Contains(b.String(), ">0.5<") || !strings.Contains(b.String(), ">50<") {
		t.Errorf("log-scale chart: %v, ticks missing:\n%s", err, b.String())
	}
	if err := (Chart{}).WriteSVG(&b); err == nil {
		t.Error("an empty chart should be an error")
	}
}

func TestSizeLabel(t *testing.T) {
	for in, want := range map[float64]string{512: "512", 16 << 10: "16K", 8 << 20: "8M", 1 << 30: "1G"} {
		if got := SizeLabel(in); got != want {
			t.Errorf("SizeLabel(%v) = %q, want %q", in, got, want)
		}
	}
}
