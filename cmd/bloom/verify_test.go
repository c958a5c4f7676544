package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// query checks the payload checksum of the filter file it opens, at every
// level: a file with one payload byte zeroed is exit 2 and one line naming
// the checksum, for a Filter and a Scalable, whether the input is mapped
// or piped (it answered from the damaged bits, exit 0, and present keys
// came out absent). --no-verify skips the check, and the damage then shows.
func TestQueryChecksFilterChecksum(t *testing.T) {
	const n = 20_000
	presentFile, _, present, _ := keyFiles(t, n)
	dir := t.TempDir()
	filter := filepath.Join(dir, "filter.bloom")
	if code, _, errs := runChild(t, "build", "-o", filter, presentFile); code != 0 {
		t.Fatal(errs)
	}
	scalable := filepath.Join(dir, "scalable.bloom")
	all := strings.Join(present, "\n") + "\n"
	if code, _, errs := runChildStdin(t, all, "build", "-o", scalable); code != 0 {
		t.Fatal(errs)
	}
	for _, good := range []string{filter, scalable} {
		b, err := os.ReadFile(good)
		if err != nil {
			t.Fatal(err)
		}
		i := len(b) - 1 // the last byte set: in the last blocks of the payload
		for b[i] == 0 {
			i--
		}
		b[i] = 0
		damaged := good + ".damaged"
		if err := os.WriteFile(damaged, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, l := range cpu.Usable() {
			env := []string{"SIMDBLOOM_CPU=" + l.String()}
			for _, args := range [][]string{{"query", "-c", damaged, presentFile}, {"query", damaged, "-"}} {
				code, out, errs := runChildEnv(t, env, all, args...)
				if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "bloom query: "+damaged+": ") || !strings.Contains(errs, "checksum") {
					t.Errorf("%v, %q: exit %d, stdout %d bytes, stderr %q; want exit 2, nothing printed, and one line naming the checksum", l, args, code, len(out), errs)
				}
			}
			code, out, errs := runChildEnv(t, env, "", "query", "-c", good, presentFile)
			if code != 0 || out != strconv.Itoa(n)+"\n" {
				t.Errorf("%v, query -c of the undamaged file: exit %d, %q, %q; want every key", l, code, out, errs)
			}
			code, out, errs = runChildEnv(t, env, "", "query", "-c", "--no-verify", damaged, presentFile)
			if got, err := strconv.Atoi(strings.TrimSpace(out)); code != 0 || err != nil || got >= n {
				t.Errorf("%v, query -c --no-verify of the damaged file: exit %d, %q, %q; want it read, fewer than %d keys found", l, code, out, errs, n)
			}
		}
	}
}

// query refuses a Scalable file cut short or followed by other bytes,
// even with --no-verify (the library's ScalableView checks the stages),
// with exit 2 and one line saying what is wrong; the whole file answers.
func TestQueryRefusesCutScalable(t *testing.T) {
	const n = 5000
	presentFile, _, present, _ := keyFiles(t, n)
	scalable := filepath.Join(t.TempDir(), "scalable.bloom")
	if code, _, errs := runChildStdin(t, strings.Join(present, "\n")+"\n", "build", "-o", scalable); code != 0 {
		t.Fatal(errs)
	}
	b, err := os.ReadFile(scalable)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, want string
		b          []byte
	}{
		{"cut", "truncated", b[:len(b)-64]},
		{"extended", "after the", append(b[:len(b):len(b)], make([]byte, 64)...)},
		{"whole", "", b},
	} {
		f := scalable + "." + c.name
		if err := os.WriteFile(f, c.b, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runChild(t, "query", "-c", "--no-verify", f, presentFile)
		switch {
		case c.want == "" && (code != 0 || out != strconv.Itoa(n)+"\n"):
			t.Errorf("%s: exit %d, %q, %q; want every key", c.name, code, out, errs)
		case c.want != "" && (code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want)):
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.name, code, out, errs, c.want)
		}
	}
}
