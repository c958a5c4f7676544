package alloc_test

import (
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/alloc/hugetest"
)

// TestHugeAdvised checks that an array of HugeFrom bytes or more is at a
// 2 MiB boundary and advised for huge pages (the "hg" flag of its mapping),
// where the advice can be seen (hugetest calibrates). Whether the kernel
// then grants huge pages depends on its free memory, so that is not
// checked; nor that small arrays are not advised: they may reuse the memory
// of a large one that was.
func TestHugeAdvised(t *testing.T) {
	for _, n := range []uint64{alloc.HugeFrom, alloc.HugeFrom + 8, 3 * alloc.HugeFrom} {
		w := alloc.Words(n / 8)
		hugetest.Check(t, "Words", unsafe.Pointer(&w[0]), n)
		b := alloc.Bytes(n)
		hugetest.Check(t, "Bytes", unsafe.Pointer(&b[0]), n)
	}
}
