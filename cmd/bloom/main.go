// Command bloom sizes Bloom filters, reproduces the measured-versus-formula
// experiment, and benchmarks simdbloom on this machine.
//
//	bloom size -n 1e9 -p 0.01         bits, bytes and k for each filter variant
//	bloom experiment                   measured false-positive rates against the formulas
//	bloom bench                        a 10-second benchmark, naming the kernel in use
//
// Every subcommand takes -h for its flags and --json for machine-readable output.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `bloom: size, test and benchmark Bloom filters (github.com/simdbloom/bloom)

Usage:
  bloom size -n N -p P [--json]        bits, bytes, k and bits/key for each variant
  bloom experiment [flags] [--json]    measured FPR and fill against the formulas
  bloom bench [flags] [--json]         a short benchmark on this machine

Run "bloom <command> -h" for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit code: 0 on success,
// 1 when the command failed, 2 for bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "size":
		err = runSize(args[1:], stdout, stderr)
	case "experiment":
		err = runExperiment(args[1:], stdout, stderr)
	case "bench":
		err = runBench(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "bloom: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "bloom %s: %v\n", args[0], err)
		return 2
	default:
		fmt.Fprintf(stderr, "bloom %s: %v\n", args[0], err)
		return 1
	}
}

// usageError is an error in the command line (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// newFlags returns a flag set for a subcommand whose -h prints summary and the flags.
func newFlags(name, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nFlags:\n", summary)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args, turning flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}
