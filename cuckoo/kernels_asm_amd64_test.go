//go:build !purego

package cuckoo

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
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

// TestHasHashesWithoutVBMI runs the batch lookups at the AVX-512 level as on
// an AVX-512 processor without VBMI, and without BMI2, where the AVX2
// kernels run. It runs in a child process (childtest.Levels), and only
// where the AVX-512 level is usable (not lowered by SIMDBLOOM_CPU).
func TestHasHashesWithoutVBMI(t *testing.T) {
	childtest.Levels(t, []cpu.Level{cpu.AVX512}, testHasHashesWithoutVBMI)
}

func testHasHashesWithoutVBMI(t *testing.T, _ cpu.Level) {
	for _, c := range []struct {
		name string
		flag *bool
	}{{"VBMI", &cpu.VBMI}, {"BMI2", &cpu.BMI2}} {
		func() {
			saved := *c.flag
			defer func() { *c.flag = saved }()
			*c.flag = false
			for _, g := range geometries {
				f, added := fillTo(t, 1000, g, 0.9, 5)
				probe := adversarial(f, added, 300, 6)
				checkHasHashes(t, cpu.AVX512, f, probe, fmt.Sprintf("%v without %s", g, c.name))
			}
		}()
	}
}
