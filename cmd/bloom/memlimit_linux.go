package main

import (
	"bufio"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
)

// platformMemory returns Linux's memory bounds: physical memory and swap
// (/proc/meminfo), the memory cgroup's limit (v1 or v2), and the
// address-space and data-size limits (ulimit -v, ulimit -d).
func platformMemory() []memLimit {
	var limits []memLimit
	if f, err := os.Open("/proc/meminfo"); err == nil {
		var total, swap uint64
		s := bufio.NewScanner(f)
		for s.Scan() {
			// "MemTotal:       24683436 kB"
			k, v, _ := strings.Cut(s.Text(), ":")
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				continue
			}
			switch k {
			case "MemTotal":
				total = kb << 10
			case "SwapTotal":
				swap = kb << 10
			}
		}
		f.Close()
		if total > 0 {
			limits = append(limits, memLimit{total + swap, "physical memory and swap"})
		}
	}
	limits = append(limits, cgroupMemory()...)
	for _, r := range []struct {
		res  int
		what string
	}{{syscall.RLIMIT_AS, "free address space under ulimit -v"}, {syscall.RLIMIT_DATA, "data-size limit of ulimit -d"}} {
		var rl syscall.Rlimit
		if syscall.Getrlimit(r.res, &rl) != nil || rl.Cur == ^uint64(0) || rl.Cur == 0 {
			continue
		}
		// The address space already in use (the runtime's reservations),
		// and the runtime's rounding of a large allocation to its 64 MB
		// heap arenas, are not free for the filter.
		free := rl.Cur
		if used := vmSize() + 64<<20; r.res == syscall.RLIMIT_AS && used < free {
			free -= used
		} else if r.res == syscall.RLIMIT_AS {
			free = 1
		}
		limits = append(limits, memLimit{free, r.what})
	}
	return limits
}

// cgroupMemory returns the memory limits of this process's cgroup and its
// ancestors, v2 (memory.max) or v1 (memory.limit_in_bytes).
func cgroupMemory() []memLimit {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	var limits []memLimit
	read := func(file string) {
		v, err := os.ReadFile(file)
		if err != nil {
			return
		}
		n, err := strconv.ParseUint(strings.TrimSpace(string(v)), 10, 64) // "max" fails: no limit
		if err == nil && n < 1<<62 {
			limits = append(limits, memLimit{n, "memory cgroup limit"})
		}
	}
	for _, line := range strings.Split(string(b), "\n") {
		// "0::/user.slice" (v2) or "4:memory:/docker/abc" (v1)
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var root, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			root, file = "/sys/fs/cgroup", "memory.max"
		case strings.Contains(","+parts[1]+",", ",memory,"):
			root, file = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean("/" + parts[2]); ; p = path.Dir(p) {
			read(path.Join(root, p, file))
			if p == "/" {
				break
			}
		}
	}
	return limits
}

// vmSize returns this process's virtual memory size (VmSize in
// /proc/self/status), 0 if unknown.
func vmSize() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
