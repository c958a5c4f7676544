package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/sizing"
)

// childEnv makes the test binary run the command line it is given as bloom
// itself, so that exit codes, panics and fatal faults are those of the tool.
const childEnv = "BLOOM_CLI_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		limitChild()
		main()
		os.Exit(0) // main always exits; unreachable unless it returns
	}
	os.Exit(m.Run())
}

// runChild runs bloom args in a child process and returns its exit code,
// stdout and stderr.
func runChild(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runChildStdin(t, "", args...)
}

// runChildStdin is runChild with stdin as the child's standard input. The
// child starts behind the prefix in $SIMDBLOOM_CHILD_EXEC (childtest.ExecEnv),
// so that under an emulator it is emulated too.
func runChildStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runChildEnv(t, nil, stdin, args...)
}

// runChildEnv is runChildStdin with env added to the child's environment.
func runChildEnv(t *testing.T, env []string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := childtest.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("the test binary cannot start itself here (an emulator without binfmt_misc): %v", err)
	} else if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	for _, bad := range []string{"panic", "goroutine "} {
		if strings.Contains(out.String()+errb.String(), bad) {
			t.Errorf("%q: output mentions %q:\n%s%s", args, bad, out.String(), errb.String())
		}
	}
	return code, out.String(), errb.String()
}

// libPrefixes must not reach the user as the tool's words.
var libPrefixes = []string{"blocked:", "cuckoo:", "parquet:", "bloom: false", "bloom: bad", "bloom: unknown filter"}

// Every bad command line: exit 2, one message on stderr naming the flag in
// the tool's words, nothing on stdout, no panic.
func TestUsageErrorsExit2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"size", "-n", "10", "-p", "2"}, "bloom size: -p must be in (0, 1), got 2"},
		{[]string{"size", "-n", "10", "-p", "0"}, "-p must be in (0, 1), got 0"},
		{[]string{"size", "-n", "10", "-p", "1"}, "-p must be in (0, 1), got 1"},
		{[]string{"size", "-n", "10", "-p", "-0.5"}, "-p must be in (0, 1)"},
		{[]string{"size", "-n", "10", "-p", "NaN"}, "-p must be in (0, 1), got NaN"},
		{[]string{"size", "-n", "10", "-p", "Inf"}, "-p must be in (0, 1), got Inf"},
		{[]string{"size", "-n", "10", "-p", "-Inf"}, "-p must be in (0, 1)"},
		{[]string{"size", "-n", "10", "-p", "1e400"}, "-p must be in (0, 1)"},
		{[]string{"size", "-n", "10", "-p", "1e-400"}, "-p must be in (0, 1)"},
		{[]string{"size", "-n", "10", "-p", "lots"}, `-p: "lots" is not a number`},
		// strconv.ParseFloat reads Go's hexadecimal floats and digit
		// separators: 0x1p-3 was taken as 0.125, 1_000 as 1000.
		{[]string{"size", "-n", "10", "-p", "0x1p-3"}, `-p: "0x1p-3" is not a decimal number`},
		{[]string{"build", "-o", "-", "-p", "0X1P-3"}, `-p: "0X1P-3" is not a decimal number`},
		{[]string{"size", "-n", "10", "-p", "0.0_1"}, `-p: "0.0_1" is not a decimal number`},
		{[]string{"size", "-n", "0x1p10"}, `-n: "0x1p10" is not a decimal number`},
		{[]string{"build", "-o", "-", "-n", "1_000"}, `-n: "1_000" is not a decimal number`},
		{[]string{"size", "-p", "0.01"}, "-n is required"},
		{[]string{"size", "-n", "0"}, "-n must be positive"},
		{[]string{"size", "-n", "-5"}, "-n must be a whole number"},
		{[]string{"size", "-n", "1.5"}, "-n must be a whole number"},
		{[]string{"size", "-n", "NaN"}, "is not a number"},
		{[]string{"size", "-n", "1e20"}, "-n must be a whole number from 1 to 2^64-1"},
		{[]string{"size", "-n", "10", "extra"}, `unexpected argument "extra"`},
		{[]string{"size", "-q"}, "flag provided but not defined: -q"},
		{[]string{"experiment", "-m", "1", "-n", "1000", "-scale-n", "1000", "-scale-probes", "10"}, "-scale-n"},
		{[]string{"experiment", "-m", "7", "-n", "1", "-scale-n", "1", "-scale-probes", "10", "-probes", "10"}, "at least 8"},
		{[]string{"experiment", "-m", "1", "-n", "1", "-scale-n", "1", "-scale-probes", "10", "-probes", "10"}, "at least 8"},
		{[]string{"experiment", "-m", "68719476736", "-n", "1", "-scale-n", "2", "-probes", "1"}, "more than 2^36"},
		{[]string{"experiment", "-n", "4294967297"}, "at most 2^32"},
		{[]string{"experiment", "-scale-n", "4294967297"}, "at most 2^32"},
		{[]string{"experiment", "-k", "0"}, "-k"},
		{[]string{"experiment", "-m", "x"}, "-m"},
		{[]string{"experiment", "-scale-probes", "0"}, "-scale-probes"},
		{[]string{"bench", "-max-size", "16K", "-seconds", "NaN"}, "-seconds must be in (0, 3600], got NaN"},
		{[]string{"bench", "-max-size", "16K", "-seconds", "Inf"}, "-seconds must be in (0, 3600]"},
		{[]string{"bench", "-max-size", "16K", "-seconds", "-1"}, "-seconds must be in (0, 3600]"},
		{[]string{"bench", "-max-size", "16K", "-seconds", "0"}, "-seconds must be in (0, 3600]"},
		{[]string{"bench", "-max-size", "16K", "-seconds", "3601"}, "-seconds must be in (0, 3600]"},
		{[]string{"bench", "-max-size", "16.9.K"}, `size "16.9.K"`},
		{[]string{"bench", "-max-size", "16K5"}, `size "16K5"`},
		{[]string{"bench", "-max-size", "-16K"}, `size "-16K"`},
		{[]string{"bench", "-max-size", "1e3K"}, `size "1e3K"`},
		{[]string{"bench", "-max-size", "0x10K"}, `size "0x10K"`},
		{[]string{"bench", "-max-size", "NaNK"}, `size "NaNK"`},
		{[]string{"bench", "-max-size", ""}, `size ""`},
		{[]string{"bench", "-max-size", "0K"}, `size "0K"`},
		{[]string{"bench", "-max-size", "2000G"}, "1024G"},
		{[]string{"bench", "-max-size", "15.9K"}, "below 16K"},
		{[]string{"version", "extra"}, `unexpected argument "extra"`},
		{[]string{"nosuchcommand"}, `unknown command "nosuchcommand"`},
		{[]string{"help", "nosuchcommand"}, `unknown command "nosuchcommand"`},
		{nil, "Usage:"},
	} {
		code, out, errs := runChild(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
		if out != "" {
			t.Errorf("%q: stdout %q; want nothing", c.args, out)
		}
		for _, p := range libPrefixes {
			if strings.Contains(errs, p) {
				t.Errorf("%q: stderr %q has the library's prefix %q", c.args, errs, p)
			}
		}
	}
}

// -h prints the usage on stdout and exits 0, at the top level and for every command.
func TestHelpOnStdout(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-h"}, "Usage:"},
		{[]string{"--help"}, "Usage:"},
		{[]string{"help"}, "Usage:"},
		{[]string{"help", "bench"}, "-max-size"},
		{[]string{"size", "-h"}, "-p"},
		{[]string{"size", "--help"}, "-n"},
		{[]string{"experiment", "-h"}, "-scale-n"},
		{[]string{"bench", "-h"}, "-seconds"},
		{[]string{"version", "-h"}, "-json"},
	} {
		code, out, errs := runChild(t, c.args...)
		if code != 0 || !strings.Contains(out, c.want) || errs != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 0 and %q on stdout only", c.args, code, out, errs, c.want)
		}
	}
	// Every command the top-level usage lists has its own -h.
	for name := range commands {
		if code, out, _ := runChild(t, name, "-h"); code != 0 || !strings.Contains(out, "Flags:") {
			t.Errorf("%s -h: exit %d, %q", name, code, out)
		}
	}
}

// A p below the smallest normal float64 (log2(1/p) once overflowed near
// 5.6e-309 and printed "classic 0 bits, k 0") must never print a 0-bit size:
// the classic row has its real size, and the blocked rows, too large to
// address, carry a reason under the table.
func TestSizeTinyRateNeverZeroBits(t *testing.T) {
	code, out, errs := runChild(t, "size", "-n", "1", "-p", "1e-310")
	if code != 0 || errs != "" {
		t.Errorf("exit %d, stderr %q; want exit 0 (classic can be sized)", code, errs)
	}
	classic := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && f[0] == "classic" {
			classic = true
			if f[1] == "0" || f[1] == "-" || f[4] == "0" {
				t.Errorf("classic row %q: want a real size", line)
			}
		}
	}
	if !classic || !strings.Contains(out, "blocked: ") {
		t.Errorf("want a classic row and a reason for blocked in\n%s", out)
	}
	code, out, _ = runChild(t, "size", "-n", "1", "-p", "1e-310", "--json")
	var r struct {
		Variants []sizeRow `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || len(r.Variants) == 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	for _, v := range r.Variants {
		if v.Error == "" && (v.Bits == 0 || (v.K == 0 && v.FingerprintBits == 0)) {
			t.Errorf("%+v: a zero size reported as valid", v)
		}
		if v.Error != "" && (v.Bits != 0 || v.Bytes != 0 || v.K != 0) {
			t.Errorf("%+v: an error row with a size", v)
		}
		if strings.HasPrefix(v.Error, "blocked:") || strings.HasPrefix(v.Error, "bloom:") {
			t.Errorf("%+v: library prefix", v)
		}
	}
}

// The size table stays a table for extreme inputs: every line of it is the
// same width and fits 80 columns (a long error in a cell, or a 9-digit
// bits/key with two decimals, would widen it), and the reasons follow it.
func TestSizeTableReadable(t *testing.T) {
	for _, args := range [][]string{
		{"size", "-n", "10", "-p", "1e-30"},
		{"size", "-n", "1e12", "-p", "1e-30"},
		{"size", "-n", "1e12", "-p", "0.01"},
		{"size", "-n", "1e9", "-p", "0.01"},
	} {
		code, out, errs := runChild(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		blocks := strings.SplitN(out, "\n\n", 3) // title, table, reasons
		if len(blocks) < 2 {
			t.Fatalf("%q: %q", args, out)
		}
		table := strings.Split(strings.TrimRight(blocks[1], "\n"), "\n")
		if len(table) != 1+len(sizing.Variants())+2 || !strings.Contains(table[0], "bits/key") { // header, variants, counting, cuckoo
			t.Fatalf("%q: table %q", args, table)
		}
		for _, line := range table {
			if len(line) != len(table[0]) || len(line) > 80 {
				t.Errorf("%q: line %q is %d wide, header %d; want all equal and at most 80", args, line, len(line), len(table[0]))
			}
		}
		for _, line := range table[1:] {
			// bits/key in at most 9 characters: 143.80 or 3.982e+08, not 398235750.40.
			if f := strings.Fields(line); len(f[len(f)-2]) > 9 {
				t.Errorf("%q: bits/key %q in %q", args, f[len(f)-2], line)
			}
			if strings.Fields(line)[1] == "-" && !strings.Contains(out, strings.Fields(line)[0]+": ") {
				t.Errorf("%q: %s has no size and no reason", args, strings.Fields(line)[0])
			}
		}
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]uint64{
		"16K": 16 << 10, "16k": 16 << 10, "16KB": 16 << 10, "16KiB": 16 << 10, "16kb": 16 << 10,
		"16.9K": 17305, // 17305.6 rounded down, not 16K
		"1.5M":  3 << 19, "0.5K": 512, "4096": 4096, "4096B": 4096, "1G": 1 << 30, "1024G": 1 << 40,
		"1.0000000000000000000000000001G": 1 << 30,
	} {
		if got, err := parseSize(s); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "K", ".5K", "16.K", "16 K", " 16K", "16K ", "16.9.K", "16KK", "16T", "16Ki", "1e3K",
		"0x10K", "-16K", "+16K", "NaNK", "InfK", "0", "0.0001", "1024.1G", "99999999999999999999K"} {
		if got, err := parseSize(s); err == nil {
			t.Errorf("parseSize(%q) = %d; want an error", s, got)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, errs := runChild(t, "version", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v versionInfo
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Module != "github.com/simdbloom/bloom" || v.Version == "" || v.Go != runtime.Version() ||
		v.Kernel != cpu.Active.String() || v.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("version %+v; want the module, a version, %s, kernel %s", v, runtime.Version(), cpu.Active)
	}
	// The child runs on the same (possibly emulated) processor as this test.
	if v.Detected != cpu.Detected.String() {
		t.Errorf("the bloom child detected %s, this test %s: set %s to the emulator this test runs under",
			v.Detected, cpu.Detected, childtest.ExecEnv)
	}
	code, out, _ = runChild(t, "version")
	if code != 0 || !strings.Contains(out, v.Version) || !strings.Contains(out, runtime.Version()) ||
		!strings.Contains(out, "kernel in use: "+cpu.Active.String()) {
		t.Errorf("version: exit %d, %q", code, out)
	}
}
