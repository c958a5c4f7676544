package hugetest

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// calibrated holds why the advice cannot be seen here ("" if it can):
// the advice on a mapping of the test's own must show in its VmFlags, else
// madvise does not reach the kernel (QEMU's user mode, for one, takes it
// and drops it) or the kernel has no transparent huge pages.
var calibrated = sync.OnceValue(func() string {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		return fmt.Sprint("no transparent huge pages here: ", err)
	}
	m, err := syscall.Mmap(-1, 0, 4<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return fmt.Sprint("mmap: ", err)
	}
	defer syscall.Munmap(m)
	if err := syscall.Madvise(m, syscall.MADV_HUGEPAGE); err != nil {
		return fmt.Sprint("madvise: ", err)
	}
	fl, err := vmFlags(uintptr(unsafe.Pointer(&m[0])))
	if err != nil {
		return err.Error()
	}
	if !strings.Contains(fl+" ", " hg ") {
		return fmt.Sprintf("MADV_HUGEPAGE on a mapping does not show in its VmFlags here (%q): an emulator?", fl)
	}
	return ""
})

// adviceShows reports whether the mapping that holds address a is advised
// for huge pages, or why that cannot be known here.
func adviceShows(a uintptr) (advised bool, why string) {
	if why := calibrated(); why != "" {
		return false, why
	}
	fl, err := vmFlags(a)
	if err != nil {
		return false, err.Error()
	}
	return strings.Contains(fl+" ", " hg "), ""
}

// vmFlags returns the VmFlags line of /proc/self/smaps for the mapping
// that holds address a.
func vmFlags(a uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(l, "%x-%x", &lo, &hi); n == 2 && strings.Contains(l, " ") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(l, "VmFlags:") {
			return l, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping of /proc/self/smaps holds %#x", a)
}
