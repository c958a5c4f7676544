package alloc

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
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
	big := Words(HugeFrom / 8)
	if fl := vmFlags(t, addr(big)); !strings.Contains(fl+" ", " hg ") {
		t.Errorf("array of HugeFrom bytes: mapping not advised for huge pages: %q", fl)
	}
}
