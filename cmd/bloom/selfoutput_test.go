package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
)

// runChildFiles runs bloom args in a child process with the files stdin and
// stdout as its standard input and output, and returns its exit code and
// stderr.
func runChildFiles(t *testing.T, stdin, stdout *os.File, args ...string) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := childtest.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var errb strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), errb.String()
	case errors.Is(err, syscall.ENOEXEC):
		t.Skipf("the test binary cannot start itself here (an emulator without binfmt_misc): %v", err)
	case err != nil:
		t.Fatalf("%q: %v", args, err)
	}
	return 0, errb.String()
}

// build refuses to write its output over one of its inputs, as cp refuses
// to copy a file onto itself: the same name, a hard link, a symbolic link
// either way, a path through a linked directory, standard input redirected
// from the output file, and standard output ("-o -") appending to an input.
// Exit 2, one line naming both, the input untouched and no file left
// beside it. It wrote the filter over the keys, exit 0, without a word.
// An output that is only in the same directory, or a device such as
// /dev/null that is also read, is not refused.
func TestBuildRefusesToOverwriteItsInput(t *testing.T) {
	dir := t.TempDir()
	keysText := []byte("alpha\nbeta\ngamma\n")
	keys := writeFile(t, dir, "keys.txt", keysText)
	other := writeFile(t, dir, "other.txt", []byte("delta\n"))
	hard := filepath.Join(dir, "hard.txt")
	if err := os.Link(keys, hard); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(dir, "sym.txt")
	if err := os.Symlink("keys.txt", sym); err != nil {
		t.Fatal(err)
	}
	linkedDir := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(dir, linkedDir); err != nil {
		t.Fatal(err)
	}
	entries := func() []string {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}
	before := entries()
	untouched := func(what string) {
		t.Helper()
		if b, err := os.ReadFile(keys); err != nil || !bytes.Equal(b, keysText) {
			t.Errorf("%s: keys.txt now holds %.60q (%v); want it untouched", what, b, err)
			os.WriteFile(keys, keysText, 0o644) // the same inode: the links stay
		}
		if after := entries(); strings.Join(after, " ") != strings.Join(before, " ") {
			t.Errorf("%s: the directory holds %q, it held %q", what, after, before)
		}
	}
	for _, c := range []struct {
		out    string
		inputs []string
	}{
		{keys, []string{keys}},
		{keys, []string{other, keys}},
		{keys, []string{"-n", "10", keys}},
		{hard, []string{keys}},
		{keys, []string{hard}},
		{sym, []string{keys}},
		{keys, []string{sym}},
		{filepath.Join(linkedDir, "keys.txt"), []string{keys}},
		{"keys.txt", []string{filepath.Join(dir, ".", "keys.txt")}},
	} {
		args := append([]string{"build", "-o", c.out}, c.inputs...)
		code, out, errs := runChildIn(t, dir, args...)
		what := strings.Join(args, " ")
		if code != 2 || out != "" || !strings.HasPrefix(errs, "bloom build: ") || !strings.Contains(errs, "same file") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and a line saying the output is an input", what, code, out, errs)
		}
		untouched(what)
	}

	// Standard input read from the output file.
	in, err := os.Open(keys)
	if err != nil {
		t.Fatal(err)
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for _, args := range [][]string{{"build", "-o", keys}, {"build", "-o", hard, other, "-"}} {
		in.Seek(0, 0)
		code, errs := runChildFiles(t, in, devnull, args...)
		if code != 2 || !strings.Contains(errs, "same file") {
			t.Errorf("%q < keys.txt: exit %d, stderr %q; want exit 2 and a line saying the output is an input", args, code, errs)
		}
		untouched(strings.Join(args, " ") + " < keys.txt")
	}
	in.Close()
	// Standard output appending to an input.
	app, err := os.OpenFile(keys, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	code, errs := runChildFiles(t, nil, app, "build", "-o", "-", keys)
	app.Close()
	if code != 2 || !strings.Contains(errs, "same file") {
		t.Errorf("build -o - keys.txt >> keys.txt: exit %d, stderr %q; want exit 2 and a line saying the output is an input", code, errs)
	}
	untouched("build -o - keys.txt >> keys.txt")

	// Not the same file: built as before.
	out := filepath.Join(dir, "keys.bloom")
	if code, _, errs := runChild(t, "build", "-o", out, keys, other); code != 0 || errs != "" {
		t.Errorf("build -o keys.bloom keys.txt other.txt: exit %d, %q", code, errs)
	}
	if code, out, errs := runChild(t, "query", "-c", out, keys); code != 0 || out != "3\n" {
		t.Errorf("query of the filter: exit %d, %q, %q", code, out, errs)
	}
	if code, _, errs := runChild(t, "build", "-o", os.DevNull, os.DevNull); code != 0 || !strings.Contains(errs, "no lines") {
		t.Errorf("build -o /dev/null /dev/null: exit %d, %q; want 0 and the warning of no lines", code, errs)
	}
}

// runChildIn is runChild with dir as the child's working directory.
func runChildIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	return runChild(t, args...)
}
