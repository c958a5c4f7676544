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
func TestAVX2KernelsUseVEXRegisters(t *testing.T) {
	src, err := os.ReadFile("hash_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	high := regexp.MustCompile(`\b[XYZ](1[6-9]|2[0-9]|3[01])\b`)
	for _, fn := range strings.Split(string(src), "TEXT ")[1:] {
		name := fn[:strings.IndexByte(fn, '(')]
		if strings.HasSuffix(name, "AVX2") && high.MatchString(fn) {
			t.Errorf("%s uses %s", name, high.FindString(fn))
		}
	}
}
