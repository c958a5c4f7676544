package bloom

import "unsafe"

// hashUint64s sets dst[i] = HashUint64 of keys[i], for keys of 64-bit
// integer kinds; len(dst) == len(keys).
func hashUint64s[K Key](dst []uint64, keys []K) {
	src := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(keys))), len(keys))
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = HashUint64(x)
	}
}
