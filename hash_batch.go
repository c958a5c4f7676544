package bloom

import "unsafe"

// hashKeys sets dst[i] = Hash(keys[i]) for keys of kind kind; len(dst) == len(keys).
//
// Integer keys hash in batches (in SIMD where the CPU allows, see hashWords):
// 64-bit kinds straight from the keys, narrower kinds after widening them
// into dst, as Hash widens them.
func hashKeys[K Key](kind keyKind, dst []uint64, keys []K) {
	dst = dst[:len(keys)]
	if len(keys) == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(keys))
	n := len(keys)
	switch kind {
	case kindUint64, kindInt64:
		hashWords(dst, unsafe.Slice((*uint64)(p), n))
		return
	case kindInt8:
		widen(dst, unsafe.Slice((*int8)(p), n))
	case kindInt16:
		widen(dst, unsafe.Slice((*int16)(p), n))
	case kindInt32:
		widen(dst, unsafe.Slice((*int32)(p), n))
	case kindUint8:
		widen(dst, unsafe.Slice((*uint8)(p), n))
	case kindUint16:
		widen(dst, unsafe.Slice((*uint16)(p), n))
	case kindUint32:
		widen(dst, unsafe.Slice((*uint32)(p), n))
	default: // strings and byte slices
		for i := range keys {
			dst[i] = hashKind(kind, &keys[i])
		}
		return
	}
	hashWords(dst, dst)
}

// widen sets dst[i] to src[i] widened to 64 bits (signed types
// sign-extended), as intBits does; len(dst) >= len(src).
func widen[T int8 | int16 | int32 | uint8 | uint16 | uint32](dst []uint64, src []T) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = uint64(v)
	}
}

// hashWordsGo sets dst[i] = HashUint64(src[i]) in Go; len(dst) >= len(src),
// and dst may be src.
func hashWordsGo(dst, src []uint64) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = HashUint64(x)
	}
}
