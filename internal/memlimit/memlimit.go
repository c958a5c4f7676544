// Package memlimit tells the constructors and decoders of this module
// whether one allocation of a given size can succeed on this machine, so
// that a filter too large for it is an error wrapping ErrTooLarge instead of
// a fatal "runtime: out of memory" (which recover cannot catch).
//
// The limit is the smallest of what is knowable without allocating:
//
//   - what an int can count (2 GiB on 32-bit platforms);
//   - on Linux, the address-space and data-segment limits (RLIMIT_AS,
//     RLIMIT_DATA, as ulimit -v and -d set them) less what the process has
//     mapped already;
//   - on Linux, the machine's memory and swap (the kernel refuses a larger
//     mapping under its default overcommit policy, and a filter larger than
//     both could not be used if it were granted), and the memory and swap of
//     the process's cgroup (a container's limit), when set.
//
// It does not count memory other processes use, nor the soft limit of
// runtime/debug.SetMemoryLimit, which the garbage collector aims at but
// does not enforce: an allocation under the limit may still fail when the
// machine is short of memory. Requests under MinChecked bytes are not
// checked at all.
package memlimit

import (
	"fmt"
	"math"
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
// the package comment lists).
func Current() Limit {
	testMu.Lock()
	t := testLimit
	testMu.Unlock()
	if t != nil {
		return *t
	}
	l := Limit{Bytes: math.MaxInt, Why: "what an int can count on this platform"}
	platformLimits(func(bytes uint64, why string) {
		if bytes < l.Bytes {
			l = Limit{bytes, why}
		}
	})
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
//	bloom: filter would be too large: 100000000000 keys at fpr 0.5 need 32.4 GB (32370778112 bytes),
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
