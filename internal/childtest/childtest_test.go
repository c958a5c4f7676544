package childtest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// demoEnv makes TestDemo run; only TestRunFailsOnDeath sets it.
const demoEnv = "SIMDBLOOM_CHILDTEST_DEMO"

// TestDemo runs a child that dies (exits without reporting, as a process does
// on a fatal fault). It runs only when TestRunFailsOnDeath starts it.
func TestDemo(t *testing.T) {
	if os.Getenv(demoEnv) == "" {
		t.Skip("started by TestRunFailsOnDeath")
	}
	t.Run(os.Getenv(demoEnv), func(t *testing.T) {
		Run(t, func(t *testing.T) {
			switch os.Getenv(demoEnv) {
			case "dies":
				os.Exit(3)
			case "fails":
				t.Error("reported failure")
			}
		})
	})
}

func TestRunFailsOnDeath(t *testing.T) {
	for _, c := range []struct {
		mode     string
		wantFail bool
	}{{"dies", true}, {"fails", true}, {"passes", false}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDemo$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), demoEnv+"="+c.mode)
		out, err := cmd.CombinedOutput()
		if errors.Is(err, syscall.ENOEXEC) {
			t.Skipf("the test binary cannot start itself here (an emulator without binfmt_misc): %v", err)
		}
		if (err != nil) != c.wantFail {
			t.Errorf("%s: parent error %v, want failure %v\n%s", c.mode, err, c.wantFail, out)
		}
		if c.wantFail && !strings.Contains(string(out), "child process for TestDemo/"+c.mode+" failed") {
			t.Errorf("%s: parent did not report the child's failure:\n%s", c.mode, out)
		}
	}
}
