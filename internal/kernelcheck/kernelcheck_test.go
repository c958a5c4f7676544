package kernelcheck

import (
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// TestChecksFindProblems runs the table and register checks on a file with
// one problem of each kind, and a table that misses features and lists a
// function that does not exist.
func TestChecksFindProblems(t *testing.T) {
	avx2 := cpu.FeatureAVX | cpu.FeatureAVX2
	table := map[string]cpu.Kernel{
		"good":     {Level: cpu.AVX2, Needs: avx2},
		"highReg":  {Level: cpu.AVX2, Needs: avx2},
		"evexForm": {Level: cpu.AVX2, Needs: avx2},
		// BMI2 is no part of the AVX2 level.
		"byLevel": {Level: cpu.AVX2, Needs: avx2 | cpu.FeatureBMI2, ByLevel: true},
		"wide":    {Level: cpu.AVX512, Needs: cpu.FeatureAVX | cpu.FeatureAVX512F, ByLevel: true},
		"scalar":  {Level: cpu.Generic},
		"ghost":   {Level: cpu.AVX2, Needs: avx2},
	}
	fns, err := parse("testdata/bad_amd64.s.txt", table)
	if err != nil {
		t.Fatal(err)
	}
	problems := append(checkTable(fns, table), checkRegisters(fns)...)
	want := []string{
		"evexForm: its instructions need AVX512F, AVX512VL",
		"unlisted (testdata/bad_amd64.s.txt): no entry in the kernel table",
		"ghost: in the kernel table but not in the assembly",
		"byLevel: needs BMI2, which the avx2 level does not guarantee",
		"bad_amd64.s.txt:10 (highReg, runs at level avx2): VPXOR Y16, Y16, Y16 names Y16",
		"bad_amd64.s.txt:34 (scalar, runs at level generic): VPXORQ Z2, Z2, Z2 names Z2",
	}
	for _, w := range want {
		found := false
		for _, p := range problems {
			found = found || strings.Contains(p, w)
		}
		if !found {
			t.Errorf("no problem reported like %q; got:\n%s", w, strings.Join(problems, "\n"))
		}
	}
	for _, p := range problems {
		if strings.Contains(p, "good") || strings.Contains(p, "Z1") || strings.Contains(p, "K1") {
			t.Errorf("a problem reported where there is none: %s", p)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("%d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
}

func TestEncoding(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want string
	}{
		{[]byte{0x62, 0xf1, 0xd5, 0x28, 0x73, 0x12, 0x20}, "evex"},
		{[]byte{0x67, 0x62, 0xf1, 0xd5, 0x28}, "evex"},
		{[]byte{0xc5, 0xfd, 0xef, 0xc0}, "vex"},
		{[]byte{0xc4, 0xe2, 0x7d, 0x58, 0xc0}, "vex"},
		{[]byte{0x48, 0x89, 0xc3}, ""},
		{[]byte{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}, ""},
		{[]byte{0xf3, 0x48, 0x0f, 0xb8, 0xc0}, ""}, // POPCNT
	} {
		if got := encoding(c.b); got != c.want {
			t.Errorf("encoding(% x) = %q, want %q", c.b, got, c.want)
		}
	}
}
