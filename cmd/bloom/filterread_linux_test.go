package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// zeroFilter writes dir/name, a valid Filter of no key (its payload zero)
// of about size bytes, sparse on disk, and returns its path.
func zeroFilter(t *testing.T, dir, name string, size uint64) string {
	t.Helper()
	blocks := size / 64
	zeros := make([]byte, 1<<20)
	var crc uint32
	for left := blocks * 64; left > 0; {
		n := min(left, uint64(len(zeros)))
		crc = format.UpdateCRC(crc, zeros[:n])
		left -= n
	}
	h := format.Header{Version: format.Version, Variant: format.Filter, K: 8, Blocks: blocks, Hash: uint8(blocked.HashXXH3),
		PayloadBytes: blocks * 64, PayloadCRC: crc, Compat: format.KeysBytes}
	var hb [format.HeaderSize]byte
	h.Put(hb[:])
	p := writeFile(t, dir, name, hb[:])
	if err := os.Truncate(p, int64(h.Size())); err != nil {
		t.Fatal(err)
	}
	return p
}

// feedFIFO writes data to the FIFO path from a goroutine, once, or again and
// again until the reader closes the FIFO (forever); wait waits for the
// writer, and ends it if no reader ever opened the FIFO.
func feedFIFO(t *testing.T, path string, data []byte, forever bool) (wait func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(path, os.O_WRONLY, 0) // waits for a reader
		if err != nil {
			return
		}
		defer w.Close()
		for {
			if _, err := w.Write(data); err != nil || !forever {
				return // EPIPE once the reader is gone
			}
		}
	}()
	return func() {
		// A reader of our own, opened and closed, ends a writer that
		// waits to open, or writes to a FIFO nobody reads.
		if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
		<-done
	}
}

// A FILTER that query and info cannot map (a device, a FIFO, a pipe, a
// file too large to map under the limit) is read as: its header, then
// exactly the size the header announces once that size is checked against
// the memory bloom may use; bytes that are not a filter are refused after
// the header, and bytes after the filter are an error, each in one line,
// exit 2, at a bounded memory cost. Under an address-space limit, query
// -c /dev/zero, a FIFO fed by an endless writer ("yes"), and a valid
// filter larger than the limit each read the whole input until the
// runtime died of "fatal error: out of memory"; unlimited, /dev/zero grew
// without bound. A valid filter through a FIFO or a pipe is answered.
func TestFilterReadWithinMemoryLimit(t *testing.T) {
	const extra = 128 << 20
	dir := t.TempDir()
	keys := writeFile(t, dir, "keys.txt", []byte("a\nb\n"))
	big := zeroFilter(t, dir, "big.bloom", extra+64<<20)
	small := buildFile(t, dir, "small.bloom", "a\nb\n")
	sb, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	yes := bytes.Repeat([]byte("y\n"), 1<<15)
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string // what the filter is, in the test's words
		filter  string
		feed    []byte // written to the FIFO
		forever bool   // again and again
		stdin   string
		want    string // in the one line of stderr; "" for success
	}{
		{name: "/dev/zero", filter: "/dev/zero", want: "bad magic"},
		{name: "a filter too large for the limit", filter: big, want: "more than the address-space limit"},
		{name: "a FIFO of yes", filter: fifo, feed: yes, forever: true, want: "bad magic"},
		{name: "a FIFO of a filter and more", filter: fifo, feed: append(bytes.Clone(sb), yes...), forever: true, want: "after the"},
		{name: "a FIFO of a filter cut short", filter: fifo, feed: sb[:len(sb)-10], want: "truncated"},
		{name: "a FIFO of a filter", filter: fifo, feed: sb},
		{name: "a pipe of a filter", filter: "/dev/stdin", stdin: string(sb)},
		{name: "a pipe of a filter and more", filter: "/dev/stdin", stdin: string(sb) + "y\n", want: "after the"},
		{name: "a pipe of a filter cut short", filter: "/dev/stdin", stdin: string(sb[:70]), want: "truncated"},
		{name: "a pipe of a header alone", filter: "/dev/stdin", stdin: string(sb[:30]), want: "shorter than the 64-byte header"},
	} {
		for _, args := range [][]string{{"query", "-c", c.filter, keys}, {"info", c.filter}} {
			var wait func()
			if c.feed != nil {
				wait = feedFIFO(t, fifo, c.feed, c.forever)
			}
			code, out, errs := runLimitedStdin(t, asExtraEnv, extra, nil, c.stdin, args...)
			if wait != nil {
				wait()
			}
			switch {
			case c.want == "" && args[0] == "query" && (code != 0 || out != "2\n" || errs != ""):
				t.Errorf("%s: %q: exit %d, stdout %q, stderr %q; want both keys found", c.name, args, code, out, errs)
			case c.want == "" && args[0] == "info" && (code != 0 || !strings.Contains(out, "variant         filter\n") || errs != ""):
				t.Errorf("%s: %q: exit %d, stdout %q, stderr %q; want it described", c.name, args, code, out, errs)
			case c.want != "" && (code != 2 || out != "" || strings.Count(errs, "\n") != 1 ||
				!strings.HasPrefix(errs, "bloom "+args[0]+": "+c.filter+": ") || !strings.Contains(errs, c.want)):
				t.Errorf("%s: %q: exit %d, stdout %q, stderr %.300q; want exit 2 and one line naming the file with %q", c.name, args, code, out, errs, c.want)
			}
		}
	}
}

// query and info check a Scalable file's stages before they build a view
// of it, which allocates for every stage the header claims: a sparse file
// holding one valid header (no payload checksum) that claims tens of
// millions of stages, followed by zeros, is exit 2 and one line saying
// that stage 0 is not a filter, under a data limit far below what a view
// of that many stages takes (a 32nd of the payload), with and without --no-verify. query died of
// "fatal error: out of memory".
func TestQueryChecksStagesBeforeView(t *testing.T) {
	payload := uint64(8 << 30)
	if strconv.IntSize == 32 {
		payload = 1 << 30 // what a 32-bit platform reads
	}
	h := format.Header{Version: format.Version, Variant: format.Scalable, Blocks: (payload - format.ScalableParamBytes) / format.ScalableMinStage,
		Hash: uint8(blocked.HashXXH3), PayloadBytes: payload, Compat: format.KeysBytes, Incompat: format.IncompatNoPayloadCRC}
	var hb [format.HeaderSize]byte
	h.Put(hb[:])
	if _, _, err := format.Frame(hb[:], format.Scalable); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("the header is not valid: %v", err)
	}
	dir := t.TempDir()
	f := writeFile(t, dir, "sparse.bloom", hb[:])
	if err := os.Truncate(f, int64(h.Size())); err != nil {
		t.Fatal(err)
	}
	keys := writeFile(t, dir, "keys.txt", []byte("a\n"))
	for _, args := range [][]string{{"query", "-c", f, keys}, {"query", "-c", "--no-verify", f, keys}, {"info", f}} {
		code, out, errs := runLimitedStdin(t, dataExtraEnv, payload/32, nil, "", args...) // a view takes 40 bytes a stage (24 on 32-bit platforms): payload/4 or more
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "bloom "+args[0]+": "+f+": ") || !strings.Contains(errs, "stage 0") {
			t.Errorf("%q: exit %d, stdout %q, stderr %.300q; want exit 2 and one line naming stage 0", args, code, out, errs)
		}
	}
}
