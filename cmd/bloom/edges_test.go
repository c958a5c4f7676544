package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/memlimit"
	"github.com/simdbloom/bloom/internal/sizing"
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
	// In the tool's words, once: not "reading DIR: read DIR: is a directory".
	if want := "bloom query: reading " + dir + ": is a directory\n"; !strings.HasSuffix(errs, want) {
		t.Errorf("query of a directory: stderr %q; want it to end in %q", errs, want)
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
	cmd := childtest.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var errb strings.Builder
	cmd.Stdout, cmd.Stderr = out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), errb.String()
	}
	if errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("the test binary cannot start itself here (an emulator without binfmt_misc): %v", err)
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

// build --json whose report cannot be printed (>/dev/full) fails, exit 2
// and one line, and leaves no new file: none where there was none, the old
// one untouched where there was one, and no temporary file (it renamed the
// new file into place, then failed to print the report).
func TestBuildReportFailureLeavesNoFile(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	keys := writeFile(t, dir, "keys.txt", []byte("a\nb\n"))
	out := filepath.Join(dir, "new.bloom")
	old := writeFile(t, dir, "old.bloom", []byte("old contents"))
	for _, args := range [][]string{
		{"build", "--json", "-o", out, keys},
		{"build", "--json", "-o", old, keys},
		{"build", "--json", "-n", "10", "-o", out, keys},
	} {
		code, errs := runChildTo(t, full, args...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "writing standard output: no space left on device") {
			t.Errorf("%q >/dev/full: exit %d, stderr %q; want exit 2 and one line", args, code, errs)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q >/dev/full: left %s", args, out)
			os.Remove(out)
		}
		if b, err := os.ReadFile(old); err != nil || string(b) != "old contents" {
			t.Errorf("%q >/dev/full: %s is now %q (%v), want it unchanged", args, old, b, err)
			os.WriteFile(old, []byte("old contents"), 0o644)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 2 {
			t.Errorf("%q >/dev/full: %d files in the directory, want keys.txt and old.bloom only", args, len(ents))
		}
	}
}

// Output files as cp and sort -o make them: a new file is 0666 minus the
// umask, an existing file keeps its mode, a symbolic link (also a dangling
// or relative one) is written through and stays a link, a hard-linked file
// stays one file, and no temporary file is left behind.
func TestBuildOutputFileModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no umask, modes or symbolic links as on Unix")
	}
	dir := t.TempDir()
	keys := writeFile(t, dir, "keys.txt", []byte("a\nb\n"))
	build := func(out string) {
		t.Helper()
		if code, _, errs := runChild(t, "build", "-o", out, keys); code != 0 {
			t.Fatalf("build -o %s: exit %d: %s", out, code, errs)
		}
	}
	isFilter := func(p string) {
		t.Helper()
		if code, out, errs := runChild(t, "query", "-c", p, keys); code != 0 || out != "2\n" {
			t.Errorf("query -c %s: exit %d, %q, %q; want the filter of a and b", p, code, out, errs)
		}
	}
	mode := func(p string) os.FileMode {
		t.Helper()
		st, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode()
	}
	for _, umask := range []int{0o022, 0o027, 0o002} {
		old := setUmask(umask)
		p := filepath.Join(dir, "new.bloom")
		os.Remove(p)
		build(p)
		setUmask(old)
		if got, want := mode(p).Perm(), os.FileMode(0o666&^umask); got != want {
			t.Errorf("umask %03o: new file mode %v, want %v", umask, got, want)
		}
	}

	existing := writeFile(t, dir, "existing.bloom", nil)
	if err := os.Chmod(existing, 0o604); err != nil {
		t.Fatal(err)
	}
	build(existing)
	if got := mode(existing).Perm(); got != 0o604 {
		t.Errorf("existing 0604 file is %v after build", got)
	}
	isFilter(existing)

	// Links: absolute, relative from another directory, dangling.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	real := writeFile(t, dir, "real.bloom", nil)
	os.Chmod(real, 0o640)
	for _, c := range []struct{ link, to, target string }{
		{filepath.Join(dir, "abs.bloom"), real, real},
		{filepath.Join(sub, "rel.bloom"), "../real.bloom", real},
		{filepath.Join(sub, "dangling.bloom"), "../created.bloom", filepath.Join(dir, "created.bloom")},
		{filepath.Join(dir, "chain.bloom"), "sub/rel.bloom", real},
	} {
		if err := os.Symlink(c.to, c.link); err != nil {
			t.Fatal(err)
		}
		build(c.link)
		if mode(c.link)&os.ModeSymlink == 0 {
			t.Errorf("-o %s: the symbolic link was replaced by a file", c.link)
		}
		isFilter(c.target)
	}
	if got := mode(real).Perm(); got != 0o640 {
		t.Errorf("a link's 0640 target is %v after build", got)
	}

	// Hard links: both names still name the new filter.
	hard := filepath.Join(dir, "hard.bloom")
	other := writeFile(t, dir, "other.bloom", nil)
	if err := os.Link(other, hard); err != nil {
		t.Fatal(err)
	}
	build(hard)
	isFilter(other)

	// A directory, and (for a user other than root) a read-only file, are
	// refused as cp refuses them, and left as they were.
	if code, _, errs := runChild(t, "build", "-o", sub, keys); code != 2 || !strings.Contains(errs, "is a directory") {
		t.Errorf("build -o DIR: exit %d, %q; want 2 and \"is a directory\"", code, errs)
	}
	if os.Geteuid() != 0 {
		ro := writeFile(t, dir, "ro.bloom", []byte("keep"))
		os.Chmod(ro, 0o444)
		if code, _, errs := runChild(t, "build", "-o", ro, keys); code != 2 || !strings.Contains(errs, "permission denied") {
			t.Errorf("build -o READ-ONLY: exit %d, %q; want 2 and \"permission denied\"", code, errs)
		}
		if b, _ := os.ReadFile(ro); string(b) != "keep" {
			t.Errorf("a read-only file was replaced")
		}
	}

	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// -o /dev/stdout writes the filter to standard output (the device, not a
// file renamed over the link in /dev).
func TestBuildToDevStdout(t *testing.T) {
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skip("no /dev/stdout here")
	}
	dir := t.TempDir()
	keys := writeFile(t, dir, "keys.txt", []byte("a\nb\n"))
	code, out, errs := runChild(t, "build", "-o", "/dev/stdout", keys)
	if code != 0 || len(out) < 64 || errs != "" {
		t.Fatalf("build -o /dev/stdout: exit %d, %d bytes, %q", code, len(out), errs)
	}
	if st, err := os.Lstat("/dev/stdout"); err != nil || st.Mode().IsRegular() {
		t.Errorf("/dev/stdout is now a regular file")
	}
}

// build without -n reads an input that can be read only once (a pipe given
// by name, a FIFO) once: its keys are in the filter, not consumed by a
// count, and the FIFO is not opened twice (which waited for a second
// writer forever). A regular file is still counted for an exact size, and
// inputs without a line warn.
func TestBuildReadsPipesOnce(t *testing.T) {
	dir := t.TempDir()
	keys := writeFile(t, dir, "keys.txt", []byte("a\nb\n"))
	more := writeFile(t, dir, "more.txt", []byte("c\nd\ne\n"))
	f := filepath.Join(dir, "x.bloom")
	check := func(what, out string, wantKeys uint64, wantVariant string) {
		t.Helper()
		var br buildResult
		if err := json.Unmarshal([]byte(out), &br); err != nil || br.Keys != wantKeys || br.Variant != wantVariant {
			t.Errorf("%s: build --json %s; want %d keys in a %s", what, out, wantKeys, wantVariant)
		}
		if code, out, _ := runChild(t, "query", "-c", f, keys); code != 0 || out != "2\n" {
			t.Errorf("%s: query -c: exit %d, %q; want both keys found", what, code, out)
		}
	}
	if _, err := os.Stat("/dev/stdin"); err == nil {
		code, out, errs := runChildStdin(t, "a\nb\n", "build", "--json", "-o", f, "/dev/stdin")
		if code != 0 {
			t.Fatalf("build /dev/stdin: exit %d: %s", code, errs)
		}
		check("a pipe as /dev/stdin", out, 2, "scalable")
		code, out, errs = runChildStdin(t, "a\nb\n", "build", "--json", "-o", f, more, "/dev/stdin", more)
		if code != 0 {
			t.Fatalf("build more /dev/stdin more: exit %d: %s", code, errs)
		}
		check("files and a pipe", out, 8, "scalable")
	}
	code, out, errs := runChild(t, "build", "--json", "-o", f, keys, more)
	if code != 0 || errs != "" {
		t.Fatalf("build of files: exit %d: %s", code, errs)
	}
	check("regular files", out, 5, "filter")
	if !strings.Contains(out, `"planned_keys": 5`) {
		t.Errorf("regular files are not counted: %s", out)
	}

	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Logf("no FIFO here: %v", err)
	} else {
		done := make(chan error, 1)
		go func() {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the reader
			if err == nil {
				_, err = w.WriteString("a\nb\n")
				w.Close()
			}
			done <- err
		}()
		code, out, errs := runChild(t, "build", "--json", "-o", f, fifo)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if code != 0 {
			t.Fatalf("build FIFO: exit %d: %s", code, errs)
		}
		check("a FIFO", out, 2, "scalable")
	}

	empty := writeFile(t, dir, "empty.txt", nil)
	code, _, errs = runChild(t, "build", "-o", f, empty)
	if code != 0 || !strings.Contains(errs, "warning: the inputs have no lines") {
		t.Errorf("build of an empty file: exit %d, %q; want 0 and a warning", code, errs)
	}
}

// mappedFilterFile writes a filter of n keys k0, k1, ... (a few hundred
// kilobytes: many pages) and returns its path and keys.
func mappedFilterFile(t *testing.T, n int) (string, [][]byte) {
	t.Helper()
	f, err := bloom.New[[]byte](uint64(n), 0.001)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("k%d", i))
	}
	f.AddAll(keys)
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, t.TempDir(), "f.bloom", b), keys
}

// mappedLookup opens a filter of 100,000 keys (mappedFilterFile) for
// lookups, released at t's end, and returns its path, keys and lookup. It
// skips t where the lookups would not read a mapping of the file.
func mappedLookup(t *testing.T) (string, [][]byte, *lookup) {
	t.Helper()
	p, keys := mappedFilterFile(t, 100_000)
	l, err := openLookup(p, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.release)
	if !l.mapped {
		t.Skip("files are not memory-mapped on this platform")
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("a big-endian machine decodes the filter into memory: lookups do not read the mapping")
	}
	return p, keys, l
}

// A filter file truncated while it is mapped: the lookups that fault
// (SIGBUS) return the error that the file changed, not a crash.
func TestLookupOfTruncatedMappedFile(t *testing.T) {
	p, keys, l := mappedLookup(t)
	out := make([]bool, len(keys))
	if _, err := l.hasAllGuarded(keys, out); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	_, err := l.hasAllGuarded(keys, out)
	if err == nil || !strings.Contains(err.Error(), "truncated or changed while it was read") {
		t.Fatalf("lookups in a truncated mapped file: %v; want the error that the file changed", err)
	}
	var e exitError
	if !errors.As(err, &e) || e.code != 2 {
		t.Errorf("%v: want exit 2", err)
	}
}

// The same through the command: bloom query, its filter truncated between
// two batches of input, exits 2 with one line (it died of SIGBUS with a
// goroutine dump).
func TestQueryFilterTruncatedWhileRunning(t *testing.T) {
	p, keys := mappedFilterFile(t, 100_000)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := childtest.Command(exe, "query", p)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("the test binary cannot start itself here (an emulator without binfmt_misc): %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	// The first key's line, printed, says the filter is mapped and in use.
	io.WriteString(in, "k0\n")
	line, err := bufio.NewReader(outp).ReadString('\n')
	if err != nil || line != "k0\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys[:1000] {
		if _, err := in.Write(append(k, '\n')); err != nil {
			break // the child has stopped reading
		}
	}
	in.Close()
	io.Copy(io.Discard, outp)
	err = cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	errs := errb.String()
	if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "truncated or changed while it was read") ||
		strings.Contains(errs, "goroutine") {
		t.Errorf("query of a filter truncated while running: %v, stderr %q; want exit 2 and one line", err, errs)
	}
}

// A filter larger than the memory bloom may use is one line and exit 1,
// before any allocation (it was a runtime out-of-memory crash), saying what
// was asked and the limit, with "bloom" once: under GOMEMLIMIT (the same on
// any machine), beyond this machine's memory (-n 1e11 -p 0.5 is 40 GB), and
// beyond the format (ErrTooLarge, once a two-line usage message).
func TestBuildTooLargeForMemory(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "big.bloom")
	oneLine := func(what string, code int, errs string, want ...string) {
		t.Helper()
		if code != 1 || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "bloom build: ") || strings.Contains(errs, "bloom: ") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and one line, \"bloom build: \" once", what, code, errs)
		}
		for _, w := range want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q does not say %q", what, errs, w)
			}
		}
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s: left a file", what)
		}
	}
	need := func(n uint64, p float64) uint64 {
		t.Helper()
		s, err := sizing.Size(n, p, sizing.Blocked)
		if err != nil {
			t.Fatal(err)
		}
		return s.Bytes
	}
	code, _, errs := runChildEnv(t, []string{"GOMEMLIMIT=64MiB"}, "", "build", "-n", "1e8", "-o", f)
	b := need(1e8, 0.01)
	if want := fmt.Sprintf("bloom build: filter would be too large: 100000000 keys at fpr 0.01 need %s (%d bytes), "+
		"more than the Go memory limit GOMEMLIMIT (67.1 MB)\n", memlimit.Human(b), b); code != 1 || errs != want {
		t.Errorf("-n 1e8 under GOMEMLIMIT=64MiB: exit %d, stderr %q; want exit 1, %q", code, errs, want)
	}
	code, _, errs = runChildEnv(t, []string{"GOMEMLIMIT=1GiB"}, "", "build", "-n", "1e11", "-p", "0.5", "-o", f)
	oneLine("-n 1e11 -p 0.5 under GOMEMLIMIT=1GiB", code, errs, "100000000000 keys at fpr 0.5 need", "GOMEMLIMIT (1.07 GB)")
	// A scalable filter's first stage is checked too (and named so): 2^17
	// keys at 1e-17 * 0.15 are 29 MB.
	keys := writeFile(t, dir, "keys.txt", []byte("a\n"))
	code, _, errs = runChildEnv(t, []string{"GOMEMLIMIT=20MiB"}, "", "build", "-p", "1e-17", "-o", f, keys, "-")
	oneLine("a scalable filter under GOMEMLIMIT=20MiB", code, errs,
		"131072 keys at fpr 1.5e-18 (the first stage of a scalable filter for fpr 1e-17) need 29.1 MB", "GOMEMLIMIT (21 MB)")

	if b, l := need(1e11, 0.5), memlimit.Current(); b > l.Bytes {
		code, _, errs = runChild(t, "build", "-n", "1e11", "-p", "0.5", "-o", f)
		oneLine("-n 1e11 -p 0.5", code, errs, "100000000000 keys at fpr 0.5 need "+memlimit.Human(b), "more than "+l.Why)
	} else {
		t.Logf("this process may use %s (%s): -n 1e11 -p 0.5 not tried", memlimit.Human(l.Bytes), l.Why)
	}
	code, _, errs = runChild(t, "build", "-n", "1e19", "-o", f)
	oneLine("-n 1e19", code, errs, "too large")
}

// An input file named twice (or by another name: a symbolic link, a hard
// link, ./name) is counted once when build sizes the filter: its keys are
// the same keys, and counting them twice made a filter twice as large.
// The filter is the one built from the file named once, at every level.
func TestBuildCountsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "key%d\n", i)
	}
	keys := writeFile(t, dir, "keys.txt", []byte(b.String()))
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(keys, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.txt")
	if err := os.Link(keys, hard); err != nil {
		t.Fatal(err)
	}
	other := writeFile(t, dir, "other.txt", []byte("x\ny\n")) // another file: counted
	for _, l := range cpu.Usable() {
		env := []string{"SIMDBLOOM_CPU=" + l.String()}
		build := func(out string, inputs ...string) buildResult {
			t.Helper()
			code, stdout, errs := runChildEnv(t, env, "", append([]string{"build", "--json", "-o", out}, inputs...)...)
			var r buildResult
			if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil {
				t.Fatalf("%v, build %q: exit %d, %v, %s", l, inputs, code, err, errs)
			}
			return r
		}
		once := filepath.Join(dir, "once.bloom")
		want := build(once, keys, other)
		wantBytes, _ := os.ReadFile(once)
		for _, inputs := range [][]string{
			{keys, keys, other},
			{keys, other, link},
			{hard, keys, other, filepath.Join(dir, ".", "keys.txt")},
		} {
			out := filepath.Join(dir, "twice.bloom")
			got := build(out, inputs...)
			gotBytes, _ := os.ReadFile(out)
			if got.PlannedKeys != want.PlannedKeys || !bytes.Equal(gotBytes, wantBytes) {
				t.Errorf("%v, build %q: sized for %d keys, %d bytes; want %d keys, the filter built from keys.txt once (%d bytes)",
					l, inputs, got.PlannedKeys, len(gotBytes), want.PlannedKeys, len(wantBytes))
			}
		}
	}
}
