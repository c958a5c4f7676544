package memlimit

import (
	"errors"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/errs"
)

func TestCheck(t *testing.T) {
	l := Current()
	if l.Bytes == 0 || l.Bytes > math.MaxInt || l.Why == "" {
		t.Fatalf("Current() = %+v", l)
	}
	t.Logf("limit: %s (%d bytes), %s", Human(l.Bytes), l.Bytes, l.Why)
	what := func() string { return "the test's request" }
	if err := Check(MinChecked-1, what); err != nil {
		t.Errorf("Check below MinChecked: %v", err)
	}
	if err := Check(math.MaxUint64, what); !errors.Is(err, errs.ErrTooLarge) || !strings.Contains(err.Error(), "the test's request") || !strings.Contains(err.Error(), l.Why) {
		t.Errorf("Check(2^64-1): %v", err)
	}
	restore := SetForTest(Limit{64 << 20, "the test's limit"})
	if err := Check(64<<20, what); err != nil {
		t.Errorf("Check at the limit: %v", err)
	}
	err := Check(64<<20+1, what)
	if !errors.Is(err, errs.ErrTooLarge) || err.Error() != "bloom: filter would be too large: the test's request need 67.1 MB (67108865 bytes), more than the test's limit (67.1 MB)" {
		t.Errorf("Check over the limit: %v", err)
	}
	restore()
	if Current() != l {
		t.Errorf("restore: %+v, want %+v", Current(), l)
	}
}

func TestHuman(t *testing.T) {
	for n, want := range map[uint64]string{0: "0 bytes", 999: "999 bytes", 1000: "1 kB", 32370778112: "32.4 GB", math.MaxUint64: "18.4 EB"} {
		if got := Human(n); got != want {
			t.Errorf("Human(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestGoMemoryLimit: a Go memory limit (GOMEMLIMIT, here set with
// debug.SetMemoryLimit) below the others is the limit, and Check names it;
// without one, the default (math.MaxInt64) is no limit.
func TestGoMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.SetMemoryLimit(math.MaxInt64)
	if l := Current(); strings.Contains(l.Why, "GOMEMLIMIT") {
		t.Errorf("without a Go memory limit: %+v", l)
	}
	debug.SetMemoryLimit(64 << 20)
	if l := Current(); l != (Limit{64 << 20, "the Go memory limit GOMEMLIMIT"}) {
		t.Errorf("under debug.SetMemoryLimit(64 MiB): %+v", l)
	}
	err := Check(100<<20, func() string { return "100 MiB" })
	if !errors.Is(err, errs.ErrTooLarge) || !strings.HasSuffix(err.Error(), "more than the Go memory limit GOMEMLIMIT (67.1 MB)") {
		t.Errorf("Check(100 MiB) under a 64 MiB Go memory limit: %v", err)
	}
}
