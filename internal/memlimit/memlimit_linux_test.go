package memlimit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
)

// is32 is whether this is a 32-bit platform, where an int counts 2 GiB.
const is32 = ^uint(0)>>32 == 0

// TestAddressSpaceLimit lowers RLIMIT_AS (in a child process) to 3 GiB
// above what is mapped (1 GiB on 32-bit platforms): the limit reads that
// less the heap's overhead (and less the little mapped since), and says
// why.
func TestAddressSpaceLimit(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		extra := uint64(3 << 30)
		if is32 {
			extra = 1 << 30
		}
		if !setLimit(t, syscall.RLIMIT_AS, extra) {
			return
		}
		l, want := Current(), lessHeapOverhead(extra)
		if l.Bytes > want || l.Bytes < want-64<<20 || !strings.Contains(l.Why, "ulimit -v") {
			t.Fatalf("with RLIMIT_AS %d bytes above the mapped size: %+v, want %d bytes or a little less", extra, l, want)
		}
	})
}

// TestLimitIsAllocatable: under RLIMIT_AS or RLIMIT_DATA set (in a child
// process) to a little more than a whole number of heap arenas above what
// the process maps or uses, one allocation of Current's limit succeeds.
// Before the heap's overhead was counted it was a fatal "out of memory"
// (which ends the child and fails the test): by up to 4 MiB under
// RLIMIT_DATA, and, with only 64 MiB counted, by the arenas' metadata under
// RLIMIT_AS. The allocation is never touched, so it costs address space,
// not memory.
func TestLimitIsAllocatable(t *testing.T) {
	big := uint64(2 << 30)
	// A 32-bit process has 4 GiB of address space, some of it used already.
	if is32 {
		big = 512 << 20
	}
	for _, c := range []struct {
		name  string
		res   int
		extra uint64
		why   string
	}{
		{"AS", syscall.RLIMIT_AS, big + 1<<20, "ulimit -v"},
		{"AS2x", syscall.RLIMIT_AS, 2*big + 1<<20, "ulimit -v"},
		{"DATA", syscall.RLIMIT_DATA, big + 1<<20, "ulimit -d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			childtest.Run(t, func(t *testing.T) {
				if !setLimit(t, c.res, c.extra) {
					return
				}
				l := Current()
				if !strings.Contains(l.Why, c.why) {
					t.Skipf("a tighter limit than %s: %+v", c.why, l)
				}
				if l.Bytes < c.extra-c.extra/256-68<<20 {
					t.Errorf("limit %d bytes with %d free: more overhead than the heap's", l.Bytes, c.extra)
				}
				b := make([]byte, l.Bytes)
				t.Logf("allocated %d bytes of the %d free under %s", len(b), c.extra, c.why)
			})
		})
	}
}

// setLimit sets the soft limit res to extra bytes above what this process
// maps (RLIMIT_AS) or uses for data (RLIMIT_DATA) now, and reports whether
// it could; only in a child process (childtest.Run).
func setLimit(t *testing.T, res int, extra uint64) bool {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector's shadow memory does not fit under an address-space or data limit")
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(res, &lim); err != nil {
		t.Skip(err)
	}
	size, data := mappedBytes()
	if res == syscall.RLIMIT_DATA {
		size = data
	}
	if size == 0 {
		t.Skip("/proc/self/statm cannot be read")
	}
	lim.Cur = size + extra
	if lim.Max != ^uint64(0) && lim.Cur > lim.Max {
		t.Skip("the hard limit is lower")
	}
	if err := syscall.Setrlimit(res, &lim); err != nil {
		t.Skip(err)
	}
	// QEMU's user-mode emulation accepts RLIMIT_AS and RLIMIT_DATA without
	// applying them (they would limit the emulator itself) and reports the
	// host's limits.
	var got syscall.Rlimit
	if err := syscall.Getrlimit(res, &got); err != nil || got.Cur != lim.Cur {
		t.Skipf("the limit set to %d reads back as %d (%v): not in effect here (an emulator?)", lim.Cur, got.Cur, err)
	}
	return true
}

// TestCgroupLimit reads cgroup hierarchies laid out in a temporary
// directory: v2 and v1, limits set on an ancestor, a container's own
// cgroup seen at the root, swap limited, unlimited or not accounted, and
// no limit at all.
func TestCgroupLimit(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	const v1None = "9223372036854771712\n" // v1's "no limit"
	for _, c := range []struct {
		name  string
		self  string
		files map[string]string // under the root; "" is a directory only
		swap  uint64            // the machine's
		want  uint64            // 0: no limit
	}{
		{"v2 own", "0::/a/b\n", map[string]string{"a/b/memory.max": "1073741824\n", "a/b/memory.swap.max": "0\n"}, 8 * gib, gib},
		{"v2 ancestor", "0::/a/b\n", map[string]string{"a/b/memory.max": "max\n", "a/memory.max": "2147483648\n", "a/b/memory.swap.max": "max\n", "a/memory.swap.max": "1048576\n"}, 8 * gib, 2*gib + mib},
		{"v2 swap unlimited", "0::/a\n", map[string]string{"a/memory.max": "1073741824\n", "a/memory.swap.max": "max\n"}, 3 * gib, 4 * gib},
		{"v2 swap not accounted", "0::/a\n", map[string]string{"a/memory.max": "1073741824\n"}, 3 * gib, 4 * gib},
		{"v2 no swap", "0::/a\n", map[string]string{"a/memory.max": "1073741824\n", "a/memory.swap.max": "max\n"}, 0, gib},
		{"v2 container at the root", "0::/system.slice/docker-1.scope\n", map[string]string{"memory.max": "536870912\n", "memory.swap.max": "0\n"}, gib, 512 * mib},
		{"v2 unlimited", "0::/a\n", map[string]string{"a/memory.max": "max\n", "a/memory.swap.max": "max\n"}, gib, 0},
		{"v2 host root", "0::/\n", map[string]string{"cgroup.procs": "1\n"}, gib, 0},
		{"v1 memsw", "12:memory:/docker/x\n3:cpu,cpuacct:/docker/x\n", map[string]string{"memory/docker/x/memory.limit_in_bytes": "536870912\n", "memory/docker/x/memory.memsw.limit_in_bytes": "805306368\n", "memory/memory.limit_in_bytes": v1None, "cpu,cpuacct/docker/x/memory.limit_in_bytes": "1\n"}, 8 * gib, 768 * mib},
		{"v1 no swap accounting", "4:memory:/docker/x\n", map[string]string{"memory/docker/x/memory.limit_in_bytes": "536870912\n"}, gib, gib + 512*mib},
		{"v1 container at the root", "4:memory:/docker/x\n", map[string]string{"memory/memory.limit_in_bytes": "536870912\n", "memory/memory.memsw.limit_in_bytes": "536870912\n"}, gib, 512 * mib},
		{"v1 controllers joined", "4:cpu,memory:/x\n", map[string]string{"memory/x/memory.limit_in_bytes": "1073741824\n"}, 0, gib},
		{"v1 unlimited", "4:memory:/x\n", map[string]string{"memory/x/memory.limit_in_bytes": v1None, "memory/memory.limit_in_bytes": v1None}, gib, 0},
		{"hybrid", "4:memory:/x\n0::/x\n", map[string]string{"memory/x/memory.limit_in_bytes": "2147483648\n", "x/memory.max": "1073741824\n"}, 0, gib},
		{"no memory controller", "3:cpu:/x\n", map[string]string{"cpu/x/memory.limit_in_bytes": "1\n"}, gib, 0},
		{"unreadable", "", nil, gib, 0},
	} {
		root := t.TempDir()
		for name, text := range c.files {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, ok := cgroupLimit(c.self, root, c.swap)
		if c.want == 0 && ok || c.want != 0 && (!ok || got != c.want) {
			t.Errorf("%s: cgroupLimit = %d, %v; want %d (0: none)", c.name, got, ok, c.want)
		}
	}
}

// TestHeapOverhead: the room kept for the heap is one arena, 4 MiB and a
// 512th of what is free, and never more than is free.
func TestHeapOverhead(t *testing.T) {
	for free, want := range map[uint64]uint64{0: 0, 68 << 20: 0, 1 << 40: 1<<40 - 68<<20 - 1<<31} {
		if got := lessHeapOverhead(free); got != want {
			t.Errorf("lessHeapOverhead(%d) = %d, want %d", free, got, want)
		}
	}
}
