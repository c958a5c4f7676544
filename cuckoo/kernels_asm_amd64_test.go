//go:build !purego

package cuckoo

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAVX2KernelsUseVEXRegisters: the AVX2 kernels run on processors
// without AVX-512, so they may name only X0–X15 and Y0–Y15 (registers 16 to
// 31 and the Z registers need EVEX encodings).
func TestAVX2KernelsUseVEXRegisters(t *testing.T) {
	src, err := os.ReadFile("kernels_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	high := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	found := 0
	for _, fn := range strings.Split(string(src), "TEXT ")[1:] {
		name := fn[:strings.IndexByte(fn, '(')]
		if !strings.HasSuffix(name, "AVX2") {
			continue
		}
		found++
		if high.MatchString(fn) {
			t.Errorf("%s uses %s", name, high.FindString(fn))
		}
	}
	if found != 2 {
		t.Errorf("found %d AVX2 kernels in kernels_amd64.s, want 2", found)
	}
}
