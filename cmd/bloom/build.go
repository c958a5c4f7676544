package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/internal/memlimit"
	"github.com/simdbloom/bloom/internal/sizing"
)

// scalableInitial is the first stage's planned keys of a Scalable filter
// built from stdin without -n: about 160 kB at 1%; each further stage
// doubles.
const scalableInitial = 1 << 17

// builder is what build adds keys to: a Filter or a Scalable.
type builder interface {
	AddAll(keys [][]byte)
	WriteTo(w io.Writer) (int64, error)
	EstimatedFPR() float64
	NumBits() uint64
}

// buildResult is what "bloom build --json" prints.
type buildResult struct {
	File         string  `json:"file"`
	Variant      string  `json:"variant"`
	Keys         uint64  `json:"keys"` // lines read, duplicates included
	PlannedKeys  uint64  `json:"planned_keys"`
	FPR          float64 `json:"fpr"`
	Bytes        int64   `json:"bytes"`
	EstimatedFPR float64 `json:"estimated_fpr"`
}

func runBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("build", "bloom build [-n N] [-p P] [-0] -o FILE [INPUT...]: a filter file of the keys in the inputs,\n"+
		"one key a line (the line's bytes without its newline), read from standard input when no INPUT\n"+
		"is given or for \"-\". The file is in simdbloom's format (FORMAT.md) with the xxh3 key hash, for\n"+
		"bloom query and for bloom.FilterView[string] or [[]byte] in Go.\n\n"+
		"The filter is sized for N keys at false-positive rate P. Without -n, the lines of the input files\n"+
		"are counted first (a file named twice, once); when an input can be read only once (standard\n"+
		"input, a pipe given by name such as /dev/stdin or <(...), a FIFO) and -n is not given, the filter\n"+
		"is a scalable filter, which grows as keys arrive and keeps the rate P. Inputs without a line leave\n"+
		"a filter of no key, with a warning. A filter larger than the memory this process may use (physical\n"+
		"memory and swap, a cgroup's limit, ulimit -v or -d, GOMEMLIMIT) is refused before it is made, exit\n"+
		"1; a line too long to hold in that memory is an error, exit 2. On a terminal, a progress line shows\n"+
		"keys, keys/s and bytes read. Prints nothing else unless --json is given.\n\n"+
		"FILE is written as cp writes: a new file is mode 0666 minus the umask, an existing one keeps its\n"+
		"mode, and a symbolic link is written through; a temporary file is renamed into place once complete.\n"+
		"As cp, build refuses (exit 2, before it reads or writes) to write FILE over one of its inputs, by\n"+
		"whatever name: a hard or symbolic link, standard input read from FILE, standard output (-o -) to it.")
	nStr := fs.String("n", "", "number of keys to size the filter for, a decimal number (e.g. 1000000 or 1e9; default: count the input files' lines)")
	pStr := fs.String("p", "0.01", "target false-positive rate, a decimal number in (0, 1) (e.g. 0.01 or 1e-6)")
	nul := fs.Bool("0", false, "keys end with a NUL byte instead of a newline")
	out := fs.String("o", "", "the filter file to write (required; - for standard output)")
	asJSON := fs.Bool("json", false, "print what was built as JSON")
	if err := parseArgs(fs, args, stdout); err != nil {
		return err
	}
	if *out == "" {
		return usagef("-o FILE is required")
	}
	p, err := parseRate(*pStr)
	if err != nil {
		return usageError{err.Error()}
	}
	var n uint64
	if *nStr != "" {
		if n, err = parseCount(*nStr); err != nil {
			return usageError{err.Error()}
		}
	}
	sep := byte('\n')
	if *nul {
		sep = 0
	}
	inputs := fs.Args()
	if err := outputNotInput(*out, inputs, stdout); err != nil {
		return err
	}
	// Inputs that are not regular files (stdin, a pipe given by name as
	// /dev/stdin or <(...), a FIFO, a device) can be read only once: they
	// are not counted, and make a scalable filter that grows as they come.
	once := len(inputs) == 0
	var counted uint64
	var seen []os.FileInfo // the files counted: a file named twice holds the same keys
	for _, in := range inputs {
		if in == "-" {
			once = true
			continue
		}
		st, err := os.Stat(in)
		switch {
		case err != nil:
			return badFile(fileError(err))
		case st.IsDir():
			return badFile(fmt.Errorf("%s is a directory", in))
		case !st.Mode().IsRegular():
			once = true
		case n == 0 && !slices.ContainsFunc(seen, func(s os.FileInfo) bool { return os.SameFile(s, st) }):
			c, err := countLines(in, sep)
			if err != nil {
				return err
			}
			counted += c
			seen = append(seen, st)
		}
	}
	res := buildResult{File: *out, FPR: p, Variant: "filter"}
	var b builder
	switch {
	case n > 0:
		res.PlannedKeys = n
	case once:
		// The regular files' lines, counted, and room for as many again
		// from the others before the first growth.
		n = max(counted, scalableInitial)
		res.PlannedKeys, res.Variant = n, "scalable"
	default:
		n = counted
		res.PlannedKeys = max(n, 1) // an empty input makes a filter that holds nothing
	}
	// The first stage of a scalable filter has the rate p*(1-0.85), its
	// default tightening; a Filter, p.
	planned, rate := res.PlannedKeys, p
	if res.Variant == "scalable" {
		rate = p * (1 - 0.85)
	}
	// Refused here, before anything is allocated, in the words of the
	// command line (the constructors refuse it too, but name a scalable
	// filter's first stage by its own rate): one line, exit 1.
	if s, err := sizing.Size(planned, rate, sizing.Blocked); err == nil {
		if err := memlimit.Check(s.Bytes, func() string {
			if res.Variant == "scalable" {
				return fmt.Sprintf("%d keys at fpr %.3g (the first stage of a scalable filter for fpr %v)", planned, rate, p)
			}
			return fmt.Sprintf("%d keys at fpr %v", planned, p)
		}); err != nil {
			return exitError{1, err}
		}
	}
	if res.Variant == "scalable" {
		b, err = bloom.NewScalable[[]byte](n, p)
	} else {
		b, err = bloom.New[[]byte](res.PlannedKeys, p)
	}
	if errors.Is(err, bloom.ErrTooLarge) {
		return exitError{1, err} // a valid request, one line: not a usage message
	}
	if err != nil {
		return usageError{err.Error()}
	}

	prog := newKeyProgress(stderr)
	var readBytes int64
	err = eachInput(inputs, os.Stdin, func(name string, r io.Reader) error {
		var read int64
		defer func() { readBytes += read }()
		if data, done, ok := mappedInput(r); ok {
			defer done()
			return splitAhead(name, data, sep, func(lines [][]byte, end int) error {
				b.AddAll(lines)
				res.Keys += uint64(len(lines))
				read = int64(end)
				prog.update(res.Keys, readBytes+read)
				return nil
			})
		}
		err := readLines(r, sep, func(lines [][]byte, n int64) error {
			b.AddAll(lines)
			res.Keys += uint64(len(lines))
			read = n
			prog.update(res.Keys, readBytes+read)
			return nil
		})
		var rf readFailure
		if errors.As(err, &rf) {
			return badFile(readError(name, rf.err))
		}
		return err
	})
	prog.done(res.Keys, readBytes)
	if err != nil {
		return err
	}
	// The report is printed before the file is renamed into place: a
	// report that cannot be printed (>/dev/full) fails the build without
	// leaving a new file.
	_, err = writeOutput(*out, stdout, b.WriteTo, func(n int64) error {
		res.Bytes, res.EstimatedFPR = n, b.EstimatedFPR()
		if *asJSON {
			return writeJSON(stdout, res)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if res.Keys == 0 {
		fmt.Fprintf(stderr, "bloom build: warning: the inputs have no lines: %s holds no key\n", *out)
	}
	if res.Variant == "filter" && res.Keys > res.PlannedKeys {
		fmt.Fprintf(stderr, "bloom build: warning: %d keys in a filter sized for %d: its false-positive rate is now about %.3g\n",
			res.Keys, res.PlannedKeys, res.EstimatedFPR)
	}
	return nil
}

// countLines counts the lines of the file name: its separators, plus one
// for a last line without one. A regular file is mapped, not read.
func countLines(name string, sep byte) (uint64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, badFile(fileError(err))
	}
	defer f.Close()
	if data, done, ok := mappedInput(f); ok {
		defer done()
		var n uint64
		err := guardMapped(data, true, name, func() error {
			n = uint64(bytes.Count(data, []byte{sep}))
			if data[len(data)-1] != sep {
				n++
			}
			return nil
		})
		return n, err
	}
	buf := make([]byte, 1<<20)
	var n uint64
	last := sep
	for {
		m, err := f.Read(buf)
		if m > 0 {
			n += uint64(bytes.Count(buf[:m], []byte{sep}))
			last = buf[m-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, badFile(readError(name, err))
		}
	}
	if last != sep {
		n++
	}
	return n, nil
}

// outputNotInput returns a usage error when the output out ("-": standard
// output) is a regular file that is also one of the inputs ("-" or none:
// standard input) by whatever name: the same path, a hard link, a symbolic
// link either way, standard input redirected from it, standard output
// appending to it. The filter would replace the keys it was built from, so
// build refuses it before it reads or writes anything, as cp refuses to
// copy a file onto itself (os.SameFile: the same device and inode).
func outputNotInput(out string, inputs []string, stdout io.Writer) error {
	var ost os.FileInfo
	if out == "-" {
		if cw, ok := stdout.(*checkedWriter); ok {
			stdout = cw.w
		}
		if f, ok := stdout.(*os.File); ok {
			ost, _ = f.Stat()
		}
	} else {
		ost, _ = os.Stat(out) // through symbolic links, as the output is written
	}
	if ost == nil || !ost.Mode().IsRegular() {
		return nil // a new file, or a device such as /dev/null: nothing to lose
	}
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	for _, in := range inputs {
		var st os.FileInfo
		if in == "-" {
			st, _ = os.Stdin.Stat()
		} else {
			st, _ = os.Stat(in) // an input that cannot be read is reported when it is read
		}
		if st != nil && os.SameFile(st, ost) {
			oname, iname := "-o "+out, "the input "+in
			if out == "-" {
				oname = "standard output (-o -)"
			}
			if in == "-" {
				iname = "standard input"
			}
			return usagef("%s and %s are the same file: the filter would replace the keys it is built from", oname, iname)
		}
	}
	return nil
}
