package alloc

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags line of /proc/self/smaps for the mapping that
// holds address a.
func vmFlags(t *testing.T, a uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
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
			return l
		}
	}
	t.Fatalf("no mapping of /proc/self/smaps holds %#x", a)
	return ""
}

// TestHugeAdvised checks that a large array is advised for huge pages (the
// "hg" flag of its mapping). Whether the kernel then grants huge pages
// depends on its free memory, so that is not checked; nor that small arrays
// are not advised: they may reuse the memory of a large one that was.
func TestHugeAdvised(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages here:", err)
	}
	// Calibrate: the advice on a mapping of the test's own must show, else
	// it does not reach the kernel here (qemu's user mode, for one, takes
	// madvise and drops it).
	m, err := syscall.Mmap(-1, 0, 4<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(m)
	if err := syscall.Madvise(m, syscall.MADV_HUGEPAGE); err != nil {
		t.Skip("madvise:", err)
	}
	if fl := vmFlags(t, uintptr(unsafe.Pointer(&m[0]))); !strings.Contains(fl+" ", " hg ") {
		t.Skipf("MADV_HUGEPAGE on a mapping does not show in its VmFlags here (%q): an emulator?", fl)
	}
	big := Words(HugeFrom / 8)
	if fl := vmFlags(t, addr(big)); !strings.Contains(fl+" ", " hg ") {
		t.Errorf("array of HugeFrom bytes: mapping not advised for huge pages: %q", fl)
	}
}
