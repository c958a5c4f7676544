package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

// lookup is a filter file opened for queries: a Filter or a Scalable
// filter, viewed in place.
type lookup struct {
	f       hasAller // the library's view (or, where views are impossible, the decoded filter)
	release func()
	variant string
	name    string // the file's name
	mem     []byte // the file's bytes
	mapped  bool   // mem is memory-mapped: reads may fault (guardMapped)
}

// hasAllGuarded is f.HasAll, with a fault in reading a mapped file
// (truncated while it is read) returned as an error rather than a crash.
func (l *lookup) hasAllGuarded(keys [][]byte, out []bool) (found int, err error) {
	err = guardMapped(l.mem, l.mapped, l.name, func() error {
		found = l.f.HasAll(keys, out)
		return nil
	})
	return found, err
}

// hasAller is a filter's batch lookup: it sets out[i] to whether the
// filter may hold keys[i] and returns how many may. It is read-only, so
// many goroutines may call it at once.
type hasAller interface {
	HasAll(keys [][]byte, out []bool) int
}

// openLookup opens the filter file name for queries. It tells the two
// kinds of file apart by the variant its header records:
// a Filter is used through a bloom.FilterView, a Scalable through a
// bloom.ScalableView, whose stages are views too. Either way the file is
// memory-mapped, not copied (on platforms without mmap, and on big-endian
// machines, it is read and decoded). Before any view is made, the header,
// the lengths and a Scalable's stages are checked (checkEncoding), and
// with verify every checksum too, each stage's included (one read of the
// file): the views check no more than the headers, and a damaged payload
// would answer present keys absent.
func openLookup(name string, verify bool) (*lookup, error) {
	b, mapped, release, err := loadFilter(name)
	if err != nil {
		return nil, err
	}
	var l *lookup
	err = guardMapped(b, mapped, name, func() error {
		h, err := format.Parse(b, 0)
		if err == nil {
			err = queryable(h)
		}
		if err == nil {
			err = checkEncoding(b, verify)
		}
		if err == nil {
			l, err = viewLookup(b, h)
		}
		if err != nil {
			return badFile(fmt.Errorf("%s: %w", name, err))
		}
		return nil
	})
	if err != nil {
		release()
		return nil, err
	}
	l.release, l.name, l.mem, l.mapped = release, name, b, mapped
	return l, nil
}

// queryable refuses, from its header h, a filter query cannot read: one of
// another variant than Filter and Scalable, or of integer keys.
func queryable(h format.Header) error {
	if h.Variant != format.Filter && h.Variant != format.Scalable {
		return fmt.Errorf("%w: it holds a %s, and query reads filters and scalable filters (made by bloom build or bloom.New and bloom.NewScalable)",
			errs.ErrVariant, variantName(h.Variant))
	}
	if h.Compat&format.CompatKeyMask == format.KeysIntegers {
		// Lines are byte strings: a filter of integer keys would answer
		// every one of them wrongly. (A Scalable's stages record no family:
		// its header does.)
		return errors.New("it holds integer keys (a filter of an integer key type saved by the Go library); " +
			"query looks lines up as byte strings, and reads filters of string or []byte keys")
	}
	return nil
}

// viewLookup returns the lookup of the checked encoding b with header h, a
// Filter or a Scalable (queryable).
func viewLookup(b []byte, h format.Header) (*lookup, error) {
	var f hasAller
	var err error
	if h.Variant == format.Scalable {
		f, err = viewScalable(b)
	} else {
		f, err = viewFilter(b)
	}
	if err != nil {
		return nil, err
	}
	return &lookup{f: f, variant: variantName(h.Variant)}, nil
}

// variantName names a variant as bloom info prints it.
func variantName(v format.Variant) string {
	switch v {
	case format.Filter:
		return "filter"
	case format.SplitBlock:
		return "split-block"
	case format.Counting:
		return "counting"
	case format.Cuckoo:
		return "cuckoo"
	case format.Scalable:
		return "scalable"
	}
	return v.String()
}

// viewScalable returns a typed view of the Scalable encoding b, or, where
// views are impossible (a big-endian machine), the decoded filter.
func viewScalable(b []byte) (hasAller, error) {
	v := new(bloom.ScalableView[[]byte])
	err := v.Reset(b)
	if errors.Is(err, bloom.ErrByteOrder) {
		var s bloom.Scalable[[]byte]
		if err := s.UnmarshalBinary(b); err != nil {
			return nil, err
		}
		return &s, nil
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// viewFilter returns a typed view of the Filter encoding b, or, where views
// are impossible (a big-endian machine), the decoded filter.
func viewFilter(b []byte) (hasAller, error) {
	v := new(bloom.FilterView[[]byte])
	err := v.Reset(b)
	if errors.Is(err, bloom.ErrByteOrder) {
		var f bloom.Filter[[]byte]
		if err := f.UnmarshalBinary(b); err != nil {
			return nil, err
		}
		return &f, nil
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

func runQuery(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("query", "bloom query [-v] [-c] [-0] [--no-verify] FILTER [INPUT...]: print each line of the inputs\n"+
		"that may be in the filter (made by bloom build, or a Filter or Scalable saved by the Go library with\n"+
		"string or []byte keys), like grep: standard input when no INPUT is given or for \"-\"; lines are\n"+
		"printed as read, without file names, each ended by a newline (a NUL with -0). A line the filter may\n"+
		"hold is a false positive with the filter's rate; a line it does not hold is certainly not in it.\n\n"+
		"An input that cannot be opened or read is reported on stderr and skipped, as grep does: the other\n"+
		"inputs are read and counted, and the exit status is 2.\n\n"+
		"FILTER is checked whole when it is opened, checksums included (a scalable filter's stages' too; one\n"+
		"read of the file), and a damaged file is an error, exit 2: a damaged filter would miss keys it holds.\n"+
		"--no-verify skips the payload checksums, for a large file you trust; the headers are still checked.\n"+
		"A FILTER that cannot be mapped (a pipe, a device) is read whole, after its header: one larger than\n"+
		"the memory bloom may use is refused, exit 2.\n\n"+
		"Exit status: 0 if a line was printed (or counted), 1 if none was, 2 on an error.")
	invert := fs.Bool("v", false, "print the lines certainly not in the filter instead")
	count := fs.Bool("c", false, "print only the number of lines that would be printed, over all inputs")
	nul := fs.Bool("0", false, "lines end with a NUL byte instead of a newline")
	asJSON := fs.Bool("json", false, "with -c, print {\"count\": N, \"lines\": M} (M lines read); otherwise a usage error")
	noVerify := fs.Bool("no-verify", false, "do not check the filter file's payload checksum (saves one read of the file)")
	if err := parseArgs(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("FILTER is required")
	}
	if *asJSON && !*count {
		return usagef("--json needs -c (the lines themselves are printed as they are)")
	}
	l, err := openLookup(fs.Arg(0), !*noVerify)
	if err != nil {
		return err
	}
	defer l.release()
	sep := byte('\n')
	if *nul {
		sep = 0
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	s := &scanner{l: l, sep: sep, invert: *invert, count: *count}
	var out []bool
	report := func(err error) { fmt.Fprintf(stderr, "bloom query: %s\n", toolWords(err)) }
	writeErr := func(err error) error { return exitError{2, fmt.Errorf("writing: %w", err)} }
	failed, err := eachInputOf(fs.Args()[1:], os.Stdin, report, func(name string, r io.Reader) error {
		if data, done, ok := mappedInput(r); ok {
			defer done()
			err := s.scanMapped(name, data, func(b []byte) error {
				if _, err := w.Write(b); err != nil {
					return writeErr(err)
				}
				return nil
			})
			if err == nil {
				// Printed before a pipe that comes next is waited for.
				if ferr := w.Flush(); ferr != nil {
					err = writeErr(ferr)
				}
			}
			return err
		}
		err := readLines(r, sep, func(lines [][]byte, _ int64) error {
			if cap(out) < len(lines) {
				out = make([]bool, len(lines))
			}
			out = out[:len(lines)]
			found, err := l.hasAllGuarded(lines, out)
			if err != nil {
				return err // not an inputError: the filter is gone, not this input
			}
			s.total += uint64(len(lines))
			if *invert {
				found = len(lines) - found
			}
			s.selected += uint64(found)
			if *count || found == 0 {
				return nil
			}
			for i, line := range lines {
				if out[i] != *invert {
					w.Write(line)
					w.WriteByte(sep)
				}
			}
			// A pipe's lines are printed as they come.
			if err := w.Flush(); err != nil {
				return writeErr(err)
			}
			return nil
		})
		var rf readFailure
		if errors.As(err, &rf) {
			return inputError{readError(name, rf.err)}
		}
		return err
	})
	selected, total := s.selected, s.total
	if *count {
		if *asJSON {
			writeJSON(w, map[string]uint64{"count": selected, "lines": total})
		} else {
			w.WriteString(strconv.FormatUint(selected, 10) + "\n")
		}
	}
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = exitError{2, fmt.Errorf("writing: %w", ferr)}
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		return exitError{code: 2} // each failed input has had its line
	}
	if selected == 0 {
		return errNothingFound
	}
	return nil
}
