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

// HashUint64 returns Hash(x): xxh3 of the 8-byte little-endian encoding of
// x, computed without building the bytes. Unlike the generic Hash, Go inlines
// it, so use it where a loop hashes one uint64 at a time for HasHash or
// AddHash of an engine.
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
func hashKind[K Key](kd keyKind, p *K) uint64 { return hashAt(kd, unsafe.Pointer(p)) }

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

// chunk is how many keys the batch methods hash before calling a kernel:
// small enough to stay in L1 on the stack, large enough to amortize the call.
const chunk = 256

// keyChunks is the typed batch path: it hashes a batch of keys a chunk at a
// time, into a buffer on its caller's stack, for every batch method (AddAll,
// HasAll and RemoveAll of Filter, FilterView, Counting, Cuckoo and
// Scalable), each a loop over next:
//
//	c := keyChunks[K]{kind: f.kind, keys: keys}
//	for hs, at := c.next(); len(hs) > 0; hs, at = c.next() {
//		found += f.f.HasHashes(hs, out[at:])
//	}
//
// It is a struct rather than an interface over the engines or a callback:
// then each engine's batch call is static, and the buffer does not escape
// to the heap (an interface, method value or type-parameter method call
// would move it there on every call).
type keyChunks[K Key] struct {
	kind keyKind // of K, not kindInvalid
	keys []K
	at   int // index in keys of the next chunk
	buf  [chunk]uint64
}

// next hashes the next chunk of keys and returns the hashes and the index in
// keys of the first one: hs[i] = Hash(keys[at+i]). hs is empty when every
// key is done.
func (c *keyChunks[K]) next() (hs []uint64, at int) {
	at = c.at
	hs = c.buf[:min(len(c.keys)-at, chunk)]
	hashKeys(c.kind, hs, c.keys[at:at+len(hs)])
	c.at += len(hs)
	return hs, at
}

// widen sets dst[i] to src[i] widened to 64 bits (signed types
// sign-extended), as intBits does; len(dst) >= len(src).
func widen[T int8 | int16 | int32 | uint8 | uint16 | uint32](dst []uint64, src []T) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = uint64(v)
	}
}

// The CPU features of the amd64 kernels (kernels_avx2_amd64.s,
// kernels_avx512_amd64.s and kernels_amd64.s, one file per instruction set):
// every one lists what its instructions need (the Requires line avo writes
// above it; TestKernelFeatures checks each against the kernels table of
// kernels_check_amd64_test.go), and runs
// only where cpu.Can allows it, or, for the typed kernels' versions, where
// cpu.Active is at their level (ByLevel). Elsewhere none of them runs:
// Active is never an amd64 level.
var (
	// kAVX2 is the AVX2 integer hashing.
	kAVX2 = cpu.Kernel{Level: cpu.AVX2, Needs: cpu.FeatureAVX | cpu.FeatureAVX2 | cpu.FeatureSSE2}
	// kStr2 is the AVX2 string hashing of one length class, and kMix2 that
	// of mixed lengths; both prefetch the keys ahead (MMX+).
	kStr2 = cpu.Kernel{Level: cpu.AVX2, Needs: cpu.FeatureAVX | cpu.FeatureAVX2 | cpu.FeatureSSE2 | cpu.FeatureMMXExt}
	kMix2 = cpu.Kernel{Level: cpu.AVX2, Needs: cpu.FeatureAVX | cpu.FeatureAVX2 | cpu.FeatureMMXExt}
	// kWords512 is the AVX-512 integer hashing.
	kWords512 = cpu.Kernel{Level: cpu.AVX512, Needs: cpu.FeatureAVX | cpu.FeatureAVX512F | cpu.FeatureAVX512DQ}
	// kStr512 is the AVX-512 string hashing, which prefetches the keys ahead
	// (MMX+), and kStrIFMA the classes that multiply with IFMA.
	kStr512 = cpu.Kernel{Level: cpu.AVX512, Needs: cpu.FeatureAVX | cpu.FeatureAVX512F | cpu.FeatureAVX512DQ |
		cpu.FeatureAVX512VL | cpu.FeatureAVX512BW | cpu.FeatureMMXExt}
	kStrIFMA = cpu.Kernel{Level: cpu.AVX512, Needs: kStr512.Needs | cpu.FeatureAVX512IFMA}
	// kTypedEntry is the one-key entry points: Filter[K].Has and Add's,
	// hasTyped and addTyped, and Window.Has's and HasAll's, hasGens and
	// hasGensAll. They jump to their AVX2 versions (kTypedAVX2 and
	// kWindowAVX2, which need only what their level guarantees: ByLevel)
	// where cpu.Active is AVX2 or above, or run code that every amd64
	// processor has (hasGens and hasGensAll: Go's hasGensGo and
	// hasGensAllGo).
	kTypedEntry = cpu.Kernel{Level: cpu.Generic}
	kTypedAVX2  = cpu.Kernel{Level: cpu.AVX2, Needs: cpu.FeatureAVX | cpu.FeatureAVX2, ByLevel: true}
	// kWindowAVX2 is Window.HasAll's AVX2 lookup, hasGensAllAVX2, which
	// prefetches blocks ahead (MMX+); its entry point, hasGensAll, is a
	// kTypedEntry that falls back to Go's hasGensAllGo.
	kWindowAVX2 = cpu.Kernel{Level: cpu.AVX2, Needs: cpu.FeatureAVX | cpu.FeatureAVX2 | cpu.FeatureMMXExt, ByLevel: true}
)

// hashWords sets dst[i] = HashUint64(src[i]); len(dst) >= len(src), and dst
// may be src. At the AVX-512 and AVX2 levels it runs the kernels generated
// by asm/bloom_avx512.go and bloom_avx2.go into kernels_avx512_amd64.s and
// kernels_avx2_amd64.s; AVX2 hashes four keys at a time and leaves the rest
// to the Go loop. At other levels, and on every other architecture, it is
// the Go loop.
func hashWords(dst, src []uint64) {
	switch {
	case kWords512.Runs():
		if len(src) > 0 {
			hashUint64sAVX512(dst[:len(src)], src)
		}
		return
	case kAVX2.Runs():
		n := len(src) &^ 3
		if n > 0 {
			hashUint64sAVX2(dst[:n], src[:n])
		}
		hashWordsGo(dst[n:], src[n:])
		return
	}
	hashWordsGo(dst, src)
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
// at the AVX-512 and AVX2 levels; the others are hashed by the Go loop. The
// AVX-512 level hashes 65-128-byte keys with the AVX2 kernels (avo's
// register allocator fails on the zmm kernels of three and four rounds).
const (
	strSIMD512 = 1<<str4 | 1<<str9 | 1<<str17 | 1<<str33 | 1<<str65 | 1<<str97
	strSIMD2   = 1<<str4 | 1<<str9 | 1<<str17 | 1<<str33 | 1<<str65 | 1<<str97
)

// strLo[c] and strHi[c] are the shortest and longest key of class c.
var strLo, strHi = [strClasses]int{0, 4, 9, 17, 33, 65, 97}, [strClasses]int{0, 8, 16, 32, 64, 96, 128}

// strKernel hashes the keys at keys into dst while they are of class c (one
// the level's mask holds), a group of the level's width at a time; len(dst)
// is a multiple of that width. It returns how many keys it hashed: len(dst),
// or fewer if a group holds a key of another class. At AVX-512 the classes
// with 64x64->128-bit multiplies (9-16, 17-32, 33-64 bytes) run the kernels
// that multiply with AVX-512 IFMA where kStrIFMA may run, and those that
// build each multiply from four VPMULUDQ otherwise; the 65-128-byte classes
// run the AVX2 kernels at both levels (hashStrings checks that kStr2 may run
// at AVX-512 too).
func strKernel(avx512 bool, c uint8, dst []uint64, keys *string) int {
	if avx512 {
		ifma := kStrIFMA.Runs()
		switch {
		case c == str4:
			return hashStr4AVX512(dst, keys)
		case c == str9 && ifma:
			return hashStr9IFMA(dst, keys)
		case c == str9:
			return hashStr9AVX512(dst, keys)
		case c == str17 && ifma:
			return hashStr17IFMA(dst, keys)
		case c == str17:
			return hashStr17AVX512(dst, keys)
		case c == str33 && ifma:
			return hashStr33IFMA(dst, keys)
		case c == str33:
			return hashStr33AVX512(dst, keys)
		}
	}
	switch c {
	case str4:
		return hashStr4AVX2(dst, keys)
	case str9:
		return hashStr9AVX2(dst, keys)
	case str17:
		return hashStr17AVX2(dst, keys)
	case str33:
		return hashStr33AVX2(dst, keys)
	case str65:
		return hashStr65AVX2(dst, keys)
	case str97:
		return hashStr97AVX2(dst, keys)
	}
	return 0
}

// strTable512 and strTable2 map min(n, 129) to the class of a key of n
// bytes at the AVX-512 and AVX2 levels: classes the level hashes in Go are
// strGo.
var strTable512, strTable2 = strTable(strSIMD512), strTable(strSIMD2)

func strTable(simd uint8) (t [130]uint8) {
	for n, c := range strClassOf {
		if simd>>c&1 != 0 {
			t[n] = c
		}
	}
	return t
}

// hashStrings sets dst[i] to the xxh3 hash of the i-th of len(dst) strings or
// byte slices whose headers start at keys, stride bytes apart (16 for
// strings, 24 for slices). At the AVX-512 and AVX2 levels it is
// hashStringsSIMD (byte slices through copies of up to strChunk of their
// headers as string headers); at other levels, and on every other
// architecture, it is the Go loop.
func hashStrings(dst []uint64, keys *string, stride uintptr) {
	var avx512 bool
	switch {
	case kStr512.Runs() && kStr2.Runs() && kMix2.Runs(): // the AVX-512 level runs AVX2 kernels too
		avx512 = true
	case kStr2.Runs() && kMix2.Runs():
	default:
		hashStringsGo(dst, keys, stride)
		return
	}
	if stride == unsafe.Sizeof("") {
		hashStringsSIMD(dst, unsafe.Slice(keys, len(dst)), avx512)
		return
	}
	for len(dst) > 0 {
		n := min(len(dst), strChunk)
		hashSliceChunk(dst[:n], keys, stride, avx512)
		dst = dst[n:]
		if len(dst) == 0 {
			break // keys must not point past the caller's slice (checkptr)
		}
		keys = (*string)(unsafe.Add(unsafe.Pointer(keys), uintptr(n)*stride))
	}
}

// strChunk is how many byte-slice headers hashSliceChunk copies at a time.
const strChunk = 256

// hashSliceChunk is hashStringsSIMD for up to strChunk byte-slice headers
// stride bytes apart, through a copy of them as string headers (in its own
// frame, so that strings do not pay for zeroing it).
func hashSliceChunk(dst []uint64, keys *string, stride uintptr, avx512 bool) {
	var tmp [strChunk]string
	for i := range dst {
		tmp[i] = keyAt(keys, stride, i)
	}
	hashStringsSIMD(dst, tmp[:len(dst)], avx512)
}

// mixWindow is how many keys hashStringsSIMD gives the mixed-length kernel
// at a time, before it tries a one-class kernel again.
const mixWindow = 256

// hashStringsSIMD is hashStrings at the AVX-512 or AVX2 level for len(dst)
// string headers ks. Where a key of a SIMD class starts a run of groups of
// that class (groups of eight keys at AVX-512, four at AVX2), the class's
// kernel (strKernel) hashes the run, with no blends; elsewhere the
// mixed-length kernel, hashStrMixAVX2, hashes the next mixWindow keys
// (rounded down to a group of four), each lane with its own length's
// formula, and the Go loop rehashes the few keys it flags (fewer than 4 or
// more than 128 bytes). The Go loop hashes the last keys (fewer than four).
// There is no AVX-512 mixed-length kernel: sorting a batch's keys by class
// for the AVX-512 class kernels measured slower than the AVX2 one (PERF.md).
func hashStringsSIMD(dst []uint64, ks []string, avx512 bool) {
	tbl, w := &strTable2, 4
	if avx512 {
		tbl, w = &strTable512, 8
	}
	var flags [mixWindow / 4]uint8
	for len(ks) >= 4 {
		if c := tbl[min(len(ks[0]), 129)]; c != strGo && len(ks) >= w {
			if m := strKernel(avx512, c, dst[:len(ks)&^(w-1)], &ks[0]); m > 0 {
				dst, ks = dst[m:], ks[m:]
				continue
			}
		}
		n := min(len(ks), mixWindow) &^ 3
		hashStrMixAVX2(dst[:n], &ks[0], &flags[0])
		for g, f := range flags[:n/4] {
			for f != 0 {
				i := 4*g + bits.TrailingZeros8(f)
				dst[i] = xxh3.HashString(ks[i])
				f &= f - 1
			}
		}
		dst, ks = dst[n:], ks[n:]
	}
	for i, k := range ks {
		dst[i] = xxh3.HashString(k)
	}
}
