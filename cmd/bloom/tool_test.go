package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/simdbloom/bloom"
	sbparquet "github.com/simdbloom/bloom/parquet"
)

// keyFiles writes n present and n absent random 16-character keys, one a
// line, and returns the two files' paths and their keys.
func keyFiles(t *testing.T, n int) (presentFile, absentFile string, present, absent []string) {
	t.Helper()
	r := rand.New(rand.NewPCG(14, 1))
	dir := t.TempDir()
	var pb, ab strings.Builder
	for range n {
		k := fmt.Sprintf("p%015x", r.Uint64()>>4)
		present = append(present, k)
		pb.WriteString(k + "\n")
		k = fmt.Sprintf("a%015x", r.Uint64()>>4)
		absent = append(absent, k)
		ab.WriteString(k + "\n")
	}
	presentFile, absentFile = filepath.Join(dir, "present.txt"), filepath.Join(dir, "absent.txt")
	if err := os.WriteFile(presentFile, []byte(pb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(absentFile, []byte(ab.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return presentFile, absentFile, present, absent
}

// lines splits output into lines, without the last empty one.
func lines(out string) []string {
	if out == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// fpBound is the most false positives of n absent keys a filter built for
// 1% may give in these tests: 1.3%, nine standard deviations above 1% at
// n = 10^5 (a filter sized wrongly, say for 0.8x the keys, exceeds it).
func fpBound(n int) int { return int(0.013 * float64(n)) }

// Build 10^5 keys at 1% from a file, then query them and 10^5 absent keys:
// every present key is printed, in input order with the false positives,
// which stay under the bound; -c counts what is printed, -v prints exactly
// the rest; info estimates the count within 5%.
func TestBuildQueryFile(t *testing.T) {
	const n = 100_000
	pf, af, present, absent := keyFiles(t, n)
	f := filepath.Join(t.TempDir(), "keys.bloom")
	code, out, errs := runChild(t, "build", "-p", "0.01", "-o", f, "--json", pf)
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	var br buildResult
	if err := json.Unmarshal([]byte(out), &br); err != nil || br.Keys != n || br.PlannedKeys != n || br.Variant != "filter" {
		t.Fatalf("build --json: %v %+v", err, br)
	}
	checkQuery(t, f, pf, af, present, absent)
	checkInfo(t, f, "filter", n)

	// The file is the library's format: bloom.FilterView[string] reads it.
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	v := new(bloom.FilterView[string])
	err = v.Reset(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range present[:1000] {
		if !v.Has(k) {
			t.Fatalf("bloom.FilterView[string] of the built file lacks %q", k)
		}
	}
}

// Keys from standard input without -n make a scalable filter; query and
// info handle it as they do a filter.
func TestBuildQueryStdinScalable(t *testing.T) {
	const n = 100_000
	pf, af, present, absent := keyFiles(t, n)
	in, err := os.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "stdin.bloom")
	if code, _, errs := runChildStdin(t, string(in), "build", "-o", f); code != 0 || errs != "" {
		t.Fatalf("build from stdin: exit %d: %s", code, errs)
	}
	checkQuery(t, f, pf, af, present, absent)
	checkInfo(t, f, "scalable", n)
	// Present keys from stdin as "-", between files.
	code, out, _ := runChildStdin(t, string(in), "query", "-c", f, af, "-", af)
	if c, _ := strconv.Atoi(strings.TrimSpace(out)); code != 0 || c < n || c > n+2*fpBound(n) {
		t.Errorf("query -c with stdin between files: exit %d, %q", code, out)
	}
}

func checkQuery(t *testing.T, f, pf, af string, present, absent []string) {
	t.Helper()
	n := len(present)
	code, out, errs := runChild(t, "query", f, pf, af)
	if code != 0 || errs != "" {
		t.Fatalf("query: exit %d, stderr %q", code, errs)
	}
	got := lines(out)
	// got must be all of present, then a subsequence of absent.
	if len(got) < n {
		t.Fatalf("query printed %d lines, fewer than the %d present keys", len(got), n)
	}
	for i, k := range present {
		if got[i] != k {
			t.Fatalf("line %d: %q, want present key %q (every present key, in input order)", i, got[i], k)
		}
	}
	fps := got[n:]
	j := 0
	for _, k := range fps {
		for j < len(absent) && absent[j] != k {
			j++
		}
		if j == len(absent) {
			t.Fatalf("printed %q, not an input line in order", k)
		}
	}
	if len(fps) > fpBound(n) {
		t.Errorf("%d false positives of %d absent keys; want at most %d (1%% target)", len(fps), n, fpBound(n))
	}
	t.Logf("%d false positives of %d absent keys (%.3f%%)", len(fps), n, 100*float64(len(fps))/float64(n))

	// -c counts the printed lines; -v -c the others.
	code, out, _ = runChild(t, "query", "-c", f, pf, af)
	if code != 0 || out != strconv.Itoa(len(got))+"\n" {
		t.Errorf("query -c: exit %d, %q; want %d", code, out, len(got))
	}
	code, out, _ = runChild(t, "query", "-c", "--json", f, pf, af)
	var cj map[string]int
	if err := json.Unmarshal([]byte(out), &cj); err != nil || code != 0 || cj["count"] != len(got) || cj["lines"] != 2*n {
		t.Errorf("query -c --json: exit %d, %q", code, out)
	}
	// -v prints exactly the absent keys that were not printed, in order.
	code, out, _ = runChild(t, "query", "-v", f, pf, af)
	inv := lines(out)
	if code != 0 || len(inv)+len(fps) != n {
		t.Fatalf("query -v: exit %d, %d lines; want %d", code, len(inv), n-len(fps))
	}
	printed := map[string]bool{}
	for _, k := range fps {
		printed[k] = true
	}
	i := 0
	for _, k := range absent {
		if printed[k] {
			continue
		}
		if inv[i] != k {
			t.Fatalf("query -v line %d: %q, want %q", i, inv[i], k)
		}
		i++
	}
	// Exit 1 when nothing is printed or counted: no present key is
	// certainly absent, and an empty input has no lines.
	if code, out, errs := runChild(t, "query", "-v", f, pf); code != 1 || out != "" || errs != "" {
		t.Errorf("query -v of present keys: exit %d, %q, %q; want 1 and no output", code, out, errs)
	}
	if code, out, _ := runChild(t, "query", "-v", "-c", f, pf); code != 1 || out != "0\n" {
		t.Errorf("query -v -c of present keys: exit %d, %q; want 1 and 0", code, out)
	}
	if code, out, _ := runChildStdin(t, "", "query", f); code != 1 || out != "" {
		t.Errorf("query of empty stdin: exit %d, %q; want 1", code, out)
	}
}

func checkInfo(t *testing.T, f, variant string, n int) {
	t.Helper()
	code, out, errs := runChild(t, "info", "--json", f)
	if code != 0 {
		t.Fatalf("info: exit %d: %s", code, errs)
	}
	var info filterInfo
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(f)
	if info.Variant != variant || info.Hash != "xxh3-64" || info.Checksums != "ok" || info.Bytes != st.Size() ||
		info.EstimatedCount == nil || info.FillRatio == nil || info.EstimatedFPR == nil {
		t.Fatalf("info: %s", out)
	}
	if d := math.Abs(*info.EstimatedCount/float64(n) - 1); d > 0.05 {
		t.Errorf("info estimates %.0f keys, %d added: off by %.1f%%, want within 5%%", *info.EstimatedCount, n, 100*d)
	}
	if *info.EstimatedFPR <= 0 || *info.EstimatedFPR > 0.011 || *info.FillRatio <= 0.2 || *info.FillRatio >= 0.7 {
		t.Errorf("info: fill %v, estimated FPR %v for %d keys at 1%%", *info.FillRatio, *info.EstimatedFPR, n)
	}
	code, out, _ = runChild(t, "info", f)
	if code != 0 || !strings.Contains(out, "variant         "+variant) || !strings.Contains(out, "estimated keys") {
		t.Errorf("info text: %q", out)
	}
}

// -0 reads NUL-separated keys, which may hold newlines; a last key
// without a separator counts; -n sizes the filter.
func TestBuildQueryNUL(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys")
	if err := os.WriteFile(keys, []byte("a\nb\x00c d\x00\x00last"), 0o644); err != nil { // a\nb, "c d", "", last
		t.Fatal(err)
	}
	f := filepath.Join(dir, "nul.bloom")
	if code, out, errs := runChild(t, "build", "-0", "-o", f, "--json", keys); code != 0 || !strings.Contains(out, `"keys": 4`) {
		t.Fatalf("build -0: exit %d, %s %s", code, out, errs)
	}
	code, out, _ := runChild(t, "query", "-0", f, keys)
	if code != 0 || out != "a\nb\x00c d\x00\x00last\x00" {
		t.Errorf("query -0: exit %d, %q", code, out)
	}
	// As lines, "a" and "b\x00c d\x00\x00last" are other keys: a 1% filter
	// of 4 keys holds neither (both checked absent for this filter's bits).
	if code, out, _ := runChild(t, "query", "-c", f, keys); code != 1 || out != "0\n" {
		t.Errorf("query without -0: exit %d, %q; want no match", code, out)
	}
	if code, out, errs := runChild(t, "build", "-n", "1000", "-p", "0.001", "-o", f, "--json", keys); code != 0 ||
		!strings.Contains(out, `"planned_keys": 1000`) || errs != "" {
		t.Errorf("build -n: exit %d, %s", code, out)
	}
	// More keys than -n: a warning with the rate reached.
	if code, _, errs := runChild(t, "build", "-0", "-n", "2", "-o", f, keys); code != 0 || !strings.Contains(errs, "warning: 4 keys in a filter sized for 2") {
		t.Errorf("build -n 2 of 5 lines: exit %d, %q", code, errs)
	}
}

// Missing, empty, truncated, damaged and foreign files: exit 2, one line on
// stderr in the tool's words, nothing on stdout, no panic (runChild checks).
func TestToolBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keys := write("keys.txt", []byte("x\ny\n"))
	good := filepath.Join(dir, "good.bloom")
	if code, _, errs := runChild(t, "build", "-o", good, keys); code != 0 {
		t.Fatal(errs)
	}
	gb, _ := os.ReadFile(good)
	damaged := bytes.Clone(gb)
	damaged[len(damaged)-1] ^= 1
	r := rand.New(rand.NewPCG(1, 2))
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(r.Uint32())
	}
	split, _ := sbparquet.New(10, 0.01)
	sb, _ := split.MarshalBinary()
	files := map[string]string{
		"missing":   filepath.Join(dir, "nope.bloom"),
		"empty":     write("empty", nil),
		"truncated": write("truncated", gb[:len(gb)-10]),
		"header":    write("header", gb[:40]),
		"junk":      write("junk", junk),
		"trailing":  write("trailing", append(bytes.Clone(gb), 0)),
		"directory": dir,
		"text":      keys,
		"split":     write("split", sb), // a valid file, but not one query reads
	}
	for what, f := range files {
		for _, args := range [][]string{{"query", f, keys}, {"query", "-c", f, keys}, {"info", f}, {"info", "--json", f}} {
			if what == "split" && args[0] == "info" {
				continue
			}
			code, out, errs := runChild(t, args...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "bloom "+args[0]+": ") {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit 2 and one line", what, args, code, out, errs)
			}
			for _, p := range libPrefixes {
				if strings.Contains(errs, p) {
					t.Errorf("%s %q: stderr %q has the library's prefix %q", what, args, errs, p)
				}
			}
		}
	}
	// A damaged payload: info and query check the checksums
	// (TestQueryChecksFilterChecksum has more).
	d := write("damaged", damaged)
	for _, args := range [][]string{{"info", d}, {"query", d, keys}} {
		if code, _, errs := runChild(t, args...); code != 2 || !strings.Contains(errs, "checksum") {
			t.Errorf("%q of a damaged payload: exit %d, %q", args, code, errs)
		}
	}
	// Missing inputs of query and build.
	for _, args := range [][]string{{"query", good, filepath.Join(dir, "nope.txt")}, {"build", "-o", filepath.Join(dir, "o"), filepath.Join(dir, "nope.txt")},
		{"build", "-o", filepath.Join(dir, "no", "such", "dir"), keys}, {"build", "-o", filepath.Join(dir, "o"), dir}} {
		code, out, errs := runChild(t, args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, out, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o")); err == nil {
		t.Error("a failed build left its output file")
	}
}

func TestToolUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"build"}, "-o FILE is required"},
		{[]string{"build", "-o", "x", "-p", "2"}, "-p must be in (0, 1), got 2"},
		{[]string{"build", "-o", "x", "-n", "0"}, "-n must be positive"},
		{[]string{"query"}, "FILTER is required"},
		{[]string{"query", "--json", "f"}, "--json needs -c"},
		{[]string{"query", "-x", "f"}, "flag provided but not defined: -x"},
		{[]string{"info"}, "want one FILTER, got 0"},
		{[]string{"info", "a", "b"}, "want one FILTER, got 2"},
	} {
		code, out, errs := runChild(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}
