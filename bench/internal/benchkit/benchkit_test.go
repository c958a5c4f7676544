package benchkit

import (
	"slices"
	"testing"
)

func TestParseSizes(t *testing.T) {
	got, err := parseSizes("16K, 1M,8m,2G")
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint64{16 << 10, 1 << 20, 8 << 20, 2 << 30}; !slices.Equal(got, want) {
		t.Errorf("parseSizes = %v, want %v", got, want)
	}
	for _, bad := range []string{"16", "16T", "K", ""} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q): no error", bad)
		}
	}
}

func TestSizeLabel(t *testing.T) {
	for size, want := range map[uint64]string{16 << 10: "16K", 1 << 20: "1M", 256 << 20: "256M", 2 << 30: "2048M"} {
		if got := SizeLabel(size); got != want {
			t.Errorf("SizeLabel(%d) = %q, want %q", size, got, want)
		}
	}
}
