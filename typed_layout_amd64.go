//go:build !purego

package bloom

import "unsafe"

// The typed kernels read Filter[K].f at offset 0 and Filter[K].kind, a
// byte, at 8: these fail to compile if the layout changes. (The offsets of
// blocked.Filter that their probe reads are checked in package blocked,
// dispatch_amd64.go.)
const (
	_ = uint(unsafe.Offsetof(Filter[uint64]{}.f) - 0)
	_ = uint(0 - unsafe.Offsetof(Filter[uint64]{}.f))
	_ = uint(unsafe.Offsetof(Filter[uint64]{}.kind) - 8)
	_ = uint(8 - unsafe.Offsetof(Filter[uint64]{}.kind))
	_ = uint(unsafe.Sizeof(Filter[uint64]{}) - 16)
	_ = uint(16 - unsafe.Sizeof(Filter[uint64]{}))
	_ = uint(unsafe.Sizeof(keyKind(0)) - 1)
	_ = uint(1 - unsafe.Sizeof(keyKind(0)))
)

// The kind values of asm/typed.go: keyKind is unsigned, so (k - v) | (v - k)
// compiles only for k == v.
const (
	_ = (kindInvalid - 0) | (0 - kindInvalid)
	_ = (kindString - 1) | (1 - kindString)
	_ = (kindBytes - 2) | (2 - kindBytes)
	_ = (kindInt8 - 3) | (3 - kindInt8)
	_ = (kindInt16 - 4) | (4 - kindInt16)
	_ = (kindInt32 - 5) | (5 - kindInt32)
	_ = (kindInt64 - 6) | (6 - kindInt64)
	_ = (kindUint8 - 7) | (7 - kindUint8)
	_ = (kindUint16 - 8) | (8 - kindUint16)
	_ = (kindUint32 - 9) | (9 - kindUint32)
	_ = (kindUint64 - 10) | (10 - kindUint64)
)
