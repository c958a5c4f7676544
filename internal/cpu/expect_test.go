package cpu_test

import (
	"os"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// expectEnv names the kernel level (generic, neon, avx2, avx512) that CI
// expects detection to choose on the processor it runs the tests on, often an
// emulated one: qemu-x86_64-static -cpu max must give avx2, -cpu Westmere
// generic. Unset, the tests below skip.
const expectEnv = "SIMDBLOOM_EXPECT_LEVEL"

// checkExpectedLevel fails t unless the detected level is $SIMDBLOOM_EXPECT_LEVEL.
func checkExpectedLevel(t *testing.T) {
	t.Helper()
	want := os.Getenv(expectEnv)
	if want == "" {
		t.Skipf("%s is not set", expectEnv)
	}
	if l, ok := cpu.Parse(want); !ok || l.String() != want {
		t.Fatalf("%s=%q is not a level name (generic, neon, avx2, avx512)", expectEnv, want)
	}
	t.Logf("detected %v, active %v, features %v", cpu.Detected, cpu.Active, cpu.Features)
	if got := cpu.Detected.String(); got != want {
		t.Fatalf("detected kernel level %s, want %s=%s: the processor (or emulator model) is not the one CI meant to test",
			got, expectEnv, want)
	}
}

// TestExpectedLevel checks the level this test binary detected.
func TestExpectedLevel(t *testing.T) { checkExpectedLevel(t) }

// TestExpectedLevelInChild checks the level a child process of the test
// binary detects: under an emulator the children must be emulated too
// ($SIMDBLOOM_CHILD_EXEC), or their tests silently run on the host processor.
func TestExpectedLevelInChild(t *testing.T) {
	if os.Getenv(expectEnv) == "" {
		t.Skipf("%s is not set", expectEnv)
	}
	childtest.Run(t, checkExpectedLevel)
}
