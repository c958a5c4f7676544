package main

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// chunkReader returns its data in reads of random sizes from 1 to max.
type chunkReader struct {
	data []byte
	r    *rand.Rand
	max  int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), 1+c.r.IntN(c.max))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// readLinesLines is every line readLines passes to fn, copied, and the
// last read count.
func readLinesLines(t *testing.T, r io.Reader, sep byte) ([][]byte, int64) {
	t.Helper()
	var got [][]byte
	var last int64
	err := readLines(r, sep, func(lines [][]byte, read int64) error {
		if len(lines) == 0 {
			t.Error("fn called with no line")
		}
		if read < last {
			t.Errorf("read went down: %d after %d", read, last)
		}
		last = read
		for _, l := range lines {
			got = append(got, bytes.Clone(l))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, last
}

// readLines yields the reference's lines, whatever the reads' sizes, with
// lines across reads and batches, longer than a buffer (several MiB),
// empty, CRLF-ended, and a last one without its separator.
func TestReadLinesMatchesReference(t *testing.T) {
	inputs := scanInputs('\n')
	huge := bytes.Repeat([]byte("h"), 3*lineBuffer+17)
	inputs["huge lines"] = append(append(append([]byte("a\n"), huge...), "\nb\n"...), huge...)
	inputs["empty"] = nil
	r := rand.New(rand.NewPCG(7, 8))
	for name, data := range inputs {
		for _, mk := range []func() io.Reader{
			func() io.Reader { return bytes.NewReader(data) },
			func() io.Reader { return &chunkReader{data, r, 5} },
			func() io.Reader { return &chunkReader{data, r, 5000} },
			func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
			func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) },
		} {
			got, read := readLinesLines(t, mk(), '\n')
			want := refLines(data, '\n')
			if len(got) != len(want) || read != int64(len(data)) {
				t.Fatalf("%s: %d lines, %d bytes read; want %d lines, %d bytes", name, len(got), read, len(want), len(data))
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("%s: line %d is %q, want %q", name, i, trim(got[i]), trim(want[i]))
				}
			}
		}
	}
}

// A read error ends readLines with it, as a readFailure, after the lines
// read before it; an error of fn ends it with fn's error, fn not called
// again.
func TestReadLinesErrors(t *testing.T) {
	bad := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("a\nb\n"), iotest.ErrReader(bad))
	var got []string
	err := readLines(r, '\n', func(lines [][]byte, _ int64) error {
		for _, l := range lines {
			got = append(got, string(l))
		}
		return nil
	})
	var rf readFailure
	if !errors.As(err, &rf) || rf.err != bad || strings.Join(got, ",") != "a,b" {
		t.Errorf("read error: %v after %q; want the readFailure after a,b", err, got)
	}
	stop := errors.New("stop")
	calls := 0
	err = readLines(&chunkReader{bytes.Repeat([]byte("x\n"), 100_000), rand.New(rand.NewPCG(1, 1)), 10}, '\n',
		func([][]byte, int64) error {
			calls++
			return stop
		})
	if err != stop || calls != 1 {
		t.Errorf("fn error: %v after %d calls; want it after 1", err, calls)
	}
}

// Lines from a pipe reach fn as they arrive: the first line is passed on
// before the writer writes the second.
func TestReadLinesStreams(t *testing.T) {
	pr, pw := io.Pipe()
	seen := make(chan string, 10)
	go func() {
		io.WriteString(pw, "first\n")
		select {
		case <-seen:
		case <-time.After(10 * time.Second):
		}
		io.WriteString(pw, "second\n")
		pw.Close()
	}()
	var got []string
	err := readLines(pr, '\n', func(lines [][]byte, _ int64) error {
		for _, l := range lines {
			got = append(got, string(l))
			seen <- string(l)
		}
		return nil
	})
	if err != nil || strings.Join(got, ",") != "first,second" {
		t.Errorf("%v, %q", err, got)
	}
	if len(got) > 0 && got[0] != "first" {
		t.Errorf("first line %q", got[0])
	}
}
