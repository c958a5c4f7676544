//go:build !purego

package cuckoo

import (
	"fmt"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// TestHasHashesWithoutVBMI runs the batch lookups at the AVX-512 level as on
// an AVX-512 processor without VBMI, without BMI2, and without BMI1 (where
// only the semi-sorted kernel steps down), where the AVX2 kernels run. It
// runs in a child process (childtest.Levels), and only where the AVX-512
// level is usable (not lowered by SIMDBLOOM_CPU).
func TestHasHashesWithoutVBMI(t *testing.T) {
	childtest.Levels(t, []cpu.Level{cpu.AVX512}, testHasHashesWithoutVBMI)
}

func testHasHashesWithoutVBMI(t *testing.T, _ cpu.Level) {
	for _, c := range []struct {
		name string
		f    cpu.Feature
	}{{"VBMI", cpu.FeatureAVX512VBMI}, {"BMI2", cpu.FeatureBMI2}, {"BMI1", cpu.FeatureBMI1}} {
		func() {
			saved := cpu.Features
			defer func() { cpu.Features = saved }()
			cpu.Features &^= c.f
			for _, g := range geometries {
				f, added := fillTo(t, 1000, g, 0.9, 5)
				probe := adversarial(f, added, 300, 6)
				checkHasHashes(t, cpu.AVX512, f, probe, fmt.Sprintf("%v without %s", g, c.name))
			}
		}()
	}
}
