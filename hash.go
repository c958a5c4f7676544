package bloom

import (
	"math/bits"
	"reflect"
	"unsafe"

	"github.com/zeebo/xxh3"
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

// keyKind says how a key type is hashed.
type keyKind uint8

const (
	kindString keyKind = iota
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
	}
	return *(*uint64)(u)
}
