package memlimit

import (
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
)

// cgroupRoot is where the cgroup file systems are mounted: v2 here, v1's
// memory controller in cgroupRoot/memory.
const cgroupRoot = "/sys/fs/cgroup"

// platformLimits reports each limit Linux makes knowable: the rlimits on
// address space and data (less what is mapped now and the heap's overhead),
// the machine's memory and swap, and the cgroup's.
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
		report(lessHeapOverhead(cur-min(cur, r.mapped)), r.why)
	}
	var swap uint64
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil && si.Totalram > 0 {
		unit := max(1, uint64(si.Unit))
		swap = uint64(si.Totalswap) * unit
		report(uint64(si.Totalram)*unit+swap, "this machine's memory and swap")
	}
	if self, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		if n, ok := cgroupLimit(string(self), cgroupRoot, swap); ok {
			report(n, "the memory and swap limits of this process's cgroup")
		}
	}
}

// arena is the Go heap's unit of address-space reservation on 64-bit Linux
// (the runtime's heapArenaBytes; 4 MiB on 32-bit platforms, where this
// bound is merely cautious).
const arena = 64 << 20

// lessHeapOverhead returns what one allocation may ask for when free bytes
// of address space (RLIMIT_AS) or of writable mappings (RLIMIT_DATA) are
// left: free less what the Go heap takes beyond the allocation itself. The
// heap reserves address space in whole arenas and maps it writable in 4 MiB
// chunks, so a request takes up to one arena more than it asks; each arena
// has about 68 KiB of metadata (1/964 of it, counted here as 1/512), the
// page allocator's index takes 1 MiB more per 32 GiB of address space, and
// metadata comes in 256 KiB chunks: 4 MiB covers those two. Measured with
// Go 1.26 on linux/amd64: with RLIMIT_AS at 2 GiB + 1 MiB above VmSize, an
// allocation of that less VmSize less 64 MiB (the correction bloom build
// once used) dies with "fatal error: out of memory allocating heap arena
// metadata", and one of exactly what was free under RLIMIT_DATA with
// "fatal error: runtime: out of memory"; an allocation of this function's
// result succeeds in both (TestLimitIsAllocatable).
func lessHeapOverhead(free uint64) uint64 {
	return free - min(free, arena+4<<20+free/512)
}

// mappedBytes returns the process's mapped address space (VmSize, which
// RLIMIT_AS counts) and its data and stack (VmData and VmStk, of which
// RLIMIT_DATA counts the data: the stack, some hundreds of kilobytes, is
// counted against it too, to be cautious), or zeros if they cannot be read.
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

// cgroupLimit returns the memory the process whose /proc/self/cgroup reads
// self may use under its cgroups, with the cgroup file systems mounted at
// root, and false if no cgroup limits it. In each hierarchy that has the
// memory controller, a limit binds the cgroup's descendants too, so the
// process's cgroup and each of its ancestors up to the root of what root
// shows count: a container without its own cgroup namespace sees its own
// cgroup at root, and its path in self does not exist there, so walking up
// finds the container's limit. The limit is the smallest memory limit
// found plus the swap the cgroups let it use, at most swapTotal (the
// machine's swap):
//
//   - v2 (a "0::PATH" line; files in root): memory.max, plus memory.swap.max
//     (absent or "max": swapTotal);
//   - v1 (a "N:...memory...:PATH" line; files in root/memory):
//     memory.limit_in_bytes plus swapTotal, or memory.memsw.limit_in_bytes
//     (memory and swap together) when that is less. A v1 value of 2^62 or
//     more is the kernel's "no limit".
func cgroupLimit(self, root string, swapTotal uint64) (limit uint64, ok bool) {
	const none = ^uint64(0)
	limit = none
	for _, line := range strings.Split(self, "\n") {
		f := strings.SplitN(line, ":", 3) // "0::/user.slice" (v2), "4:memory:/docker/abc" (v1)
		if len(f) != 3 {
			continue
		}
		v2 := f[0] == "0" && f[1] == ""
		dir, memFile, swapFile := root, "memory.max", "memory.swap.max"
		if !v2 {
			if !strings.Contains(","+f[1]+",", ",memory,") {
				continue
			}
			dir, memFile, swapFile = path.Join(root, "memory"), "memory.limit_in_bytes", "memory.memsw.limit_in_bytes"
		}
		mem, swap := none, none
		for p := path.Clean("/" + f[2]); ; p = path.Dir(p) {
			mem = min(mem, cgroupValue(path.Join(dir, p, memFile)))
			swap = min(swap, cgroupValue(path.Join(dir, p, swapFile)))
			if p == "/" {
				break
			}
		}
		if mem == none {
			continue
		}
		var n uint64
		if v2 {
			n = mem + min(swap, swapTotal)
		} else {
			n = min(swap, mem+swapTotal) // memsw counts memory and swap
		}
		limit, ok = min(limit, n), true
	}
	return limit, ok
}

// cgroupValue returns the number in a cgroup limit file, or ^uint64(0) if
// the file cannot be read or says there is no limit ("max", or v1's
// 2^63-4096 and the like).
func cgroupValue(file string) uint64 {
	b, err := os.ReadFile(file)
	if err != nil {
		return ^uint64(0)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n >= 1<<62 {
		return ^uint64(0)
	}
	return n
}
