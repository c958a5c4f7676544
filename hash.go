package bloom

import (
	"math/bits"
	"reflect"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/internal/cpu"
)

// Key is the set of key types a typed filter accepts: strings, byte slices
// and integers, including named types built on them.
type Key interface {
	~string | ~[]byte |
		~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Hash returns the 64-bit hash simdbloom uses for key k: xxh3 (64-bit,
// seed 0) of the bytes of a string or byte slice, and of the 8-byte
// little-endian encoding of an integer. Integers are first widened to 64
// bits (signed types sign-extended), so equal values hash alike whatever
// their type: Hash(int8(-1)) == Hash(int64(-1)) and Hash(uint16(7)) == Hash(7).
func Hash[K Key](k K) uint64 {
	switch v := any(k).(type) {
	case string:
		return xxh3.HashString(v)
	case []byte:
		return xxh3.Hash(v)
	case uint64:
		return HashUint64(v)
	case int64:
		return HashUint64(uint64(v))
	case int:
		return HashUint64(uint64(v))
	case uint32:
		return HashUint64(uint64(v))
	case int32:
		return HashUint64(uint64(v))
	}
	return hashKind(kindOf[K](), &k)
}

// HashUint64 returns xxh3 of the 8-byte little-endian encoding of x, computed
// without building the bytes (equal to Hash(x) and to xxh3.Hash of those 8 bytes).
func HashUint64(x uint64) uint64 {
	// XXH3's 4-to-8-byte path at length 8: the two 32-bit halves swapped, XORed
	// with two words of the default secret, then the rrmxmx finalizer.
	const secret = 0x1cad21f72c81017c ^ 0xdb979083e96dd4de
	const prime = 0x9fb21c651e98df25
	h := bits.RotateLeft64(x, 32) ^ secret
	h ^= bits.RotateLeft64(h, 49) ^ bits.RotateLeft64(h, 24)
	h *= prime
	h ^= h>>35 + 8
	h *= prime
	return h ^ h>>28
}

// keyKind says how a key type is hashed. The zero keyKind is invalid, so a
// zero filter (whose kind was never set) can never take its keys for
// another type's: every typed method checks for it before it hashes.
type keyKind uint8

const (
	kindInvalid keyKind = iota
	kindString
	kindBytes
	kindInt8
	kindInt16
	kindInt32
	kindInt64
	kindUint8
	kindUint16
	kindUint32
	kindUint64
)

// kindOf returns how keys of type K are hashed, from their underlying kind.
func kindOf[K Key]() keyKind {
	t := reflect.TypeFor[K]()
	switch t.Kind() {
	case reflect.String:
		return kindString
	case reflect.Slice:
		return kindBytes
	case reflect.Int8:
		return kindInt8
	case reflect.Int16:
		return kindInt16
	case reflect.Int32:
		return kindInt32
	case reflect.Int, reflect.Int64:
		if t.Size() == 4 {
			return kindInt32
		}
		return kindInt64
	case reflect.Uint8:
		return kindUint8
	case reflect.Uint16:
		return kindUint16
	case reflect.Uint32:
		return kindUint32
	}
	if t.Size() == 4 { // uint or uintptr on 32-bit platforms
		return kindUint32
	}
	return kindUint64
}

// hashKind hashes the key at p, whose type is of kind kd.
func hashKind[K Key](kd keyKind, p *K) uint64 {
	u := unsafe.Pointer(p)
	switch kd {
	case kindString:
		return xxh3.HashString(*(*string)(u))
	case kindBytes:
		return xxh3.Hash(*(*[]byte)(u))
	}
	return HashUint64(intBits(kd, u))
}

// intBits returns the integer at u, of kind kd, widened to 64 bits.
func intBits(kd keyKind, u unsafe.Pointer) uint64 {
	switch kd {
	case kindInt8:
		return uint64(*(*int8)(u))
	case kindInt16:
		return uint64(*(*int16)(u))
	case kindInt32:
		return uint64(*(*int32)(u))
	case kindInt64:
		return uint64(*(*int64)(u))
	case kindUint8:
		return uint64(*(*uint8)(u))
	case kindUint16:
		return uint64(*(*uint16)(u))
	case kindUint32:
		return uint64(*(*uint32)(u))
	case kindUint64:
		return *(*uint64)(u)
	}
	panic("bloom: hashing a key of no known kind (a zero filter)")
}

// hashKeys sets dst[i] = Hash(keys[i]) for keys of kind kind; len(dst) == len(keys).
//
// Integer keys hash in batches (in SIMD where the CPU allows, see hashWords):
// 64-bit kinds straight from the keys, narrower kinds after widening them
// into dst, as Hash widens them. Strings and byte slices hash through
// hashStrings.
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
	case kindString:
		hashStrings(dst, (*string)(p), unsafe.Sizeof(""))
		return
	case kindBytes:
		hashStrings(dst, (*string)(p), unsafe.Sizeof([]byte(nil)))
		return
	case kindInvalid:
		panic("bloom: hashing keys of no known kind (a zero filter)")
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

// hashWords sets dst[i] = HashUint64(src[i]); len(dst) >= len(src), and dst
// may be src. At the AVX-512 and AVX2 levels it runs the kernels generated
// by asm/hash.go into hash_amd64.s (declared in hash_amd64.go); AVX2 hashes
// four keys at a time and leaves the rest to the Go loop. At other levels,
// and on every other architecture, it is the Go loop.
func hashWords(dst, src []uint64) {
	switch cpu.Active {
	case cpu.AVX512:
		if len(src) > 0 {
			hashUint64sAVX512(dst[:len(src)], src)
		}
		return
	case cpu.AVX2:
		n := len(src) &^ 3
		if n > 0 {
			hashUint64sAVX2(dst[:n], src[:n])
		}
		hashWordsGo(dst[n:], src[n:])
		return
	}
	hashWordsGo(dst, src)
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

// String length classes: XXH3's classes that the string kernels hash (see
// asm/hashstr.go), the 17-128-byte one split by the number of 32-byte rounds,
// and strGo for what Go hashes (empty keys, 1-3 bytes, more than 128).
const (
	strGo = iota
	str4  // 4-8 bytes
	str9  // 9-16
	str17 // 17-32
	str33 // 33-64
	str65 // 65-96
	str97 // 97-128
	strClasses
)

// strClassOf[min(n, 129)] is the class of a key of n bytes.
var strClassOf = func() (t [130]uint8) {
	for n := range t {
		switch {
		case n >= 4 && n <= 8:
			t[n] = str4
		case n >= 9 && n <= 16:
			t[n] = str9
		case n >= 17 && n <= 128:
			t[n] = str17 + uint8((n-1)/32)
		}
	}
	return t
}()

// strSIMD512 and strSIMD2 are the classes (bit c for class c) hashed in SIMD
// at the AVX-512 and AVX2 levels; the others are hashed by the Go loop.
const (
	strSIMD512 = 1<<str4 | 1<<str9 | 1<<str17 | 1<<str33
	strSIMD2   = 1<<str4 | 1<<str9 | 1<<str17 | 1<<str33 | 1<<str65 | 1<<str97
)

// strChunk is how many keys hashStrings sorts by class at a time; the
// class counts of a chunk share one word, 9 bits each.
const strChunk = 256

// strKernel hashes the keys at keys, all of class c (one the level's mask
// holds), into dst; len(dst) is a multiple of the level's width.
func strKernel(avx512 bool, c uint8, dst []uint64, keys *string) {
	if avx512 {
		switch c {
		case str4:
			hashStr4AVX512(dst, keys)
		case str9:
			hashStr9AVX512(dst, keys)
		case str17:
			hashStr17AVX512(dst, keys)
		case str33:
			hashStr33AVX512(dst, keys)
		}
		return
	}
	switch c {
	case str4:
		hashStr4AVX2(dst, keys)
	case str9:
		hashStr9AVX2(dst, keys)
	case str17:
		hashStr17AVX2(dst, keys)
	case str33:
		hashStr33AVX2(dst, keys)
	case str65:
		hashStr65AVX2(dst, keys)
	case str97:
		hashStr97AVX2(dst, keys)
	}
}

// hashStrings sets dst[i] to the xxh3 hash of the i-th of len(dst) strings or
// byte slices whose headers start at keys, stride bytes apart (16 for
// strings, 24 for slices). At the AVX-512 and AVX2 levels it hashes chunks of
// strChunk keys with hashStringChunk; at other levels, and on every other
// architecture, it is the Go loop.
func hashStrings(dst []uint64, keys *string, stride uintptr) {
	var simd uint8
	switch cpu.Active {
	case cpu.AVX512:
		simd = strSIMD512
	case cpu.AVX2:
		simd = strSIMD2
	default:
		hashStringsGo(dst, keys, stride)
		return
	}
	avx512 := cpu.Active == cpu.AVX512
	for len(dst) > 0 {
		n := min(len(dst), strChunk)
		hashStringChunk(dst[:n], keys, stride, avx512, simd)
		dst = dst[n:]
		keys = (*string)(unsafe.Add(unsafe.Pointer(keys), uintptr(n)*stride))
	}
}

// hashStringChunk is hashStrings for at most strChunk keys at one SIMD level
// (simd its class mask). Only a chunk whose keys are all of one SIMD class
// runs a kernel: strings in place, the last 0 to w-1 keys by Go (w the
// level's lane count); byte slices through a scratch array of string
// headers. That copy is a general class sort: it copies each SIMD class's
// headers into its own run (recording where each key came from), hashes the
// others in Go, pads each run to a multiple of w with copies of its last key,
// runs its kernel and stores the hashes back in key order.
func hashStringChunk(dst []uint64, keys *string, stride uintptr, avx512 bool, simd uint8) {
	w := 4
	if avx512 {
		w = 8
	}
	n := len(dst)
	var cls [strChunk]uint8
	var counts uint64 // class c's count in bits 9c to 9c+8
	for i := range dst {
		c := strClassOf[min(len(keyAt(keys, stride, i)), 129)]
		if simd>>c&1 == 0 {
			c = strGo
		}
		cls[i] = c
		counts += 1 << (9 * c)
	}
	c := cls[0]
	if c == strGo || int(counts>>(9*c)&511) != n {
		// Mixed classes: sorting them cost more than the kernels saved
		// (PERF.md), so Go hashes them.
		hashStringsGo(dst, keys, stride)
		return
	}
	if stride == unsafe.Sizeof("") {
		m := n &^ (w - 1)
		if m > 0 {
			strKernel(avx512, c, dst[:m], keys)
		}
		hashStringsGo(dst[m:], (*string)(unsafe.Add(unsafe.Pointer(keys), uintptr(m)*stride)), stride)
		return
	}
	var start, pos [strClasses]int
	end := 0
	for c := 1; c < strClasses; c++ {
		start[c], pos[c] = end, end
		end += (int(counts>>(9*c)&511) + w - 1) &^ (w - 1)
	}
	var tmp [strChunk + strClasses*8]string
	var from [strChunk + strClasses*8]uint8
	var out [strChunk + strClasses*8]uint64
	for i, c := range cls[:n] {
		s := keyAt(keys, stride, i)
		if c == strGo {
			dst[i] = xxh3.HashString(s)
			continue
		}
		p := pos[c]
		tmp[p], from[p] = s, uint8(i)
		pos[c] = p + 1
	}
	for c := 1; c < strClasses; c++ {
		if pos[c] == start[c] {
			continue
		}
		stop := start[c] + (pos[c]-start[c]+w-1)&^(w-1)
		for p := pos[c]; p < stop; p++ {
			tmp[p], from[p] = tmp[p-1], from[p-1]
		}
		strKernel(avx512, uint8(c), out[start[c]:stop], &tmp[start[c]])
	}
	for j, i := range from[:end] {
		dst[i] = out[j]
	}
}
