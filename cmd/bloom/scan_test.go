package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/internal/childtest"
)

// refLines is the reference split: the records of data ended by sep, the
// last one possibly without it.
func refLines(data []byte, sep byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	ls := bytes.Split(data, []byte{sep})
	if len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1] // data ends with sep: no line after it
	}
	return ls
}

// scanInputs are inputs whose lines cross piece boundaries in every way:
// empty lines, a last line without its separator, lines longer than a
// piece, CRLF line ends (kept in the line), a separator alone.
func scanInputs(sep byte) map[string][]byte {
	s := string(sep)
	r := rand.New(rand.NewPCG(3, 4))
	var mixed []byte
	for range 1000 {
		n := r.IntN(70)
		if r.IntN(50) == 0 {
			n = 300 + r.IntN(3000) // longer than the small pieces
		}
		for range n {
			mixed = append(mixed, "abcdefghij\r"[r.IntN(11)])
		}
		mixed = append(mixed, sep)
	}
	return map[string][]byte{
		"one line":           []byte("k1"),
		"one line ended":     []byte("k1" + s),
		"separator alone":    []byte(s),
		"empty lines":        []byte(s + s + "k1" + s + s + s + "k2" + s + s),
		"no final separator": []byte("k1" + s + "x" + s + "k2" + s + "yy"),
		"crlf":               []byte("k1\r" + s + "k2\r" + s + "k3"),
		"long line":          []byte("k1" + s + strings.Repeat("z", 5000) + s + "k2" + s + strings.Repeat("q", 777)),
		"mixed":              mixed,
		"mixed unended":      mixed[:len(mixed)-1],
	}
}

// refScan is what query prints of data and its counts, line by line.
func refScan(has func([]byte) bool, data []byte, sep byte, invert bool) (out []byte, selected, total uint64) {
	for _, line := range refLines(data, sep) {
		total++
		if has(line) != invert {
			selected++
			out = append(append(out, line...), sep)
		}
	}
	return out, selected, total
}

// The mapped scan, cut into pieces of every small size, on one goroutine
// and several, prints and counts exactly what the reference does, for
// Filter and Scalable lookups, with and without -v, -c and -0.
func TestScanMappedMatchesReference(t *testing.T) {
	f, err := bloom.New[[]byte](10_000, 0.3) // many false positives: both answers are common
	if err != nil {
		t.Fatal(err)
	}
	for _, sep := range []byte{'\n', 0} {
		for name, data := range scanInputs(sep) {
			// A Scalable of small stages, opened as query opens it.
			sc, err := bloom.NewScalable[[]byte](20, 0.3)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range refLines(data, sep) {
				switch i % 3 {
				case 0:
					f.Add(line)
					sc.Add(line)
				case 1:
					sc.Add(line)
				}
			}
			enc, err := sc.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			sv, err := viewScalable(enc) // a view, or where views are impossible the decoded filter
			if err != nil {
				t.Fatal(err)
			}
			_, wantSel, wantTotal := refScan(f.Has, data, sep, false)
			for _, c := range []struct {
				f   hasAller
				has func([]byte) bool
			}{{f, f.Has}, {sv, sc.Has}} {
				l := &lookup{f: c.f}
				has := c.has
				stages := 1
				if c.f == sv {
					stages = sc.Stages()
				}
				for _, invert := range []bool{false, true} {
					want, wantSel, _ := refScan(has, data, sep, invert)
					for _, count := range []bool{false, true} {
						for _, size := range []int{1, 2, 3, 7, 64, 1000, 1 << 20} {
							if size < 64 && len(data) > 10_000 {
								continue // slow, and no more boundaries than the small inputs
							}
							for _, workers := range []int{1, 3} {
								s := &scanner{l: l, sep: sep, invert: invert, count: count, pieceSize: size, workers: workers}
								var got []byte
								err := s.scanMapped("in", data, func(b []byte) error {
									got = append(got, b...)
									return nil
								})
								what := fmt.Sprintf("%q sep %q, %d stages, -v %v -c %v, pieces of %d, %d workers",
									name, sep, stages, invert, count, size, workers)
								if err != nil {
									t.Fatalf("%s: %v", what, err)
								}
								if count {
									if len(got) != 0 {
										t.Errorf("%s: wrote %d bytes", what, len(got))
									}
								} else if !bytes.Equal(got, want) {
									t.Errorf("%s: printed %q, want %q", what, trim(got), trim(want))
								}
								if s.selected != wantSel || s.total != wantTotal {
									t.Errorf("%s: selected %d of %d lines, want %d of %d", what, s.selected, s.total, wantSel, wantTotal)
								}
							}
						}
					}
				}
			}
			if wantSel == 0 {
				t.Errorf("%q: no line selected: the test checks little", name)
			}
		}
	}
}

func trim(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}

// A failed write stops the scan, on one goroutine and several, and is the
// error returned; nothing after it is written.
func TestScanMappedWriteError(t *testing.T) {
	f, _ := bloom.New[[]byte](100, 0.01)
	data := bytes.Repeat([]byte("some line\n"), 10_000)
	for _, workers := range []int{1, 2} {
		s := &scanner{l: &lookup{f: f}, sep: '\n', invert: true, pieceSize: 100, workers: workers}
		want := errors.New("disk full")
		writes := 0
		err := s.scanMapped("in", data, func([]byte) error {
			writes++
			if writes == 3 {
				return want
			}
			if writes > 3 {
				t.Fatal("written after the failed write")
			}
			return nil
		})
		if err != want {
			t.Errorf("%d workers: %v, want the write error", workers, err)
		}
	}
}

// truncatedMappedInput writes an input of 100,000 lines, maps it and
// truncates the file to 0 bytes: it returns the path and the mapping, whose
// pages now fault. It skips t where inputs are not mapped.
func truncatedMappedInput(t *testing.T) (string, []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(p, bytes.Repeat([]byte("0123456789abcdef\n"), 100_000), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	data, done, ok := mappedInput(in)
	if !ok {
		t.Skip("files are not memory-mapped on this platform")
	}
	t.Cleanup(done)
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	return p, data
}

// An input truncated while it is mapped is an input error that says so,
// not a crash.
func TestScanMappedInputTruncated(t *testing.T) {
	p, data := truncatedMappedInput(t)
	f, _ := bloom.New[[]byte](100, 0.01)
	for _, workers := range []int{1, 2} {
		s := &scanner{l: &lookup{f: f}, sep: '\n', count: true, workers: workers}
		err := s.scanMapped(p, data, func([]byte) error { return nil })
		var ie inputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "truncated or changed while it was read") {
			t.Errorf("%d workers: scan of a truncated mapped input: %v; want an input error that the file changed", workers, err)
		}
	}
}

// bloom query reads a file the same whether it is named, redirected to
// standard input (mapped from its offset: the bytes a shell's earlier
// command read are not read again) or piped: the lines and counts of the
// reference.
func TestQueryMappedAndPipedAgree(t *testing.T) {
	dir := t.TempDir()
	data := scanInputs('\n')["mixed unended"]
	keys := refLines(data, '\n')
	var half []byte
	for i, k := range keys {
		if i%2 == 0 {
			half = append(append(half, k...), '\n')
		}
	}
	fb := buildFile(t, dir, "f.bloom", string(half))
	in := writeFile(t, dir, "in.txt", data)
	fl, err := openLookup(fb, true)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.release()
	var want []byte
	for i, k := range keys {
		o := []bool{false}
		if _, err := fl.hasAllGuarded([][]byte{k}, o); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 && !o[0] {
			t.Fatalf("line %d, built in, not found", i)
		}
		if o[0] {
			want = append(append(want, k...), '\n')
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	skip := bytes.IndexByte(data, '\n') + 1 // a shell's earlier command read the first line
	for _, c := range []struct {
		name  string
		stdin func() (any, error)
		args  []string
		want  []byte
	}{
		{"named", nil, []string{fb, in}, want},
		{"redirected", func() (any, error) { return os.Open(in) }, []string{fb}, want},
		{"redirected after a read", func() (any, error) {
			f, err := os.Open(in)
			if err == nil {
				_, err = f.Seek(int64(skip), 0)
			}
			return f, err
		}, []string{fb}, want[bytes.IndexByte(want, '\n')+1:]},
		{"piped", func() (any, error) { return bytes.NewReader(data), nil }, []string{fb}, want},
		{"named twice", nil, []string{fb, in, in}, append(append([]byte(nil), want...), want...)},
	} {
		cmd := childtest.Command(exe, append([]string{"query"}, c.args...)...)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		if c.stdin != nil {
			r, err := c.stdin()
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := r.(*os.File); ok {
				defer f.Close()
				cmd.Stdin = f
			} else {
				cmd.Stdin = r.(*bytes.Reader)
			}
		}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if errors.Is(err, syscall.ENOEXEC) {
			t.Skipf("the test binary cannot start itself here: %v", err)
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		if err != nil || errb.Len() > 0 || !bytes.Equal(out.Bytes(), c.want) {
			t.Errorf("%s: %v, stderr %q, printed %d bytes, want %d", c.name, err, errb.String(), out.Len(), len(c.want))
		}
	}
}

// splitAhead yields the reference's lines of every input, with end at the
// end of each batch's last line and, at the last batch, of the input.
func TestSplitAheadMatchesReference(t *testing.T) {
	inputs := scanInputs('\n')
	inputs["many lines"] = bytes.Repeat([]byte("ab\n\n"), 3*splitBatchLines)
	for name, data := range inputs {
		var got [][]byte
		last := 0
		err := splitAhead("in", data, '\n', func(lines [][]byte, end int) error {
			if len(lines) == 0 || len(lines) > splitBatchLines || end <= last {
				t.Errorf("%s: batch of %d lines ending at %d after %d", name, len(lines), end, last)
			}
			last = end
			got = append(got, lines...) // valid: data is not reused
			return nil
		})
		want := refLines(data, '\n')
		if err != nil || last != len(data) || len(got) != len(want) {
			t.Fatalf("%s: %v, %d lines ending at %d; want %d lines ending at %d", name, err, len(got), last, len(want), len(data))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%s: line %d is %q, want %q", name, i, trim(got[i]), trim(want[i]))
			}
		}
	}
	stop := errors.New("stop")
	calls := 0
	err := splitAhead("in", inputs["many lines"], '\n', func([][]byte, int) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Errorf("fn error: %v after %d calls; want it after 1", err, calls)
	}
}

// bloom build of a mapped input truncated while it is read: exit 2 and
// the error that the file changed, not a crash.
func TestSplitAheadInputTruncated(t *testing.T) {
	p, data := truncatedMappedInput(t)
	err := splitAhead(p, data, '\n', func([][]byte, int) error { return nil })
	var e exitError
	if !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), "truncated or changed while it was read") {
		t.Errorf("split of a truncated mapped input: %v; want exit 2 and the error that the file changed", err)
	}
}

// A filter truncated while a mapped input is looked up in it, on one
// goroutine and several: the filter's error (exit 2, the file changed),
// not an input error to go on after, and not a crash.
func TestScanMappedFilterTruncated(t *testing.T) {
	p, keys, l := mappedLookup(t)
	data := bytes.Join(keys, []byte("\n"))
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		s := &scanner{l: l, sep: '\n', count: true, workers: workers, pieceSize: 4096}
		err := s.scanMapped("in", data, func([]byte) error { return nil })
		var ie inputError
		var e exitError
		if errors.As(err, &ie) || !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), p+": the file was truncated or changed while it was read") {
			t.Errorf("%d workers: lookups in a truncated filter: %v; want the filter's error, exit 2", workers, err)
		}
	}
}

// The lines printed from a mapped file reach stdout before a pipe given
// after it is read: bloom query f file - shows the file's lines while
// standard input is still open.
func TestQueryMappedPrintedBeforePipe(t *testing.T) {
	dir := t.TempDir()
	fb := buildFile(t, dir, "f.bloom", "a\nb\n")
	in := writeFile(t, dir, "in.txt", []byte("a\nzz\nb\n"))
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := childtest.Command(exe, "query", fb, in, "-")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	outp, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("the test binary cannot start itself here: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 4)
		n, _ := io.ReadFull(outp, b)
		got <- string(b[:n])
	}()
	select {
	case s := <-got:
		if s != "a\nb\n" {
			t.Errorf("printed %q, want the file's lines a, b", s)
		}
	case <-time.After(30 * time.Second):
		t.Error("the file's lines were not printed while standard input was open")
	}
	stdin.Close()
	io.Copy(io.Discard, outp)
	cmd.Wait()
}

// guardMapped turns only a runtime error of a file now shorter than its
// mapping (or at an address inside it) into the file's error: other panics,
// and runtime errors while the file is whole, go on.
func TestGuardMappedRepanics(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(p, bytes.Repeat([]byte("x\n"), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 2000)
	repanics := func(name string, fn func() error) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: the panic was recovered", name)
			}
		}()
		_ = guardMapped(b, true, p, fn)
	}
	repanics("a plain panic", func() error { panic("not a fault") })
	var nilMap map[string]int
	repanics("a runtime error, file whole", func() error { nilMap["x"] = 1; return nil })
	if err := os.Truncate(p, 10); err != nil {
		t.Fatal(err)
	}
	repanics("a plain panic, file shorter", func() error { panic("not a fault") })
	var nilPtr *int
	err := guardMapped(b, true, p, func() error { return fmt.Errorf("%d", *nilPtr) })
	if err == nil || !strings.Contains(err.Error(), "truncated or changed while it was read") {
		t.Errorf("a fault of a file now shorter than its mapping: %v", err)
	}
}
