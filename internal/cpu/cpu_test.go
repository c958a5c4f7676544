package cpu

import "testing"

func TestChooseOnlyLowers(t *testing.T) {
	cases := []struct {
		detected Level
		env      string
		want     Level
	}{
		{AVX512, "", AVX512},
		{AVX512, "avx2", AVX2},
		{AVX512, "AVX512", AVX512},
		{AVX512, "generic", Generic},
		{AVX512, "neon", AVX512},
		{AVX2, "avx512", AVX2},
		{AVX2, "bogus", AVX2},
		{NEON, "avx2", NEON},
		{NEON, "generic", Generic},
		{Generic, "avx512", Generic},
	}
	for _, c := range cases {
		if got := choose(c.detected, c.env); got != c.want {
			t.Errorf("choose(%v, %q) = %v, want %v", c.detected, c.env, got, c.want)
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, l := range []Level{Generic, NEON, AVX2, AVX512} {
		got, ok := Parse(l.String())
		if !ok || got != l {
			t.Errorf("Parse(%q) = %v, %v", l.String(), got, ok)
		}
	}
	if _, ok := Parse("sse9"); ok {
		t.Error("Parse accepted an unknown level")
	}
}

func TestActiveSupported(t *testing.T) {
	if !Supported(Active) {
		t.Fatalf("active level %v is not supported (detected %v)", Active, Detected)
	}
}

func TestFeaturesNeedTheirLevel(t *testing.T) {
	// Only amd64 detects BMI2, BITALG and IFMA, and every processor with
	// AVX-512 BITALG or IFMA also has the AVX-512 subsets of the AVX512 level.
	if (Detected == NEON || Detected == Generic) && (BMI2 || BITALG || IFMA) {
		t.Errorf("level %v reports BMI2=%v BITALG=%v IFMA=%v", Detected, BMI2, BITALG, IFMA)
	}
	if BITALG && Detected != AVX512 {
		t.Errorf("BITALG without the AVX512 level (detected %v)", Detected)
	}
	if IFMA && Detected != AVX512 {
		t.Errorf("IFMA without the AVX512 level (detected %v)", Detected)
	}
	if VBMI && Detected != AVX512 {
		t.Errorf("VBMI without the AVX512 level (detected %v)", Detected)
	}
}
