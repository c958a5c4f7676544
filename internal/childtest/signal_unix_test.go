//go:build unix

package childtest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// The demos below run only when TestChildDiesOfSignal, TestLevelsDieOfSignal,
// TestFuzzLevelsDieOfSignal or TestLevelsHonourSIMDBLOOMCPU start the test
// binary with signalEnv set: each kills one child with SIGILL, as an illegal
// instruction in a kernel would, and the starting test checks that exactly
// that subtest failed, by name, while its siblings ran and passed.
const signalEnv = "SIMDBLOOM_CHILDTEST_SIGNAL"

// TestDemoSignal runs subtests a, b and c, each in a child; b's dies of SIGILL.
func TestDemoSignal(t *testing.T) {
	if os.Getenv(signalEnv) != "plain" {
		t.Skip("started by TestChildDiesOfSignal")
	}
	for _, name := range []string{"a", "b", "c"} {
		t.Run(name, func(t *testing.T) {
			Run(t, func(t *testing.T) {
				if name == "b" {
					sigill()
				}
			})
		})
	}
}

// TestDemoLevels runs Levels over cpu.Usable(); the child of the level named
// after "levels:" in signalEnv dies of SIGILL.
func TestDemoLevels(t *testing.T) {
	die, ok := strings.CutPrefix(os.Getenv(signalEnv), "levels:")
	if !ok {
		t.Skip("started by TestLevelsDieOfSignal")
	}
	Levels(t, cpu.Usable(), func(t *testing.T, l cpu.Level) {
		if cpu.Active != l {
			t.Errorf("cpu.Active is %v in the child for %v", cpu.Active, l)
		}
		if l.String() == die {
			sigill()
		}
	})
}

// FuzzDemo runs three seed inputs through FuzzLevels; at the level named
// after "fuzz:" in signalEnv, the child dies of SIGILL at input 1.
func FuzzDemo(f *testing.F) {
	die, ok := strings.CutPrefix(os.Getenv(signalEnv), "fuzz:")
	if !ok {
		f.Skip("started by TestFuzzLevelsDieOfSignal")
	}
	f.Add(0)
	f.Add(1)
	f.Add(2)
	levels := NewFuzzLevels(f)
	f.Fuzz(func(t *testing.T, i int) {
		levels.Run(t, func(t *testing.T, l cpu.Level) {
			if cpu.Active != l {
				t.Errorf("cpu.Active is %v at level %v", cpu.Active, l)
			}
			if i == 1 && l.String() == die {
				sigill()
			}
		})
	})
}

// runDemo runs the test binary's tests matching pattern with signalEnv=mode
// (and env), and returns its output and whether it failed. It skips t where
// the binary cannot start itself.
func runDemo(t *testing.T, pattern, mode string, env ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run="+pattern, "-test.count=1", "-test.v")
	cmd.Env = append(append(os.Environ(), signalEnv+"="+mode), env...)
	out, err := cmd.CombinedOutput()
	if errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("the test binary cannot start itself here (an emulator without binfmt_misc): %v", err)
	}
	return string(out), err != nil
}

// wantResults checks that out reports each test of want with its result.
func wantResults(t *testing.T, out string, want map[string]string) {
	t.Helper()
	for name, r := range want {
		if got := result(out, name); got != r {
			t.Errorf("%s: %q, want %q", name, got, r)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}

func TestChildDiesOfSignal(t *testing.T) {
	out, failed := runDemo(t, "^TestDemoSignal$", "plain")
	if !failed {
		t.Errorf("the run passed although a child died")
	}
	wantResults(t, out, map[string]string{
		"TestDemoSignal/a": "PASS", "TestDemoSignal/b": "FAIL", "TestDemoSignal/c": "PASS",
	})
	// The child dies of the SIGILL it sent itself, and the failure shows
	// it: the runtime's "SIGILL: ..." report, or the parent's "signal:
	// illegal instruction". Under an emulator (ExecEnv set) the signal may
	// be the emulator's own: once in CI, qemu-x86_64 -cpu max died of
	// SIGSEGV while delivering the guest's SIGILL. b still failed by name,
	// which is what Run promises; the failure must still say that a signal
	// ended the child.
	shown := strings.Contains(out, "SIGILL")
	if os.Getenv(ExecEnv) != "" {
		shown = shown || strings.Contains(out, "failed: signal: ")
	}
	if !shown {
		t.Errorf("the failure does not show the child's death by a signal:\n%s", out)
	}
}

func TestLevelsDieOfSignal(t *testing.T) {
	ls := cpu.Usable()
	// The first level (generic) and the last: the levels after the one that
	// dies still run, and the one that dies fails by its name.
	for _, die := range []cpu.Level{ls[0], ls[len(ls)-1]} {
		out, failed := runDemo(t, "^TestDemoLevels$", "levels:"+die.String())
		if !failed {
			t.Errorf("%v: the run passed although a child died", die)
		}
		want := map[string]string{}
		for _, l := range ls {
			want["TestDemoLevels/"+l.String()] = "PASS"
		}
		want["TestDemoLevels/"+die.String()] = "FAIL"
		wantResults(t, out, want)
	}
}

func TestFuzzLevelsDieOfSignal(t *testing.T) {
	ls := cpu.Usable()
	die := ls[len(ls)-1]
	out, failed := runDemo(t, "^FuzzDemo$", "fuzz:"+die.String())
	if !failed {
		t.Errorf("the run passed although a child died")
	}
	want := map[string]string{}
	for _, seed := range []string{"seed#0", "seed#1", "seed#2"} {
		for _, l := range ls {
			want["FuzzDemo/"+seed+"/"+l.String()] = "PASS"
		}
	}
	// Input 1 kills the child; input 2 at that level never ran.
	want["FuzzDemo/seed#1/"+die.String()] = "FAIL"
	want["FuzzDemo/seed#2/"+die.String()] = "FAIL"
	wantResults(t, out, want)
	if !strings.Contains(out, "died in FuzzDemo/seed#1/"+die.String()) ||
		!strings.Contains(out, "before it ran FuzzDemo/seed#2/"+die.String()) {
		t.Errorf("the failures do not say where the child died:\n%s", out)
	}
}

// TestLevelsHonourSIMDBLOOMCPU: with SIMDBLOOM_CPU=generic, Levels and
// FuzzLevels run the generic level only.
func TestLevelsHonourSIMDBLOOMCPU(t *testing.T) {
	out, failed := runDemo(t, "^TestDemoLevels$", "levels:none", "SIMDBLOOM_CPU=generic")
	if failed {
		t.Errorf("the run failed:\n%s", out)
	}
	wantResults(t, out, map[string]string{"TestDemoLevels/generic": "PASS"})
	onlyGeneric(t, out)
	out, failed = runDemo(t, "^FuzzDemo$", "fuzz:none", "SIMDBLOOM_CPU=generic")
	if failed {
		t.Errorf("the fuzz run failed:\n%s", out)
	}
	wantResults(t, out, map[string]string{"FuzzDemo/seed#0/generic": "PASS", "FuzzDemo/seed#2/generic": "PASS"})
	onlyGeneric(t, out)
}

// onlyGeneric checks that out names no level but generic.
func onlyGeneric(t *testing.T, out string) {
	t.Helper()
	for _, l := range cpu.All[1:] {
		if strings.Contains(out, "/"+l.String()) {
			t.Errorf("SIMDBLOOM_CPU=generic ran level %v:\n%s", l, out)
		}
	}
}
