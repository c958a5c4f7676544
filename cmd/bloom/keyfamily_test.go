package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdbloom/bloom"
)

// TestQueryRefusesIntegerKeys: bloom query looks lines up as byte strings,
// so a Filter or Scalable file of integer keys (saved by the Go library) is
// refused with exit 2 and one line, not answered wrongly for every line;
// files of string keys are queried as before.
func TestQueryRefusesIntegerKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, e interface{ MarshalBinary() ([]byte, error) }) string {
		b, err := e.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fi, _ := bloom.New[uint64](100, 0.01)
	fi.Add(7)
	si, _ := bloom.NewScalable[int32](100, 0.01)
	si.Add(7)
	fs, _ := bloom.New[string](100, 0.01)
	fs.Add("7")
	lines := filepath.Join(dir, "lines")
	if err := os.WriteFile(lines, []byte("7\n8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{write("ints.bloom", fi), write("ints-scalable.bloom", si)} {
		code, out, errs := runChild(t, "query", "-c", f, lines)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "integer keys") {
			t.Errorf("query of %s: exit %d, stdout %q, stderr %q; want exit 2 and one line about integer keys", filepath.Base(f), code, out, errs)
		}
	}
	if code, out, errs := runChild(t, "query", "-c", write("strings.bloom", fs), lines); code != 0 || out != "1\n" {
		t.Errorf("query of a string-key filter: exit %d, %q, %q", code, out, errs)
	}
}
