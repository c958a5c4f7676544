package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/simdbloom/bloom/internal/memlimit"
)

// lineBuffer is the size of readLines' buffer; a longer line doubles it,
// as long as the memory this process may use allows (lineCutter.newBuffer).
const lineBuffer = 1 << 20

// eachInput calls fn for each input in turn, opening each file as it comes
// and closing it after: names are file names, "-" is stdin, and no name at
// all means stdin alone. A file that cannot be opened is a badFile error.
func eachInput(names []string, stdin io.Reader, fn func(name string, r io.Reader) error) error {
	_, err := eachInputOf(names, stdin, nil, fn)
	return err
}

// inputError is an input that cannot be opened or read: with keep-going
// (eachInputOf with a report function), the input is skipped, not the rest.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// eachInputOf is eachInput that, when report is not nil, goes on after an
// input that cannot be opened, or that fn fails to read (fn returns an
// inputError), as grep does: it passes the error to report, goes on with
// the next input, and returns how many inputs failed. Any other error of fn
// (a failed write) ends it.
func eachInputOf(names []string, stdin io.Reader, report func(error), fn func(name string, r io.Reader) error) (failed int, err error) {
	if len(names) == 0 {
		names = []string{"-"}
	}
	fail := func(err error) error {
		if report == nil {
			return badFile(err)
		}
		report(err)
		failed++
		return nil
	}
	for _, name := range names {
		if name == "-" {
			err = fn("standard input", stdin)
		} else if f, oerr := os.Open(name); oerr != nil {
			err = inputError{fileError(oerr)}
		} else {
			err = fn(name, f)
			f.Close()
		}
		var ie inputError
		if errors.As(err, &ie) {
			err = fail(ie.err)
		}
		if err != nil {
			return failed, err
		}
	}
	return failed, nil
}

// fileError words a file error for the user: "missing.txt: no such file or
// directory" rather than "open missing.txt: ...".
func fileError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// readError words a failed read of the input name: "reading dir: is a
// directory", without the *os.PathError's own "read dir: ".
func readError(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("reading %s: %w", name, err)
}

// lineBatch is a batch of lines cut from its own buffer, and how many
// bytes of the input had been read when it was cut.
type lineBatch struct {
	buf   []byte
	lines [][]byte
	read  int64
}

// readFailure is a read error of the input of readLines, as against an
// error of its fn.
type readFailure struct{ err error }

func (e readFailure) Error() string { return e.err.Error() }

// readLines calls fn with the lines of r, without their separators, in
// input order, in batches: what each read brought (it reads again only
// for a line not yet whole), so that lines from a pipe reach fn as they
// arrive. A pipe is asked for a larger buffer (growPipe), so that a fast
// writer's lines come in few large reads. fn's lines are valid until it
// returns; read is the bytes of r read so far. It returns fn's first
// error, or a read error as a readFailure, and reads no further after
// either.
//
// Reading on a second goroutine, ahead of fn, was tried: on a loaded
// machine its hand-offs cost more than the overlap gained.
func readLines(r io.Reader, sep byte, fn func(lines [][]byte, read int64) error) error {
	growPipe(r)
	c := &lineCutter{r: r, sep: sep}
	b := &lineBatch{buf: make([]byte, lineBuffer)}
	for {
		ok, err := c.fill(b)
		if err != nil {
			return readFailure{err}
		}
		if !ok {
			return nil
		}
		if err := fn(b.lines, b.read); err != nil {
			return err
		}
	}
}

// lineCutter cuts the lines of its input into batches.
type lineCutter struct {
	r     io.Reader
	sep   byte
	left  []byte // the unfinished last line, in the last batch's buffer
	total int64  // bytes read
	eof   bool
}

// fill reads into b the next lines of the input: what one read brings,
// or more reads while no line is whole. It returns false at the end of
// the input, when no line is left. b may be the batch that holds c.left.
func (c *lineCutter) fill(b *lineBatch) (bool, error) {
	if c.eof {
		return false, nil
	}
	if len(b.buf) < 2*len(c.left) {
		buf, err := c.newBuffer(2*len(c.left), len(b.buf), len(c.left))
		if err != nil {
			return false, err
		}
		b.buf = buf
	}
	end := copy(b.buf, c.left) // may overlap when b holds left: copy moves it down
	b.lines = b.lines[:0]
	p, scanned := 0, end // the next line starts at p; b.buf[p:scanned] (left) has no sep
	for {
		if end == len(b.buf) { // no line whole yet: p is 0
			grown, err := c.newBuffer(2*len(b.buf), len(b.buf), end)
			if err != nil {
				return false, err
			}
			copy(grown, b.buf[:end])
			b.buf = grown
		}
		n, err := c.r.Read(b.buf[end:])
		end += n
		c.total += int64(n)
		if err == io.EOF {
			c.eof = true
		} else if err != nil {
			return false, err
		}
		for {
			i := bytes.IndexByte(b.buf[scanned:end], c.sep)
			if i < 0 {
				break
			}
			b.lines = append(b.lines, b.buf[p:scanned+i:scanned+i])
			p = scanned + i + 1
			scanned = p
		}
		// A long line is scanned once, not again at each read.
		scanned = end
		if c.eof && p < end { // a last line without its separator
			b.lines = append(b.lines, b.buf[p:end:end])
			p = end
		}
		if len(b.lines) > 0 || c.eof {
			break
		}
	}
	c.left, b.read = b.buf[p:end], c.total
	return len(b.lines) > 0, nil
}

// newBuffer returns a buffer of size bytes to go on reading a line of
// which long bytes are read, in place of one of old bytes that is still
// live while its bytes are copied. A line is held whole (the filter hashes
// it whole), so one longer than the memory this process may use (memlimit:
// ulimit -v, a cgroup's limit, the machine's memory, GOMEMLIMIT) cannot be
// read: the error says so, where doubling on would have ended in the
// runtime's fatal "out of memory".
func (c *lineCutter) newBuffer(size, old, long int) ([]byte, error) {
	if need := uint64(size) + uint64(old); need >= memlimit.MinChecked {
		if l := memlimit.Current(); need > l.Bytes {
			end := "newline"
			if c.sep != '\n' {
				end = "separator"
			}
			return nil, fmt.Errorf("a line longer than %d bytes (no %s yet): reading on needs %s of line buffers, more than %s (%s)",
				long, end, memlimit.Human(need), l.Why, memlimit.Human(l.Bytes))
		}
	}
	return make([]byte, size), nil
}
