package bloom

import (
	"runtime"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// Lookup reports whether key may have been added to the Filter encoded in
// b, as Reset on a FilterView[K] of its own then Has would, without
// allocating: the checks are Reset's (neither checksum, see
// blocked.Verify), and a b that fails them gives false and Reset's error.
func Lookup[K Key](b []byte, key K) (bool, error) {
	// blocked.LookupHash's checks on the header's words, with the key hash
	// and family, then the one-key kernel on an engine made on the stack.
	// Byte strings and 64-bit integers are hashed here and probed with
	// blocked.Filter.HasHash (xxh3.Hash then the kernel measured faster
	// than the fused hash-and-probe kernel of Filter[K].Has on 13-byte
	// keys); smaller integers take the fused kernel. Anything else (an
	// error, a platform that needs aligned words) goes to lookupSlow.
	//
	// The size of K tells the kinds apart, and Go folds it for each key
	// shape, so the tests cost nothing: on the 64-bit platforms of
	// lookupDirect, 24 bytes is a ~[]byte, 16 a ~string, 8 a 64-bit
	// integer (hashed as Hash widens it), less a smaller integer.
	if lookupDirect && len(b) >= blocked.HeaderSize+blocked.BlockBits/8 {
		size := unsafe.Sizeof(key)
		want := uint64(blocked.KeysIntegers)
		if size == unsafe.Sizeof([]byte(nil)) || size == unsafe.Sizeof("") {
			want = uint64(blocked.KeysBytes)
		}
		p := unsafe.Pointer(unsafe.SliceData(b))
		w0 := *(*uint64)(p) // magic, version, variant, k
		nb := *(*uint64)(unsafe.Add(p, format.OffBlocks))
		n := uint64(len(b)) - blocked.HeaderSize
		fam := uint64(*(*uint32)(unsafe.Add(p, format.OffCompat)) & format.CompatKeyMask)
		// w0 less the head and k = 8: zero but for k-8 (0 or 8) in the
		// top byte. A recorded family (fam != 0) must be K's, which is 1
		// or 2: fam&(fam^want) is zero only then.
		bad := (w0-(filterHead|8<<56))&^(8<<56) |
			(nb-1)>>32 | // 1 <= nb <= MaxBlocks, so nb<<6 cannot wrap
			(nb<<6 ^ n) |
			(*(*uint64)(unsafe.Add(p, format.OffPayloadLen)) ^ n) |
			uint64(*(*uint32)(unsafe.Add(p, format.OffIncompat))&^format.KnownIncompat) |
			uint64(*(*uint8)(unsafe.Add(p, format.OffHash))^uint8(blocked.HashXXH3)) |
			fam&(fam^want)
		if bad == 0 {
			e := engineWords{p: unsafe.Add(p, blocked.HeaderSize), nb: uint(nb), c: uint(nb), k: int(w0 >> 56), tail: 0}
			eng := (*blocked.Filter)(unsafe.Pointer(&e))
			switch {
			case size == unsafe.Sizeof([]byte(nil)):
				return eng.HasHash(xxh3.Hash(*(*[]byte)(unsafe.Pointer(&key)))), nil
			case size == unsafe.Sizeof(""):
				return eng.HasHash(xxh3.HashString(*(*string)(unsafe.Pointer(&key)))), nil
			case size == 8:
				return eng.HasHash(HashUint64(*(*uint64)(unsafe.Pointer(&key)))), nil
			}
			t := Filter[K]{f: eng, kind: kindFast[K]()}
			return hasTyped((*[2]uint64)(unsafe.Pointer(&t)), (*uint64)(unsafe.Pointer(&key))), nil
		}
	}
	return lookupSlow(b, key)
}

// lookupDirect is true where Lookup may use an encoding's payload in
// place at any address (little-endian machines that load unaligned words)
// and tell its key kinds apart by their size (64-bit words).
const lookupDirect = (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") && unsafe.Sizeof(uintptr(0)) == 8

// filterHead is the first seven bytes of a Filter encoding as a
// little-endian word: the magic "SBLM", the version and the variant.
const filterHead = 'S' | 'B'<<8 | 'L'<<16 | 'M'<<24 | uint64(blocked.FormatVersion)<<32 | uint64(blocked.VariantFilter)<<48

// engineWords has the layout of a blocked.Filter (its blocks, k, then key
// hash and family), for Lookup's engine on the stack, every field set so
// that nothing is zeroed first; the kernels and blocked.Filter's Go
// lookups read no more than that.
type engineWords struct {
	p     unsafe.Pointer
	nb, c uint // the blocks' slice's length and capacity
	k     int
	tail  uint // key hash and family (unread by lookups), padding
}

// This fails to compile if engineWords is no longer a blocked.Filter's size.
const _ = uint(unsafe.Sizeof(engineWords{})-unsafe.Sizeof(blocked.Filter{})) +
	uint(unsafe.Sizeof(blocked.Filter{})-unsafe.Sizeof(engineWords{}))

// lookupSlow is Lookup through a FilterView: where the payload cannot be
// used in place as Lookup does, or for a b that fails the checks (whose
// error it returns).
//
//go:noinline
func lookupSlow[K Key](b []byte, key K) (bool, error) {
	var v blocked.FilterView
	if err := v.Reset(b); err != nil {
		return false, err
	}
	if id := v.KeyHash(); id != blocked.HashXXH3 {
		return false, checkHash(id)
	}
	if keys := v.KeyFamily(); keys != blocked.KeysUnrecorded && keys != keyFamily[K]() {
		return false, checkFamily[K](keys, "FilterView") // Reset's error
	}
	t := Filter[K]{f: (*blocked.Filter)(unsafe.Pointer(&v)), kind: kindFast[K]()} // as FilterView.Has
	return t.Has(key), nil
}
