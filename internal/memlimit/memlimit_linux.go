package memlimit

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// platformLimits reports each limit Linux makes knowable: the rlimits on
// address space and data (less what is mapped now), the machine's memory
// and swap, and the cgroup's.
func platformLimits(report func(bytes uint64, why string)) {
	size, data := mappedBytes()
	for _, r := range []struct {
		res    int
		mapped uint64 // what the limit already counts
		why    string
	}{
		{syscall.RLIMIT_AS, size, "the address-space limit (ulimit -v) less what is mapped"},
		{syscall.RLIMIT_DATA, data, "the data-segment limit (ulimit -d) less what is in use"},
	} {
		var lim syscall.Rlimit
		if syscall.Getrlimit(r.res, &lim) != nil {
			continue
		}
		cur := uint64(lim.Cur)
		if cur == ^uint64(0) || cur == 1<<32-1 && ^uint(0) == 1<<32-1 { // RLIM_INFINITY (a 32-bit one on 32-bit platforms)
			continue
		}
		report(cur-min(cur, r.mapped), r.why)
	}
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil && si.Totalram > 0 {
		unit := max(1, uint64(si.Unit))
		report((uint64(si.Totalram)+uint64(si.Totalswap))*unit, "this machine's memory and swap")
	}
	if mem, ok := cgroupLimit("memory.max"); ok {
		swap, _ := cgroupLimit("memory.swap.max")
		report(mem+swap, "the memory and swap limits of this process's cgroup")
	}
}

// mappedBytes returns the process's mapped address space (VmSize, which
// RLIMIT_AS counts) and its data and stack (VmData, which RLIMIT_DATA
// counts), or zeros if they cannot be read.
func mappedBytes() (size, data uint64) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, 0
	}
	f := strings.Fields(string(b)) // size resident shared text lib data dt, in pages
	if len(f) < 6 {
		return 0, 0
	}
	page := uint64(os.Getpagesize())
	size, _ = strconv.ParseUint(f[0], 10, 64)
	data, _ = strconv.ParseUint(f[5], 10, 64)
	return size * page, data * page
}

// cgroupLimit returns the value of a cgroup v2 limit file of this process's
// cgroup, and false if there is none or it is "max".
func cgroupLimit(file string) (uint64, bool) {
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	for _, line := range bytes.Split(cg, []byte("\n")) {
		path, ok := bytes.CutPrefix(line, []byte("0::"))
		if !ok {
			continue
		}
		v, err := os.ReadFile("/sys/fs/cgroup" + string(path) + "/" + file)
		if err != nil {
			return 0, false
		}
		n, err := strconv.ParseUint(strings.TrimSpace(string(v)), 10, 64)
		return n, err == nil
	}
	return 0, false
}
