// Package childtest runs part of a test in a child process, so that a fault
// that recover cannot catch (a fatal signal in assembly, a runtime throw)
// fails the test instead of killing the whole test binary.
//
// Run runs one (sub)test in a child. Levels runs a test once per kernel
// level, each level a subtest in a child of its own, so that an illegal
// instruction in one level's kernels fails that level's subtest (TestX/avx2)
// while the other levels still run and report. FuzzLevels does the same for
// the inputs of a fuzz target, with one child per level for all the inputs.
package childtest

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// envName holds, in the child, the full name of the test it was started for.
const envName = "SIMDBLOOM_CHILDTEST"

// levelEnv holds, in a child FuzzLevels started, the level it runs.
const levelEnv = "SIMDBLOOM_CHILDTEST_LEVEL"

// resultMark starts the line with which a child FuzzLevels started reports
// the result of each level subtest as it ends.
const resultMark = "childtest-result:"

// cpuEnv is the variable with which internal/cpu lowers the kernel level.
const cpuEnv = "SIMDBLOOM_CPU"

// noExec is set once starting a child failed with ENOEXEC: the binary runs
// under an emulator (go test -exec qemu-aarch64-static) without
// binfmt_misc, and every later child would fail the same way.
var noExec atomic.Bool

// ExecEnv names the environment variable that holds a command prefix for
// every child process these tests start: its space-separated words (no
// quoting) go before the child's own command line. Set it to the emulator that
// runs the test binary, so that children are emulated too rather than run on
// the host processor:
//
//	SIMDBLOOM_CHILD_EXEC="qemu-x86_64-static -cpu max" go test -exec "qemu-x86_64-static -cpu max" ./...
//
// Without it, a child of an amd64 test binary emulated on an amd64 host runs
// natively, and so tests the host's kernels instead of the emulated ones.
const ExecEnv = "SIMDBLOOM_CHILD_EXEC"

// Command is exec.Command(name, arg...) with the words of $SIMDBLOOM_CHILD_EXEC
// (see ExecEnv), if any, put before name. Use it to start the test binary
// itself as a child.
func Command(name string, arg ...string) *exec.Cmd {
	prefix := strings.Fields(os.Getenv(ExecEnv))
	if len(prefix) == 0 {
		return exec.Command(name, arg...)
	}
	return exec.Command(prefix[0], append(append(prefix[1:], name), arg...)...)
}

// Run runs fn in a child process: the test binary re-run with -test.run
// matching exactly t's name (and -test.short and -test.timeout as this
// process has them), behind the prefix in $SIMDBLOOM_CHILD_EXEC. In the parent it waits for the child and fails t with
// the child's output if the child failed, died, or did not run the test; it
// skips t if the child skipped it. In the child it calls fn(t), so fn reports
// failures with t as usual.
//
// Call Run from a test or subtest whose name contains no '/' of its own, and
// at most once per (sub)test. Code of the enclosing tests outside their
// subtests runs again in the child, before and after fn.
func Run(t *testing.T, fn func(t *testing.T)) {
	t.Helper()
	RunEnv(t, nil, fn)
}

// RunEnv is Run with env ("NAME=value" entries) added to the child's
// environment, for variables read at start-up such as SIMDBLOOM_CPU. When
// no child can be started fn runs in this process, without env.
func RunEnv(t *testing.T, env []string, fn func(t *testing.T)) {
	t.Helper()
	if os.Getenv(envName) == t.Name() {
		fn(t)
		return
	}
	if noExec.Load() {
		fn(t)
		return
	}
	out, err := runChild(runPattern(t.Name()), append([]string{envName + "=" + t.Name()}, env...))
	if errors.Is(err, syscall.ENOEXEC) {
		// The test binary cannot start itself: it runs under an emulator
		// (go test -exec qemu-aarch64-static) without binfmt_misc, and
		// SIMDBLOOM_CHILD_EXEC does not name the emulator. Run fn
		// here; a fatal fault then ends the whole run rather than one test.
		noExec.Store(true)
		t.Logf("childtest: cannot start a child process (%v); running in this process", err)
		fn(t)
		return
	}
	if err != nil {
		t.Fatalf("child process for %s failed: %v\n%s", t.Name(), err, out)
	}
	switch result(out, t.Name()) {
	case "PASS":
	case "SKIP":
		t.Skipf("skipped in the child process:\n%s", section(out, t.Name()))
	default:
		t.Fatalf("child process did not run %s:\n%s", t.Name(), out)
	}
}

// Levels runs fn(t, l) for every level l in ls, each as the subtest of t
// named by the level (TestX/generic, TestX/avx2) and each in a child process
// of its own (see RunEnv) started with SIMDBLOOM_CPU=l and with cpu.Active
// set to l. A fatal fault in one level's kernels fails that level's subtest;
// the other levels still run. Levels of ls that cannot run here (not in
// cpu.Usable: the processor lacks them, or SIMDBLOOM_CPU is lower) are
// skipped, so pass cpu.Usable() or a part of it; forcing SIMDBLOOM_CPU=generic
// then runs only the generic subtest.
//
// Call Levels once per (sub)test, with the level loop outermost: every
// subtest under a level runs in that level's child, while code of the test
// outside Levels runs again in every child.
func Levels(t *testing.T, ls []cpu.Level, fn func(t *testing.T, l cpu.Level)) {
	t.Helper()
	for _, l := range ls {
		t.Run(l.String(), func(t *testing.T) {
			if !slices.Contains(cpu.Usable(), l) {
				t.Skipf("level %v cannot run here (usable: %v)", l, cpu.Usable())
			}
			RunEnv(t, []string{cpuEnv + "=" + l.String()}, func(t *testing.T) { atLevel(t, l, fn) })
		})
	}
}

// atLevel runs fn(t, l) with cpu.Active set to l, and restores it.
func atLevel(t *testing.T, l cpu.Level, fn func(t *testing.T, l cpu.Level)) {
	saved := cpu.Active
	defer func() { cpu.Active = saved }()
	cpu.Active = l
	fn(t, l)
}

// FuzzLevels runs the inputs of one fuzz target at every usable level in
// child processes: one child per level, which runs every seed input at that
// level. Make it with NewFuzzLevels before f.Fuzz and call its Run from the
// fuzz function.
type FuzzLevels struct {
	name string // the fuzz target's name
	mu   sync.Mutex
	runs map[cpu.Level]*fuzzRun
}

// fuzzRun is the output of the child that ran a fuzz target's inputs at one level.
type fuzzRun struct {
	once sync.Once
	out  string
	err  error
}

// NewFuzzLevels returns the FuzzLevels of the fuzz target f.
func NewFuzzLevels(f *testing.F) *FuzzLevels {
	return &FuzzLevels{name: f.Name(), runs: map[cpu.Level]*fuzzRun{}}
}

// Run runs fn(t, l) for the fuzz input of t at every level l in
// cpu.Usable(), each as the subtest of t named by the level
// (FuzzX/seed#0/avx2) with cpu.Active set to l.
//
// Under go test the subtest of level l runs in the child process for l:
// the first input to need it starts the child, which runs the whole fuzz
// target (every seed input) at l with SIMDBLOOM_CPU=l; each level subtest
// in this process then passes, fails or skips as its namesake did in the
// child, and fails with the child's output from its start on if the child
// died before it. While fuzzing (go test -fuzz) every level runs in this
// process, as it does when no child can be started.
func (z *FuzzLevels) Run(t *testing.T, fn func(t *testing.T, l cpu.Level)) {
	t.Helper()
	if os.Getenv(envName) == z.name {
		// The child for one level: run that level only.
		l, ok := cpu.Parse(os.Getenv(levelEnv))
		if !ok {
			t.Fatalf("childtest: %s=%q is not a level", levelEnv, os.Getenv(levelEnv))
		}
		t.Run(l.String(), func(t *testing.T) {
			// The testing package reports the results of a fuzz target's
			// subtests when the target ends, which a child that dies never
			// reaches: report each one as it ends.
			defer func() {
				r := recover()
				res := "PASS"
				if r != nil || t.Failed() {
					res = "FAIL"
				} else if t.Skipped() {
					res = "SKIP"
				}
				fmt.Printf("\n%s %s %s\n", resultMark, res, t.Name())
				if r != nil {
					panic(r)
				}
			}()
			atLevel(t, l, fn)
		})
		return
	}
	for _, l := range cpu.Usable() {
		t.Run(l.String(), func(t *testing.T) {
			if fuzzing() || noExec.Load() {
				atLevel(t, l, fn)
				return
			}
			r := z.run(l)
			if errors.Is(r.err, syscall.ENOEXEC) {
				noExec.Store(true)
				t.Logf("childtest: cannot start a child process (%v); running in this process", r.err)
				atLevel(t, l, fn)
				return
			}
			switch result(r.out, t.Name()) {
			case "PASS":
			case "SKIP":
				t.Skipf("skipped in the child process for %v:\n%s", l, section(r.out, t.Name()))
			case "FAIL":
				t.Fatalf("failed in the child process for %v:\n%s", l, section(r.out, t.Name()))
			default:
				if s := section(r.out, t.Name()); s != "" {
					t.Fatalf("the child process for %v died in %s (%v):\n%s", l, t.Name(), r.err, s)
				}
				t.Fatalf("the child process for %v ended (%v) before it ran %s; it ran last:\n%s", l, r.err, t.Name(), lastSection(r.out))
			}
		})
	}
}

// run returns the output of the child that runs the fuzz target at level l,
// starting it the first time.
func (z *FuzzLevels) run(l cpu.Level) *fuzzRun {
	z.mu.Lock()
	r := z.runs[l]
	if r == nil {
		r = &fuzzRun{}
		z.runs[l] = r
	}
	z.mu.Unlock()
	r.once.Do(func() {
		r.out, r.err = runChild(runPattern(z.name),
			[]string{envName + "=" + z.name, levelEnv + "=" + l.String(), cpuEnv + "=" + l.String()})
	})
	return r
}

// fuzzing reports whether this process fuzzes (go test -fuzz: the
// coordinator, or a worker it started), where a child per input would be
// far too slow.
func fuzzing() bool {
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return true
	}
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// runPattern returns the -test.run pattern that matches exactly the test
// named name and, below it, every subtest.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// runChild runs the test binary with -test.run=pattern, verbose, once, with
// this process's -test.short and -test.timeout, and env added to this
// process's environment. It returns the combined output and the error of the
// run.
func runChild(pattern string, env []string) (string, error) {
	args := []string{"-test.run=" + pattern, "-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if f := flag.Lookup("test.timeout"); f != nil && f.Value.String() != "0s" {
		args = append(args, "-test.timeout="+f.Value.String())
	}
	// A coverage run (go test -cover) counts the child's code too: the
	// kernels of every level run only in children (../../asm's
	// TestEveryKernelHasEquivalenceTest reads those counts).
	if f := flag.Lookup("test.gocoverdir"); f != nil && f.Value.String() != "" {
		args = append(args, "-test.gocoverdir="+f.Value.String())
	}
	cmd := Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// result returns what a verbose test run's output reports for the test
// named name, in the testing package's words or with resultMark: "PASS",
// "FAIL", "SKIP", or "" if it reports none of these.
func result(out, name string) string {
	for _, r := range []string{"FAIL", "SKIP", "PASS"} {
		if strings.Contains(out, fmt.Sprintf("--- %s: %s (", r, name)) ||
			strings.Contains(out, fmt.Sprintf("\n%s %s %s\n", resultMark, r, name)) {
			return r
		}
	}
	return ""
}

// section returns the part of a verbose test run's output that belongs to
// the test named name: from its "=== RUN" line up to that of the next test
// other than its subtests, or to the end (where a child that died prints
// why); "" if it did not start.
func section(out, name string) string {
	start := strings.Index(out, "=== RUN   "+name+"\n")
	if start < 0 {
		return ""
	}
	s, rest := out[start:], len("=== RUN   "+name)
	for {
		i := strings.Index(s[rest:], "\n=== RUN   ")
		if i < 0 {
			return s
		}
		next := rest + i + 1
		if !strings.HasPrefix(s[next+len("=== RUN   "):], name+"/") {
			return s[:next] // the next test that is not one of name's subtests
		}
		rest = next + 1
	}
}

// lastSection returns the output from the last "=== RUN" line on, at most
// 40 lines of it: where a child that died was.
func lastSection(out string) string {
	s := out[max(0, strings.LastIndex(out, "=== RUN   ")):]
	if lines := strings.SplitAfter(s, "\n"); len(lines) > 40 {
		s = strings.Join(lines[:40], "") + "...\n"
	}
	return s
}
