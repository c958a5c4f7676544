// Command bloom builds and queries Bloom filter files, reads the Bloom
// filters inside Parquet files, sizes filters, reproduces the
// measured-versus-formula experiment, and benchmarks simdbloom on this
// machine.
//
//	bloom build -o deny.bloom keys.txt     a filter of the file's lines (one key a line)
//	bloom query deny.bloom input.txt       print the lines the filter may hold, like grep
//	bloom info deny.bloom                  a filter file's variant, size, fill and estimated keys
//	bloom parquet data.parquet             the Bloom filters of a Parquet file
//	bloom parquet -column city data.parquet Paris   which row groups may hold Paris
//	bloom size -n 1e9 -p 0.01              bits, bytes and k for each filter variant
//	bloom experiment                       measured false-positive rates against the formulas
//	bloom bench                            a 10-second benchmark, naming the kernel in use
//	bloom version                          module and Go versions, and the kernel in use
//
// Every subcommand takes -h for its flags (printed on stdout) and --json for
// machine-readable output. Exit codes: 0 success; 1 the command failed, or
// (query, parquet -column, like grep) nothing was found; 2 bad usage (a bad
// flag value, an unknown command or argument) or a file that cannot be read
// or is not what the command needs (missing, truncated, damaged), or a
// failed write to standard output.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"syscall"
)

const usage = `bloom: build, query, size, test and benchmark Bloom filters (github.com/simdbloom/bloom)

Usage:
  bloom build [-n N] [-p P] [-0] -o FILE [INPUT...]  a filter file of the inputs' lines
  bloom query [-v] [-c] [-0] FILTER [INPUT...]       print the lines that may be in the filter
  bloom info [--json] FILTER                         a filter file's variant, size and health
  bloom parquet [--json] FILE                        the Bloom filters of a Parquet file
  bloom parquet [--json] -column PATH FILE VALUE...  which row groups may hold each value
  bloom size -n N -p P [--json]                      bits, bytes, k and bits/key for each variant
  bloom experiment [flags] [--json]                  measured FPR and fill against the formulas
  bloom bench [flags] [--json]                       a short benchmark on this machine
  bloom version [--json]                             module and Go versions, kernel in use

Run "bloom <command> -h" for a command's flags.
`

func main() {
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	// A write the kernel accepted can still fail at close (a full disk
	// over NFS, say): that is a failed write too. EBADF means standard
	// output was closed before bloom started; a write to it has failed
	// already, and a command that wrote nothing did not fail.
	if err := os.Stdout.Close(); code != 2 && err != nil && !errors.Is(err, syscall.EBADF) && !errors.Is(err, os.ErrClosed) {
		fmt.Fprintf(os.Stderr, "bloom %s: writing standard output: %s\n", commandName(os.Args[1:]), pathless(err))
		code = 2
	}
	os.Exit(code)
}

// commandName is the subcommand of args as messages name it.
func commandName(args []string) string {
	if len(args) > 0 && commands[args[0]] != nil {
		return args[0]
	}
	return "help"
}

// checkedWriter passes writes to w and keeps the first error, so that a
// failed write to standard output (a full disk, a closed descriptor) ends
// any command with exit 2 and one line, whether or not the command looked
// at the error of each write.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// pathless returns err's message without the file name of an *os.PathError
// ("no space left on device", not "write /dev/stdout: no space left on device").
func pathless(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// commands maps each subcommand to its function.
var commands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"build":      runBuild,
	"query":      runQuery,
	"info":       runInfo,
	"parquet":    runParquet,
	"size":       runSize,
	"experiment": runExperiment,
	"bench":      runBench,
	"version":    runVersion,
}

// run executes one command line and returns the exit code: 0 on success,
// 1 when the command failed, 2 for bad usage, a bad file, or a failed
// write to stdout.
func run(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := runCommand(args, out, stderr)
	if out.err != nil {
		// The first failed write is the cause of whatever followed it.
		fmt.Fprintf(stderr, "bloom %s: writing standard output: %s\n", commandName(args), pathless(out.err))
		return 2
	}
	return code
}

// runCommand is run without the check of the writes to stdout.
func runCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && commands[args[1]] != nil {
			// "bloom help size" is "bloom size -h".
			return runCommand([]string{args[1], "-h"}, stdout, stderr)
		}
		if len(args) > 1 {
			fmt.Fprintf(stderr, "bloom: unknown command %q\n\n%s", args[1], usage)
			return 2
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd := commands[name]
	if cmd == nil {
		fmt.Fprintf(stderr, "bloom: unknown command %q\n\n%s", name, usage)
		return 2
	}
	err := cmd(args[1:], stdout, stderr)
	if cw, ok := stdout.(*checkedWriter); ok && cw.err != nil {
		return 2 // run says it, once, whatever err says about it
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(exitError)):
		var e exitError
		errors.As(err, &e)
		if e.err != nil {
			fmt.Fprintf(stderr, "bloom %s: %s\n", name, toolWords(e.err))
		}
		return e.code
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "bloom %s: %s\nRun \"bloom %s -h\" for its flags.\n", name, toolWords(err), name)
		return 2
	default:
		fmt.Fprintf(stderr, "bloom %s: %s\n", name, toolWords(err))
		return 1
	}
}

// usageError is an error in the command line (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// exitError ends the command with an exit code of its own, printing err
// (if not nil) as the command's failure.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e exitError) Unwrap() error { return e.err }

// badFile returns err as an exit-2 failure: a file that cannot be read or
// is not what the command needs.
func badFile(err error) error { return exitError{2, err} }

// errNothingFound ends query and parquet -column with exit code 1 and no
// message, as grep does when no line matches.
var errNothingFound = exitError{code: 1}

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// libPrefix matches the package prefixes of the library's error messages
// ("blocked: ", "bloom: ", ...) at the start of a message or of a wrapped part.
var libPrefix = regexp.MustCompile(`(^|: )(blocked|bloom|cuckoo|parquet): `)

// toolWords returns err's message without the library's package prefixes,
// which would read as the tool's own name or as noise after "bloom size: ".
func toolWords(err error) string {
	return libPrefix.ReplaceAllString(err.Error(), "$1")
}

// newFlags returns a flag set for a subcommand whose -h prints summary and
// the flags. The flag package itself prints nothing: parse prints -h on
// stdout, and run prints errors once, on stderr.
func newFlags(name, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", summary)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args, printing the usage on stdout for -h and turning flag
// errors into usage errors. It refuses arguments after the flags.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	if err := parseArgs(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// parseArgs is parse for commands that take arguments after their flags
// (fs.Args()). Flags come first: the first argument that is not a flag, or
// "--", ends them, so a value such as -5 after a file name is an argument.
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}
