package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes b to dir/name and returns its path.
func writeFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// buildFile builds a filter of the lines of keys into dir/name.
func buildFile(t *testing.T, dir, name, keys string) string {
	t.Helper()
	in := writeFile(t, dir, name+".txt", []byte(keys))
	f := filepath.Join(dir, name)
	if code, _, errs := runChild(t, "build", "-o", f, in); code != 0 {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	return f
}

// query -c with a missing input between two readable ones: the missing one
// is reported on one line, the others are read and counted, exit 2 (grep's
// behaviour). Without -c, the lines of the readable inputs are printed.
func TestQueryGoesOnAfterMissingInput(t *testing.T) {
	dir := t.TempDir()
	f := buildFile(t, dir, "f.bloom", "a\nb\n")
	keys := writeFile(t, dir, "keys.txt", []byte("a\nb\n"))
	missing := filepath.Join(dir, "missing.txt")
	code, out, errs := runChild(t, "query", "-c", f, keys, missing, keys)
	if code != 2 || out != "4\n" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "missing.txt: no such file") {
		t.Errorf("query -c f keys missing keys: exit %d, stdout %q, stderr %q; want 2, \"4\\n\" and one line naming missing.txt", code, out, errs)
	}
	code, out, errs = runChild(t, "query", f, missing, dir, keys)
	if code != 2 || out != "a\nb\n" || strings.Count(errs, "\n") != 2 || !strings.HasPrefix(errs, "bloom query: ") {
		t.Errorf("query f missing dir keys: exit %d, stdout %q, stderr %q; want 2, the two lines, and two messages", code, out, errs)
	}
}

// runChildTo runs bloom args in a child process whose standard output is
// out, and returns its exit code and stderr.
func runChildTo(t *testing.T, out *os.File, args ...string) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var errb strings.Builder
	cmd.Stdout, cmd.Stderr = out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), errb.String()
	}
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return 0, errb.String()
}

// A failed write to standard output (/dev/full) is exit 2 and one line in
// every command that writes there, never exit 0.
func TestStdoutWriteFailure(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	f := buildFile(t, dir, "f.bloom", "a\nb\n")
	keys := writeFile(t, dir, "keys.txt", []byte("a\nb\n"))
	for _, args := range [][]string{
		{"version"}, {"version", "--json"}, {"size", "-n", "1000", "-p", "0.01"}, {"size", "-n", "1000", "--json"},
		{"info", f}, {"info", "--json", f}, {"query", f, keys}, {"query", "-c", f, keys}, {"query", "-c", "--json", f, keys},
		{"build", "-o", "-", keys}, {"build", "-o", filepath.Join(dir, "g.bloom"), "--json", keys}, {"help"}, {"size", "-h"},
	} {
		code, errs := runChildTo(t, full, args...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "writing standard output: no space left on device") {
			t.Errorf("%q >/dev/full: exit %d, stderr %q; want exit 2 and one line", args, code, errs)
		}
	}
}
