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
	// The detected level is the best whose features the processor has, and
	// every extension a kernel checks for is of its architecture.
	if got := levelOf(Features); got != Detected {
		t.Errorf("Detected = %v, but the features %v give %v", Detected, Features, got)
	}
	if Features&^(archFeatures|Baseline) != 0 {
		t.Errorf("features %v outside this architecture's %v", Features&^archFeatures, archFeatures)
	}
	if Features&^Baseline != 0 && Detected == Generic && Features&^Baseline&(FeatureAVX|FeatureAVX2|FeatureASIMD) != 0 {
		t.Errorf("level generic with vector features %v", Features)
	}
	if l := LevelFeatures(Detected); Features|Baseline&l != Features|Baseline {
		t.Errorf("level %v guarantees %v, processor has %v", Detected, l, Features)
	}
}

func TestLevelOf(t *testing.T) {
	if archFeatures&FeatureAVX2 == 0 {
		t.Skip("amd64 only")
	}
	avx2 := FeatureAVX | FeatureAVX2
	avx512 := avx2 | FeatureAVX512F | FeatureAVX512VL | FeatureAVX512DQ | FeatureAVX512BW
	cases := []struct {
		fs   Feature
		want Level
	}{
		{0, Generic},
		{FeatureAVX, Generic},
		{FeatureAVX2, Generic}, // AVX2 without AVX (or its OS state): no
		{avx2, AVX2},
		{avx2 | FeatureAVX512F, AVX2},
		{avx512 &^ FeatureAVX512BW, AVX2},
		{avx512, AVX512},
		{avx512 | FeatureAVX512BITALG | FeatureBMI2, AVX512},
	}
	for _, c := range cases {
		if got := levelOf(c.fs); got != c.want {
			t.Errorf("levelOf(%v) = %v, want %v", c.fs, got, c.want)
		}
	}
}

func TestCan(t *testing.T) {
	saved, savedF := Active, Features
	defer func() { Active, Features = saved, savedF }()
	Active, Features = AVX2, FeatureAVX|FeatureAVX2|FeaturePOPCNT
	for _, c := range []struct {
		l    Level
		need Feature
		want bool
	}{
		{Generic, 0, true},
		{AVX2, FeatureAVX | FeatureAVX2, true},
		{AVX2, FeatureAVX2 | FeaturePOPCNT, true},
		{AVX2, FeatureAVX2 | FeatureBMI2, false},
		{AVX2, FeatureAVX2 | FeatureAVX512F, false},
		{AVX512, FeatureAVX2, false},
		{NEON, 0, false},
	} {
		if got := Can(c.l, c.need); got != c.want {
			t.Errorf("Can(%v, %v) at %v with %v = %v, want %v", c.l, c.need, Active, Features, got, c.want)
		}
	}
	Active = Generic
	if Can(AVX2, FeatureAVX2) {
		t.Error("Can runs an AVX2 kernel at the generic level")
	}
}

func TestParseFeatures(t *testing.T) {
	fs, unknown := ParseFeatures("AVX, AVX2, AVX512F, AVX512VL, MMX+, POPCNT, BMI")
	want := FeatureAVX | FeatureAVX2 | FeatureAVX512F | FeatureAVX512VL | FeatureMMXExt | FeaturePOPCNT | FeatureBMI1
	if fs != want || len(unknown) != 0 {
		t.Errorf("ParseFeatures = %v, %v; want %v", fs, unknown, want)
	}
	if got, _ := ParseFeatures(fs.String()); got != fs {
		t.Errorf("String/Parse round trip: %v -> %v", fs, got)
	}
	if _, unknown := ParseFeatures("AVX, SSE9"); len(unknown) != 1 || unknown[0] != "SSE9" {
		t.Errorf("unknown = %v, want [SSE9]", unknown)
	}
}
