package childtest

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
)

func TestCommandPrefix(t *testing.T) {
	for _, c := range []struct {
		env  string
		want []string
	}{
		{"", []string{"prog", "-x", "y"}},
		{"   ", []string{"prog", "-x", "y"}},
		{"emu", []string{"emu", "prog", "-x", "y"}},
		{"  emu -cpu  max ", []string{"emu", "-cpu", "max", "prog", "-x", "y"}},
	} {
		t.Setenv(ExecEnv, c.env)
		if got := Command("prog", "-x", "y").Args; !slices.Equal(got, c.want) {
			t.Errorf("%s=%q: command %q, want %q", ExecEnv, c.env, got, c.want)
		}
	}
}

// viaPrefixEnv is set in the child only by the prefix TestRunUsesPrefix adds.
const viaPrefixEnv = "SIMDBLOOM_CHILDTEST_VIA_PREFIX"

// TestRunUsesPrefix checks that Run starts its child behind the prefix: the
// prefix (env VAR=1, before any prefix already set) sets a variable that only
// the child can then see.
func TestRunUsesPrefix(t *testing.T) {
	if _, err := exec.LookPath("env"); err != nil {
		t.Skipf("no env command to use as a prefix: %v", err)
	}
	if os.Getenv(ExecEnv) == "" {
		err := exec.Command(os.Args[0], "-test.run=^$").Run()
		if errors.Is(err, syscall.ENOEXEC) {
			t.Skipf("the test binary cannot start itself here and %s is not set: %v", ExecEnv, err)
		}
	}
	if os.Getenv(envName) == "" {
		t.Setenv(ExecEnv, "env "+viaPrefixEnv+"=1 "+os.Getenv(ExecEnv))
	}
	Run(t, func(t *testing.T) {
		if os.Getenv(viaPrefixEnv) != "1" {
			t.Errorf("the child did not start behind the prefix in %s", ExecEnv)
		}
	})
}
