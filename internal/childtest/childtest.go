// Package childtest runs part of a test in a child process, so that a fault
// that recover cannot catch (a fatal signal in assembly, a runtime throw)
// fails the test instead of killing the whole test binary.
package childtest

import (
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// envName holds, in the child, the full name of the test it was started for.
const envName = "SIMDBLOOM_CHILDTEST"

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
// matching exactly t's name, behind the prefix in $SIMDBLOOM_CHILD_EXEC. In
// the parent it waits for the child and fails t with the child's output if the
// child failed, died, or did not run the test. In the child it calls fn(t), so
// fn reports failures with t as usual.
//
// Call Run from a test or subtest whose name contains no '/' of its own, and
// at most once per (sub)test.
func Run(t *testing.T, fn func(t *testing.T)) {
	t.Helper()
	if os.Getenv(envName) == t.Name() {
		fn(t)
		return
	}
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	cmd := Command(os.Args[0], "-test.run="+strings.Join(parts, "/"), "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), envName+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if errors.Is(err, syscall.ENOEXEC) {
		// The test binary cannot start itself: it runs under an emulator
		// (go test -exec qemu-aarch64-static) without binfmt_misc, and
		// SIMDBLOOM_CHILD_EXEC does not name the emulator. Run fn
		// here; a fatal fault then ends the whole run rather than one test.
		t.Logf("childtest: cannot start a child process (%v); running in this process", err)
		fn(t)
		return
	}
	if err != nil {
		t.Fatalf("child process for %s failed: %v\n%s", t.Name(), err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("child process did not run %s:\n%s", t.Name(), out)
	}
}
