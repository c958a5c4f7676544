package bloom

import (
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/blocked"
)

// Filter[K].Has and Add are each one call to hasTyped or addTyped (generated
// by ../asm/typed.go on amd64, dispatch_other.go elsewhere), which take the
// filter as the *typedFilter it holds and the key by address, so that Go inlines the
// generic method into its caller for every K. On amd64 they hash the key
// (integers, and strings and byte slices of up to 240 bytes) and probe the
// engine themselves, and tail-call the Go functions below, which have
// their signature, for longer keys and the zero Filter.

// typedArgs returns the engine and the kind of the Filter[K] of f, whatever K.
func typedArgs(f *typedFilter) (*blocked.Filter, keyKind) {
	if typedSlowHook != nil {
		typedSlowHook()
	}
	return f.f, f.kind
}

// typedSlowHook is nil except in tests, which set it to count the calls of
// the Go functions below: on amd64 the typed kernels answer every key of up
// to 240 bytes without them (TestTypedFastPath).
var typedSlowHook func()

// hasString is Has for the string at p, of a Filter[K] whose kind is kindString.
func hasString(f *typedFilter, p *uint64) bool {
	e, _ := typedArgs(f)
	return e.HasHash(xxh3.HashString(*(*string)(unsafe.Pointer(p))))
}

// addString is Add for the string at p, of a Filter[K] whose kind is kindString.
func addString(f *typedFilter, p *uint64) {
	e, _ := typedArgs(f)
	e.AddHash(xxh3.HashString(*(*string)(unsafe.Pointer(p))))
}

// hashAt returns Hash of the key at u, whose type is of kind kd (not kindInvalid).
func hashAt(kd keyKind, u unsafe.Pointer) uint64 {
	switch kd {
	case kindString:
		return xxh3.HashString(*(*string)(u))
	case kindBytes:
		return xxh3.Hash(*(*[]byte)(u))
	}
	return HashUint64(intBits(kd, u))
}
