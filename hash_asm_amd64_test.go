//go:build !purego

package bloom

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAVX2KernelsUseVEXRegisters: avo allocates vector registers from all 32,
// and an AVX2 kernel holding X16-X31 or Y16-Y31 would need EVEX (AVX-512)
// encodings, which fault on AVX2-only CPUs while passing every test here.
// Every function of the AVX2 file and of the baseline file is below AVX-512.
func TestAVX2KernelsUseVEXRegisters(t *testing.T) {
	high := regexp.MustCompile(`\b[XYZ](1[6-9]|2[0-9]|3[01])\b`)
	for _, file := range []string{"kernels_avx2_amd64.s", "kernels_amd64.s"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range strings.Split(string(src), "TEXT ")[1:] {
			name := fn[:strings.IndexByte(fn, '(')]
			if high.MatchString(fn) {
				t.Errorf("%s: %s uses %s", file, name, high.FindString(fn))
			}
		}
	}
}
