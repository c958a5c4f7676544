package bloom

// The pure-Go reference path of the package: what runs where no assembly
// does (GOARCH other than amd64, or the purego tag, wired in
// dispatch_other.go), for keys the kernels leave to Go, and what the
// assembly must equal answer for answer (the tests compare them).

import (
	"unsafe"

	"github.com/zeebo/xxh3"
)

// hashWordsGo sets dst[i] = HashUint64(src[i]) in Go; len(dst) >= len(src),
// and dst may be src.
func hashWordsGo(dst, src []uint64) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = HashUint64(x)
	}
}

// keyAt returns the i-th of the string or slice headers that start at keys,
// stride bytes apart, as a string (a slice header begins like a string's).
func keyAt(keys *string, stride uintptr, i int) string {
	return *(*string)(unsafe.Add(unsafe.Pointer(keys), uintptr(i)*stride))
}

// hashStringsGo sets dst[i] = xxh3.HashString(keyAt(keys, stride, i)) in Go.
func hashStringsGo(dst []uint64, keys *string, stride uintptr) {
	for i := range dst {
		dst[i] = xxh3.HashString(keyAt(keys, stride, i))
	}
}

// hasSlow is Has for the key at p of any kind (the zero Filter answers false).
func hasSlow(f *typedFilter, p *uint64) bool {
	e, kind := typedArgs(f)
	if kind == kindInvalid {
		return false
	}
	return e.HasHash(hashAt(kind, unsafe.Pointer(p)))
}

// addSlow is Add for the key at p of any kind; it panics on the zero Filter.
func addSlow(f *typedFilter, p *uint64) {
	e, kind := typedArgs(f)
	if kind == kindInvalid {
		panic("bloom: Add" + zeroFilter)
	}
	e.AddHash(hashAt(kind, unsafe.Pointer(p)))
}
