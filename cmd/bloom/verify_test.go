package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/internal/cpu"
	"github.com/simdbloom/bloom/internal/format"
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
			if got, err := strconv.Atoi(strings.TrimSpace(out)); !bigEndian && (code != 0 || err != nil || got >= n) {
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

// query and info check the checksum of every stage of a Scalable file: a
// stage whose payload is damaged is exit 2 and one line naming a checksum
// even where the outer checksum describes the bytes as they now are
// (recomputed) or is absent (the no-payload-CRC flag), whether the file is
// mapped or read from a pipe, at every level. query answered from the
// damaged stage, exit 0, and present keys came out absent. --no-verify
// shows the damage is real.
func TestQueryChecksStageChecksums(t *testing.T) {
	const n = 20_000
	presentFile, _, present, _ := keyFiles(t, n)
	s, err := bloom.NewScalable[string](2000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	s.AddAll(present)
	if s.Stages() < 3 {
		t.Fatalf("%d stages, want 3 or more", s.Stages())
	}
	good, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		outer func(h *format.Header, p []byte) // sets the outer header's checksum fields
	}{
		{"outer CRC recomputed", func(h *format.Header, p []byte) { h.PayloadCRC = format.CRC(p) }},
		{"no outer CRC", func(h *format.Header, _ []byte) { h.Incompat |= format.IncompatNoPayloadCRC; h.PayloadCRC = 0 }},
	} {
		for _, stage := range []int{0, 2} {
			b := bytes.Clone(good)
			// The stage's payload: half of it zeroed.
			off := format.HeaderSize + format.ScalableParamBytes
			for range stage {
				sh, err := format.Parse(b[off:], format.Filter)
				if err != nil {
					t.Fatal(err)
				}
				off += int(sh.Size())
			}
			sh, err := format.Parse(b[off:], format.Filter)
			if err != nil {
				t.Fatal(err)
			}
			p := b[off+format.HeaderSize : off+int(sh.Size())]
			clear(p[:len(p)/2])
			h, err := format.Parse(b, format.Scalable)
			if err != nil {
				t.Fatal(err)
			}
			c.outer(&h, b[format.HeaderSize:])
			h.Put(b)
			what := fmt.Sprintf("%s, stage %d damaged", c.name, stage)
			f := writeFile(t, dir, fmt.Sprintf("s%d-%d.bloom", stage, len(c.name)), b)
			for _, l := range cpu.Usable() {
				env := []string{"SIMDBLOOM_CPU=" + l.String()}
				for _, cmd := range []struct {
					args  []string
					stdin []byte
				}{
					{[]string{"query", "-c", f, presentFile}, nil},
					{[]string{"query", "-c", "/dev/stdin", presentFile}, b},
					{[]string{"info", f}, nil},
					{[]string{"info", "/dev/stdin"}, b},
				} {
					code, out, errs := runChildEnv(t, env, string(cmd.stdin), cmd.args...)
					if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "bloom "+cmd.args[0]+": "+cmd.args[len(cmd.args)-1-btoi(cmd.args[0] == "query")]+": ") ||
						!strings.Contains(errs, "checksum") {
						t.Errorf("%s: %v, %q: exit %d, stdout %q, stderr %q; want exit 2, nothing printed, and one line naming the checksum", what, l, cmd.args, code, out, errs)
					}
				}
			}
			code, out, errs := runChild(t, "query", "-c", "--no-verify", f, presentFile)
			if got, err := strconv.Atoi(strings.TrimSpace(out)); !bigEndian && (code != 0 || err != nil || got >= n) {
				t.Errorf("%s: query -c --no-verify: exit %d, %q, %q; want it read, fewer than %d keys found", what, code, out, errs, n)
			}
		}
	}
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bigEndian is true on a big-endian machine, where query decodes the filter
// (no view reads it in place), and the decoder checks every checksum,
// --no-verify or not.
var bigEndian = binary.NativeEndian.Uint16([]byte{1, 0}) != 1
