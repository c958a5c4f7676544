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

// limitChild sets the address-space limit asExtraEnv asks for, if any.
func limitChild() {
	s := os.Getenv(asExtraEnv)
	if s == "" {
		return
	}
	fail := func(why any) {
		fmt.Fprintf(os.Stderr, "bloom test child: no address-space limit: %v\n", why)
		os.Exit(limitUnapplied)
	}
	extra, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		fail(err)
	}
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		fail(err)
	}
	pages, err := strconv.ParseUint(strings.Fields(string(b))[0], 10, 64)
	if err != nil {
		fail(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		fail(err)
	}
	lim.Cur = pages*uint64(os.Getpagesize()) + extra
	if lim.Cur > lim.Max {
		fail("the hard limit is lower")
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		fail(err)
	}
	var got syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &got); err != nil || got.Cur != lim.Cur {
		fail(fmt.Sprintf("set to %d, reads back as %d (%v)", lim.Cur, got.Cur, err))
	}
}

// runLimited is runChildEnv with the child's address space limited to
// extra bytes beyond what it maps at start; it skips t where that limit
// cannot be had.
func runLimited(t *testing.T, extra uint64, env []string, args ...string) (int, string, string) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector's shadow memory does not fit under an address-space limit")
	}
	code, out, errs := runChildEnv(t, append(env, fmt.Sprintf("%s=%d", asExtraEnv, extra)), "", args...)
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
