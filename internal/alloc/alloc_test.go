package alloc

import (
	"runtime"
	"testing"
	"unsafe"
)

func addr(w []uint64) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(w))) }

func TestWordsAlignedAndZeroed(t *testing.T) {
	for _, n := range []uint64{1, 7, 8, 1000, HugeFrom/8 - 1, HugeFrom / 8, HugeFrom/8 + 12345} {
		for round := 0; round < 3; round++ {
			w := Words(n)
			if uint64(len(w)) != n || uint64(cap(w)) != n {
				t.Fatalf("Words(%d): len %d cap %d", n, len(w), cap(w))
			}
			want := uintptr(align(n * 8))
			if addr(w)%want != 0 {
				t.Fatalf("Words(%d) at %#x, not aligned to %d", n, addr(w), want)
			}
			for i, x := range w {
				if x != 0 {
					t.Fatalf("Words(%d)[%d] = %#x, round %d", n, i, x, round)
				}
			}
			// Dirty the memory so that the next round may get it back
			// from the runtime, which then must still hand it out zeroed.
			for i := range w {
				w[i] = ^uint64(0)
			}
			runtime.GC()
		}
	}
	if Words(0) != nil || Bytes(0) != nil {
		t.Fatal("Words(0) or Bytes(0) is not nil")
	}
}

func TestBytes(t *testing.T) {
	for _, n := range []uint64{1, 9, 4096, HugeFrom + 3} {
		b := Bytes(n)
		if uint64(len(b)) != n {
			t.Fatalf("Bytes(%d): len %d", n, len(b))
		}
		if uintptr(unsafe.Pointer(&b[0]))%uintptr(align(n)) != 0 {
			t.Fatalf("Bytes(%d) not aligned to %d", n, align(n))
		}
		b[n-1] = 1 // the last byte is writable
	}
}

func TestFootprint(t *testing.T) {
	if hugePages && Footprint(HugeFrom) != HugeFrom+hugePage-8 {
		t.Fatalf("Footprint(HugeFrom) = %d", Footprint(HugeFrom))
	}
	if Footprint(64) != 64+lineBytes-8 {
		t.Fatalf("Footprint(64) = %d", Footprint(64))
	}
	for _, n := range []uint64{8, 800, HugeFrom, 3 * HugeFrom} {
		if Footprint(n) < n+align(n)-8 {
			t.Fatalf("Footprint(%d) = %d, less than the slack needs", n, Footprint(n))
		}
	}
}
