//go:build linux

package bloom

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/format"
)

// sparseScalable writes, at the start of a sparse file of size bytes, a
// Scalable encoding's header whose payload is the rest of the file and
// claims as many stages as that could hold (size/128), with the
// parameters and the first stage of a real encoding and growth stopped
// (planned keys 2^64-1, so that the parameters agree with any number of
// stages), the no-payload-CRC flag set (no check reads the whole file);
// zeros follow the first stage. It maps the file read-only and returns
// the bytes, which stay mapped until the test ends.
func sparseScalable(t *testing.T, size int64) []byte {
	t.Helper()
	if unsafe.Sizeof(uintptr(0)) < 8 {
		t.Skip("a sparse file of hundreds of GiB needs a 64-bit address space")
	}
	s, err := NewScalable[uint64](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	enc := mustMarshal(t, s) // one stage
	le := binary.LittleEndian
	stages := uint64(size-format.HeaderSize-format.ScalableParamBytes) / format.ScalableMinStage
	le.PutUint64(enc[format.OffBlocks:], stages)
	le.PutUint64(enc[format.OffPayloadLen:], uint64(size-format.HeaderSize))
	le.PutUint64(enc[format.HeaderSize+spPlanned:], math.MaxUint64)
	withoutPayloadCRC(enc)
	if _, err := format.Parse(enc, format.Scalable); err != nil {
		t.Fatalf("the crafted header: %v", err)
	}
	name := filepath.Join(t.TempDir(), "huge.sblm")
	if err := os.WriteFile(name, enc, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, size); err != nil {
		t.Skipf("no sparse file of %d GiB here: %v", size>>30, err)
	}
	fd, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	b, err := syscall.Mmap(int(fd.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skipf("cannot map %d GiB: %v", size>>30, err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return b
}

// allocated returns the bytes the heap allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestScalableSparseHugeClaim maps sparse files of 1 GiB, 200 GiB and
// 1 TiB holding one valid Scalable header that claims size/128 stages, a
// valid first stage and zeros after it (issue 33: Reset allocated 40 bytes
// and UnmarshalBinary 8 for every claimed stage, and both planned every
// claimed stage, before looking at stage 0: a fatal out of memory from 200
// GiB on). ScalableView.Reset and Scalable.UnmarshalBinary must refuse
// each at stage 1 (ErrCorrupt) allocating a few kilobytes, whatever the
// stage count claimed. (The 1 GiB file shows a regression as a failure
// where the larger ones would kill the test binary.)
func TestScalableSparseHugeClaim(t *testing.T) {
	for _, c := range []struct {
		name string
		size int64
	}{{"1GiB", 1 << 30}, {"200GiB", 200 << 30}, {"1TiB", 1 << 40}} {
		t.Run(c.name, func(t *testing.T) {
			b := sparseScalable(t, c.size)
			const most = 64 << 10
			check := func(what string, err error, n uint64) {
				t.Helper()
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "stage 1") {
					t.Errorf("%s: %v, want ErrCorrupt at stage 1", what, err)
				}
				if n > most {
					t.Errorf("%s: %d bytes allocated for a claim of %d stages, want at most %d", what, n, binary.LittleEndian.Uint64(b[format.OffBlocks:]), most)
				}
				t.Logf("%s: %d bytes allocated: %v", what, n, err)
			}
			if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
				var v ScalableView[uint64]
				var err error
				n := allocated(func() { err = v.Reset(b) })
				check("ScalableView.Reset", err, n)
				if v.Has(1) {
					t.Error("the view finds a key after Reset failed")
				}
			}
			var g Scalable[uint64]
			var err error
			n := allocated(func() { err = g.UnmarshalBinary(b) })
			check("Scalable.UnmarshalBinary", err, n)
		})
	}
}
