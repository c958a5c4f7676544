// Package longtest tells the library's tests whether to run their long
// versions: the statistical runs at full sample sizes and the loads of
// millions of keys. By default `go test ./...` runs a smaller version of
// the same assertions, which answers in well under a minute; .ci/run runs
// the long ones.
//
// Ask for them with the test flag -long of a package that imports this one
// (go test ./cuckoo -long), or, for every package at once, with the
// environment variable SIMDBLOOM_LONG=1 (SIMDBLOOM_LONG=1 go test ./...).
// -long sets the variable as it is parsed, so the child processes of
// internal/childtest run long as well.
package longtest

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// Env is the environment variable that turns the long tests on ("1").
const Env = "SIMDBLOOM_LONG"

// longFlag is -long: setting it to true sets Env for this process and the
// processes it starts.
type longFlag struct{}

func (longFlag) String() string   { return strconv.FormatBool(Enabled()) }
func (longFlag) IsBoolFlag() bool { return true }

func (longFlag) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, got %q", s)
	}
	if on {
		return os.Setenv(Env, "1")
	}
	return os.Unsetenv(Env)
}

func init() {
	flag.Var(longFlag{}, "long", "run the long statistical and load tests at their full sizes (also "+Env+"=1)")
}

// Enabled reports whether the long tests run: -long was given or Env is 1.
func Enabled() bool { return os.Getenv(Env) == "1" }
