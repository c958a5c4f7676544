// Package memlimit tells the constructors and decoders of this module, and
// the bloom command, whether one allocation of a given size can succeed in
// this process, so that a filter too large for it is an error wrapping
// ErrTooLarge instead of a fatal "runtime: out of memory" (which recover
// cannot catch) or the kernel's OOM kill once the filter fills.
//
// The limit is the smallest of what is knowable without allocating:
//
//   - what an int can count (2 GiB on 32-bit platforms);
//   - the Go memory limit (GOMEMLIMIT, or runtime/debug.SetMemoryLimit), on
//     every platform: the garbage collector does not enforce it, but one
//     allocation larger than the whole limit keeps the heap above it for as
//     long as the filter lives, so it is a mistake the caller should hear
//     of (and it makes the refusal testable the same way on any machine);
//   - on Linux, the address-space and data-segment limits (RLIMIT_AS,
//     RLIMIT_DATA, as ulimit -v and -d set them) less what the process has
//     mapped already and less the Go heap's own overhead on a large
//     allocation (see heapOverhead in memlimit_linux.go: without it, a
//     request just under the limit was a fatal runtime error);
//   - on Linux, the machine's memory and swap (the kernel refuses a larger
//     mapping under its default overcommit policy, and a filter larger than
//     both could not be used if it were granted), and the memory limit of
//     the process's cgroup and of each of its ancestors, cgroup v2
//     (memory.max) or v1 (memory.limit_in_bytes), plus the swap the cgroup
//     may use (a container's limit).
//
// It does not count memory other processes use, nor what this process uses
// already against GOMEMLIMIT or a cgroup's limit: an allocation under the
// limit may still fail when the machine is short of memory. Requests under
// MinChecked bytes are not checked at all.
package memlimit

import (
	"fmt"
	"math"
	"runtime/debug"
	"sync"

	"github.com/simdbloom/bloom/internal/errs"
)

// MinChecked is the smallest request Check looks at: below it, Check
// returns nil without a system call.
const MinChecked = 16 << 20

// Limit is the most bytes one allocation may take, and what sets it.
type Limit struct {
	Bytes uint64
	Why   string // "this machine's memory and swap", "the address-space limit (ulimit -v)", ...
}

var (
	testMu    sync.Mutex
	testLimit *Limit
)

// Current returns the limit on one allocation now (the tightest of those
// the package comment lists), or the one SetForTest set.
func Current() Limit {
	testMu.Lock()
	t := testLimit
	testMu.Unlock()
	if t != nil {
		return *t
	}
	l := Limit{Bytes: math.MaxInt, Why: "what an int can count on this platform"}
	report := func(bytes uint64, why string) {
		if bytes < l.Bytes {
			l = Limit{bytes, why}
		}
	}
	if g := debug.SetMemoryLimit(-1); g >= 0 && g < math.MaxInt64 { // -1 reads it; MaxInt64 is the default, no limit
		report(uint64(g), "the Go memory limit GOMEMLIMIT")
	}
	platformLimits(report)
	return l
}

// SetForTest replaces the limit with l until the returned function is
// called; for tests of the callers' error paths.
func SetForTest(l Limit) (restore func()) {
	testMu.Lock()
	old := testLimit
	testLimit = &l
	testMu.Unlock()
	return func() {
		testMu.Lock()
		testLimit = old
		testMu.Unlock()
	}
}

// Check returns nil if n bytes may be allocated at once, and otherwise an
// error wrapping errs.ErrTooLarge that says what (called only then: a
// phrase such as "100000000000 keys at fpr 0.5") needs and the limit that
// refuses it:
//
//	bloom: filter would be too large: 100000000000 keys at fpr 0.5 need 40.4 GB (40380070272 bytes),
//	more than this machine's memory and swap (25.3 GB)
func Check(n uint64, what func() string) error {
	if n < MinChecked {
		return nil
	}
	l := Current()
	if n <= l.Bytes {
		return nil
	}
	return fmt.Errorf("%w: %s need %s (%d bytes), more than %s (%s)", errs.ErrTooLarge, what(), Human(n), n, l.Why, Human(l.Bytes))
}

// Human returns n bytes in decimal units with 3 significant digits: "32.4 GB".
func Human(n uint64) string {
	units := []string{"bytes", "kB", "MB", "GB", "TB", "PB", "EB"}
	v, i := float64(n), 0
	for v >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.3g %s", v, units[i])
}
