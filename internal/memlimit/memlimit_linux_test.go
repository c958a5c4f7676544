package memlimit

import (
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
)

// TestAddressSpaceLimit lowers RLIMIT_AS (in a child process) to 3 GiB
// above what is mapped: the limit reads about 3 GiB, and says why.
func TestAddressSpaceLimit(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			t.Skip(err)
		}
		size, _ := mappedBytes()
		lim.Cur = size + 3<<30
		if lim.Max != ^uint64(0) && lim.Cur > lim.Max {
			t.Skip("the hard limit is lower")
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			t.Skip(err)
		}
		l := Current()
		if l.Bytes > 3<<30 || l.Bytes < 2<<30 || !strings.Contains(l.Why, "ulimit -v") {
			t.Fatalf("with RLIMIT_AS 3 GiB above the mapped size: %+v", l)
		}
	})
}
