package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// lineReader splits its input into lines (records ending in sep, the last
// one possibly without it) and returns them in batches of slices of its own
// buffer, so that keys go to AddAll and HasAll without a copy each.
type lineReader struct {
	r          io.Reader
	sep        byte
	buf        []byte
	start, end int // unconsumed bytes: buf[start:end]
	eof        bool
	lines      [][]byte
	bytes      int64 // bytes read so far
}

// lineBuffer is the first buffer size; a longer line doubles it.
const lineBuffer = 1 << 20

func newLineReader(r io.Reader, sep byte) *lineReader {
	return &lineReader{r: r, sep: sep, buf: make([]byte, lineBuffer)}
}

// next returns the next batch of lines, without their separators, valid
// until the next call; at the end of the input it returns nil and io.EOF.
// It reads once per call when the buffer holds a whole line, so lines from
// a pipe come out as they arrive.
func (l *lineReader) next() ([][]byte, error) {
	for {
		if l.start > 0 {
			l.end = copy(l.buf, l.buf[l.start:l.end])
			l.start = 0
		}
		if l.end == len(l.buf) {
			grown := make([]byte, 2*len(l.buf))
			copy(grown, l.buf[:l.end])
			l.buf = grown
		}
		if !l.eof {
			n, err := l.r.Read(l.buf[l.end:])
			l.end += n
			l.bytes += int64(n)
			if err == io.EOF {
				l.eof = true
			} else if err != nil {
				return nil, err
			}
		}
		l.lines = l.lines[:0]
		p := 0
		for {
			i := bytes.IndexByte(l.buf[p:l.end], l.sep)
			if i < 0 {
				break
			}
			l.lines = append(l.lines, l.buf[p:p+i:p+i])
			p += i + 1
		}
		if l.eof && p < l.end { // a last line without its separator
			l.lines = append(l.lines, l.buf[p:l.end:l.end])
			p = l.end
		}
		l.start = p
		if len(l.lines) > 0 {
			return l.lines, nil
		}
		if l.eof {
			return nil, io.EOF
		}
	}
}

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
