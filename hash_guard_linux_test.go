package bloom

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"

	"github.com/zeebo/xxh3"
)

// TestHashStringsGuardPages: no lane of the string kernels reads outside
// its key. Keys of every length 0..300 (every length class) lie in a page
// between two inaccessible pages, ending exactly at its end or starting
// exactly at its start, in every lane position of batches of 1 to 17 keys,
// with every set of string kernels (strVariants); a read past either edge
// faults and fails the test.
func TestHashStringsGuardPages(t *testing.T) {
	forStrVariants(t, func(t *testing.T, _ int, v strVariant) {
		mid := guardedPage(t)
		page := len(mid)
		atEnd := func(n int) string { return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(&mid[0]), page-n)), n) }
		atStart := func(n int) string { return unsafe.String(&mid[0], n) }
		for n := 1; n <= 300; n++ {
			for size := 1; size <= 17; size++ {
				for pos := range size {
					keys := make([]string, size)
					for j := range keys {
						// The other lanes hold keys of other lengths at the edges.
						m := (n + 7*j) % 301
						if j%2 == 0 {
							keys[j] = atStart(m)
						} else {
							keys[j] = atEnd(m)
						}
					}
					for _, k := range []string{atEnd(n), atStart(n)} {
						keys[pos] = k
						dst := make([]uint64, size)
						hashKeys(kindString, dst, keys)
						for j, k := range keys {
							if want := xxh3.HashString(k); dst[j] != want {
								t.Fatalf("%v: key %d of %d bytes hashed to %#x, want %#x", v.name, j, len(k), dst[j], want)
							}
						}
					}
				}
			}
		}
	})
}

// guardedPage returns a page of random bytes between two inaccessible
// pages, released at the end of the test: a read past either end faults.
func guardedPage(t *testing.T) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	r := rand.New(rand.NewPCG(9, 9))
	for i := range mem {
		mem[i] = byte(r.Uint32())
	}
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(mem[2*page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return mem[page : 2*page]
}
