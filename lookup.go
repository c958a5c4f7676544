package bloom

import (
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/blocked"
)

// Lookup reports whether key may have been added to the Filter encoded in
// b, as Reset on a FilterView[K] of its own then Has would, without
// allocating: the checks are Reset's (neither checksum, see
// blocked.Verify), and a b that fails them gives false and Reset's error.
func Lookup[K Key](b []byte, key K) (bool, error) {
	// The key's hash, then one call into blocked's checked lookup, which
	// checks the header as FilterView.Reset does, the key hash (xxh3) and
	// the key family, and probes: on amd64 one assembly kernel. The error
	// of a b that fails comes from a FilterView[K], in this package's words.
	//
	// Byte strings and 64-bit integers are told apart by their size, which
	// Go folds for each key shape, so the tests cost nothing: on 64-bit
	// platforms 24 bytes is a ~[]byte, 16 a ~string, 8 a 64-bit integer
	// (which Hash does not widen). Narrower integers, and every key on
	// 32-bit platforms, go by kindFast.
	var h uint64
	keys := blocked.KeysBytes
	switch size := unsafe.Sizeof(key); {
	case unsafe.Sizeof(uintptr(0)) != 8:
		kd := kindFast[K]()
		h, keys = hashAt(kd, unsafe.Pointer(&key)), familyOf(kd)
	case size == unsafe.Sizeof([]byte(nil)):
		h = xxh3.Hash(*(*[]byte)(unsafe.Pointer(&key)))
	case size == unsafe.Sizeof(""):
		h = xxh3.HashString(*(*string)(unsafe.Pointer(&key)))
	case size == 8:
		h, keys = HashUint64(*(*uint64)(unsafe.Pointer(&key))), blocked.KeysIntegers
	default:
		h, keys = hashAt(kindFast[K](), unsafe.Pointer(&key)), blocked.KeysIntegers
	}
	found, err := blocked.LookupHashFor(b, h, blocked.HashXXH3, keys)
	if err != nil {
		return false, lookupErr[K](b, err)
	}
	return found, nil
}

// lookupErr returns the error of Lookup for a b that blocked.LookupHashFor
// refused with err: Reset's on a FilterView[K], which makes the same checks
// and says what is wrong in this package's words (err if it found none).
//
//go:noinline
func lookupErr[K Key](b []byte, err error) error {
	var v FilterView[K]
	if rerr := v.Reset(b); rerr != nil {
		return rerr
	}
	return err
}
