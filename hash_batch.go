package bloom

import "unsafe"

// hashKeys sets dst[i] = Hash(keys[i]) for keys of kind kind; len(dst) == len(keys).
func hashKeys[K Key](kind keyKind, dst []uint64, keys []K) {
	dst = dst[:len(keys)]
	if kind == kindUint64 || kind == kindInt64 {
		hashUint64s(dst, keys)
		return
	}
	for i := range keys {
		dst[i] = hashKind(kind, &keys[i])
	}
}

// hashUint64s sets dst[i] = HashUint64 of keys[i], for keys of 64-bit
// integer kinds; len(dst) == len(keys).
func hashUint64s[K Key](dst []uint64, keys []K) {
	src := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(keys))), len(keys))
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = HashUint64(x)
	}
}
