package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// asExtraEnv, in a child's environment, holds how many bytes of address
// space the child may map beyond what it maps when it starts: limitChild
// sets RLIMIT_AS so, before the tool runs.
const asExtraEnv = "BLOOM_CLI_TEST_AS_EXTRA"

// limitUnapplied is the exit code of a child whose address-space limit could
// not be set or is not in effect (QEMU's user mode accepts RLIMIT_AS without
// applying it, and reads back the host's).
const limitUnapplied = 77

// dataExtraEnv, in a child's environment, holds how many bytes of data
// (private writable memory: the Go heap, not a read-only mapped file) the
// child may use beyond what it uses when it starts: limitChild sets
// RLIMIT_DATA so.
const dataExtraEnv = "BLOOM_CLI_TEST_DATA_EXTRA"

// limitChild sets the address-space or data limit asExtraEnv or
// dataExtraEnv asks for, if any.
func limitChild() {
	if s := os.Getenv(asExtraEnv); s != "" {
		setLimit(syscall.RLIMIT_AS, "address-space", s, func() (uint64, error) {
			b, err := os.ReadFile("/proc/self/statm")
			if err != nil {
				return 0, err
			}
			pages, err := strconv.ParseUint(strings.Fields(string(b))[0], 10, 64)
			return pages * uint64(os.Getpagesize()), err
		})
	}
	if s := os.Getenv(dataExtraEnv); s != "" {
		setLimit(syscall.RLIMIT_DATA, "data", s, func() (uint64, error) {
			b, err := os.ReadFile("/proc/self/status")
			if err != nil {
				return 0, err
			}
			for _, l := range strings.Split(string(b), "\n") {
				if f := strings.Fields(l); len(f) == 3 && f[0] == "VmData:" && f[2] == "kB" {
					kb, err := strconv.ParseUint(f[1], 10, 64)
					return kb << 10, err
				}
			}
			return 0, fmt.Errorf("no VmData in /proc/self/status")
		})
	}
}

// setLimit sets the rlimit res to what used reports plus the extra bytes
// the decimal s says, and exits with limitUnapplied if it cannot.
func setLimit(res int, what, s string, used func() (uint64, error)) {
	fail := func(why any) {
		fmt.Fprintf(os.Stderr, "bloom test child: no %s limit: %v\n", what, why)
		os.Exit(limitUnapplied)
	}
	extra, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		fail(err)
	}
	inUse, err := used()
	if err != nil {
		fail(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(res, &lim); err != nil {
		fail(err)
	}
	lim.Cur = inUse + extra
	if lim.Cur > lim.Max {
		fail("the hard limit is lower")
	}
	if err := syscall.Setrlimit(res, &lim); err != nil {
		fail(err)
	}
	var got syscall.Rlimit
	if err := syscall.Getrlimit(res, &got); err != nil || got.Cur != lim.Cur {
		fail(fmt.Sprintf("set to %d, reads back as %d (%v)", lim.Cur, got.Cur, err))
	}
}

// runLimited is runChildEnv with the child's address space limited to
// extra bytes beyond what it maps at start; it skips t where that limit
// cannot be had.
func runLimited(t *testing.T, extra uint64, env []string, args ...string) (int, string, string) {
	t.Helper()
	return runLimitedStdin(t, asExtraEnv, extra, env, "", args...)
}

// runLimitedStdin is runChildEnv with the child's address space (limitEnv
// asExtraEnv) or data (dataExtraEnv) limited to extra bytes beyond what it
// uses at start; it skips t where that limit cannot be had.
func runLimitedStdin(t *testing.T, limitEnv string, extra uint64, env []string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector's shadow memory does not fit under a memory limit")
	}
	code, out, errs := runChildEnv(t, append(env, fmt.Sprintf("%s=%d", limitEnv, extra)), stdin, args...)
	if code == limitUnapplied {
		t.Skipf("%s", strings.TrimSpace(errs))
	}
	return code, out, errs
}

// A line too long for the memory bloom may use, in an input that is read
// rather than mapped (a file too large to map under the limit, a device), is
// one line on stderr and exit 2, at every level, under an address-space
// limit: build and query held the whole line and doubled their buffer
// until the runtime died of "fatal error: out of memory". build leaves no
// file; query reports the input and goes on.
func TestLongLineUnderMemoryLimit(t *testing.T) {
	const extra = 128 << 20
	dir := t.TempDir()
	f := buildFile(t, dir, "f.bloom", "a\nb\n")
	// Zeros without a newline, larger than the address space left, so
	// that mapping it fails and it is read.
	zeros := filepath.Join(dir, "zeros")
	if err := os.WriteFile(zeros, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(zeros, extra+64<<20); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.bloom")
	for _, l := range cpu.Usable() {
		for _, c := range []struct {
			input string
			args  []string
		}{
			{zeros, []string{"build", "-o", out, zeros}},
			{zeros, []string{"build", "-n", "100", "-o", out, zeros}},
			{"/dev/zero", []string{"build", "-o", out, "/dev/zero"}},
			{zeros, []string{"query", "-c", f, zeros}},
			{"/dev/zero", []string{"query", f, "/dev/zero"}},
		} {
			code, stdout, errs := runLimited(t, extra, []string{"SIMDBLOOM_CPU=" + l.String()}, c.args...)
			want := "bloom " + c.args[0] + ": reading " + c.input + ": a line longer than "
			if code != 2 || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "more than the address-space limit") {
				t.Errorf("%v, %q: exit %d, stderr %.300q; want exit 2 and one line %q... naming the address-space limit", l, c.args, code, errs, want)
			}
			if c.args[0] == "query" && stdout != "0\n" && stdout != "" {
				t.Errorf("%v, %q: stdout %q", l, c.args, stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%v, %q: left %s", l, c.args, out)
				os.Remove(out)
			}
		}
	}
}
