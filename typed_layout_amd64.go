//go:build !purego

package bloom

import "unsafe"

// The typed kernels read Filter[K].f at offset 0 and Filter[K].kind at 8,
// and compare the kind with these values: these fail to compile if the
// layout or the values change.
const (
	_ = uint(unsafe.Offsetof(Filter[uint64]{}.f) - 0)
	_ = uint(0 - unsafe.Offsetof(Filter[uint64]{}.f))
	_ = uint(unsafe.Offsetof(Filter[uint64]{}.kind) - 8)
	_ = uint(8 - unsafe.Offsetof(Filter[uint64]{}.kind))
	_ = uint(unsafe.Sizeof(Filter[uint64]{}) - 16)
	_ = uint(16 - unsafe.Sizeof(Filter[uint64]{}))
	_ = uint(kindString - 1)
	_ = uint(1 - kindString)
	_ = uint(kindInt64 - 6)
	_ = uint(6 - kindInt64)
	_ = uint(kindUint64 - 10)
	_ = uint(10 - kindUint64)
	_ = uint(unsafe.Sizeof(keyKind(0)) - 1)
)
