package longtest

import (
	"flag"
	"testing"
)

// TestFlagSetsEnv checks that -long turns Enabled on through the
// environment (so child processes inherit it) and -long=false turns it off.
func TestFlagSetsEnv(t *testing.T) {
	t.Setenv(Env, "")
	f := flag.Lookup("long")
	if f == nil {
		t.Fatal("no -long flag registered")
	}
	if Enabled() {
		t.Fatalf("Enabled with %s empty", Env)
	}
	if err := f.Value.Set("true"); err != nil {
		t.Fatal(err)
	}
	if !Enabled() || f.Value.String() != "true" {
		t.Fatalf("after -long: Enabled %v, flag %s", Enabled(), f.Value)
	}
	if err := f.Value.Set("false"); err != nil {
		t.Fatal(err)
	}
	if Enabled() {
		t.Fatal("Enabled after -long=false")
	}
	if err := f.Value.Set("maybe"); err == nil {
		t.Fatal("-long=maybe accepted")
	}
}
