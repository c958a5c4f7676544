package alloc

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/memlimit"
)

func addr(w []uint64) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(w))) }

func TestWordsAlignedAndZeroed(t *testing.T) {
	for _, n := range []uint64{1, 7, 8, 1000, HugeFrom/8 - 1, HugeFrom / 8, HugeFrom/8 + 12345} {
		for round := 0; round < 3; round++ {
			w := Words(n)
			if uint64(len(w)) != n || uint64(cap(w)) != n {
				t.Fatalf("Words(%d): len %d cap %d", n, len(w), cap(w))
			}
			want := uintptr(Align(n * 8))
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
		if uintptr(unsafe.Pointer(&b[0]))%uintptr(Align(n)) != 0 {
			t.Fatalf("Bytes(%d) not aligned to %d", n, Align(n))
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
		if Footprint(n) < n+Align(n)-8 {
			t.Fatalf("Footprint(%d) = %d, less than the slack needs", n, Footprint(n))
		}
	}
}

func TestGrow(t *testing.T) {
	b := append(make([]byte, 0, 10), "abc"...)
	if g, err := Grow(b, 7, nil); err != nil || &g[0] != &b[0] || cap(g) != 10 {
		t.Fatalf("Grow with room: cap %d, %v; want b itself", cap(g), err)
	}
	b = b[:3:3]
	g, err := Grow(b, 100, nil)
	if err != nil || string(g) != "abc" || cap(g)-len(g) < 100 {
		t.Fatalf("Grow(3 bytes, 100): %q cap %d, %v", g, cap(g), err)
	}
	big := make([]byte, 1<<20, 16<<20)
	if g, err := Grow(big, 16<<20, nil); err != nil || cap(g) != 20<<20 || len(g) != 1<<20 {
		t.Fatalf("Grow(1 MiB of cap 16 MiB, 16 MiB): len %d cap %d, %v; want cap 20 MiB (a quarter more)", len(g), cap(g), err)
	}
	defer memlimit.SetForTest(memlimit.Limit{Bytes: 40 << 20, Why: "the test's limit"})()
	what := func() string { return "the test's bytes" }
	if g, err := Grow(make([]byte, 10, 36<<20), 36<<20, what); err != nil || cap(g) != 10+36<<20 {
		t.Fatalf("Grow where a quarter more is too much but the need is not: cap %d, %v; want the need", cap(g), err)
	}
	g, err = Grow(b, 41<<20, what)
	if !errors.Is(err, errs.ErrTooLarge) || string(g) != "abc" ||
		!strings.Contains(err.Error(), "the test's bytes after 3 bytes need 43 MB (42991619 bytes), more than the test's limit") {
		t.Fatalf("Grow beyond the limit: %q, %v; want b and errs.ErrTooLarge", g, err)
	}
	if _, err := Grow(nil, math.MaxUint64, what); !errors.Is(err, errs.ErrTooLarge) {
		t.Fatalf("Grow(nil, 2^64-1): %v, want errs.ErrTooLarge", err)
	}
	if _, err := Grow([]byte{1}, math.MaxUint64, what); !errors.Is(err, errs.ErrTooLarge) {
		t.Fatalf("Grow(1 byte, 2^64-1): %v, want errs.ErrTooLarge", err)
	}
}
