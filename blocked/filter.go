package blocked

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"

	"github.com/simdbloom/bloom/internal/errs"
)

// block is one cache line: eight 64-bit words.
type block [8]uint64

// Filter is a cache-line blocked Bloom filter over 64-bit hashes. Create
// one with New or NewBytes, or decode one with UnmarshalBinary or ReadFrom.
//
// The zero value is an empty filter with no blocks, ready for
// UnmarshalBinary or ReadFrom: its lookups answer false, its read-only
// methods 0, Clear does nothing, MarshalBinary, AppendBinary and WriteTo
// return an error wrapping bloom.ErrGeometry, and the methods that add keys (and
// Union, Intersect) panic.
type Filter struct {
	// The one-key assembly (filterAddOne, filterHasOne, and the root
	// package's typed kernels) reads blocks' data pointer and length and k
	// at the offsets that ../asm takes from this declaration at go
	// generate (kernels_amd64.go pins them: see ../asm/pins.go).
	//
	// A zero Filter has no blocks and k = 0: the amd64 one-key lookup
	// returns false for any k other than 8 and 16 (so the check costs the
	// k = 8 path nothing), the Go paths test the length.
	blocks []block   // 64-byte aligned
	k      int       // 8 or 16
	hash   HashID    // key hash the caller recorded (KeyHash); after k, whose offset the assembly reads
	keys   KeyFamily // key family the caller recorded (KeyFamily)
}

// New returns the smallest Filter whose exact false-positive rate for n keys
// is at most fpr, with k = 8 or k = 16, whichever needs less memory.
// It is the filter Size(n, fpr) describes, and returns its errors; it
// also returns bloom.ErrTooLarge for a filter this platform cannot allocate.
func New(n uint64, fpr float64) (*Filter, error) {
	s, err := Size(n, fpr)
	if err != nil {
		return nil, err
	}
	if err := checkAlloc(s.Blocks, 64, keysAt(n, fpr)); err != nil {
		return nil, err
	}
	return newFilter(s.Blocks, s.K), nil
}

// NewBytes returns an empty Filter of numBytes bytes, rounded up to a whole
// number of 64-byte blocks, setting k bits per key. It returns bloom.ErrGeometry
// if k is not 8 or 16 or numBytes is 0, and bloom.ErrTooLarge for more than
// MaxBlocks blocks or more than this platform can allocate.
func NewBytes(numBytes uint64, k int) (*Filter, error) {
	if k != 8 && k != 16 {
		return nil, fmt.Errorf("%w: k must be 8 or 16, got %d", errs.ErrGeometry, k)
	}
	nb, err := blocksOfBytes(numBytes, 64, MaxBlocks)
	if err != nil {
		return nil, err
	}
	return newFilter(nb, k), nil
}

func newFilter(nblocks uint64, k int) *Filter {
	return &Filter{blocks: alignedBlocks(nblocks), k: k}
}

// alignedBlocks allocates n zeroed blocks starting at a 64-byte boundary
// (a 2 MiB one, advised for huge pages, for large filters: see
// internal/alloc).
func alignedBlocks(n uint64) []block {
	return unsafe.Slice((*block)(unsafe.Pointer(unsafe.SliceData(alloc.Words(n*8)))), n)
}

// K returns the number of bits set per key: 8 or 16.
func (f *Filter) K() int { return f.k }

// NumBlocks returns the number of 64-byte blocks.
func (f *Filter) NumBlocks() uint64 { return uint64(len(f.blocks)) }

// NumBits returns the size of the bit array in bits.
func (f *Filter) NumBits() uint64 { return uint64(len(f.blocks)) * 512 }

// blockAt returns the block of hash h, without a bounds check: fastrange
// ((h>>32)*n)>>32 is always below n.
func (f *Filter) blockAt(h uint64) *block {
	i := ((h >> 32) * uint64(len(f.blocks))) >> 32
	return (*block)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.blocks)), i*64))
}

// zeroFilter ends the panic message of a mutation of a zero Filter.
const zeroFilter = " on a zero Filter; use blocked.New or NewBytes"

// AddHash adds the hash h. It is not safe for concurrent use. It panics on
// a zero Filter.
func (f *Filter) AddHash(h uint64) {
	// On amd64 AddHash and HasHash are one call each to an assembly kernel
	// (filterAddOne, filterHasOne) that Go inlines into the caller: it reads
	// cpu.Active and runs the AVX-512, AVX2 or scalar probe, each equal to
	// the pure-Go addHashGo and hasHashGo, which run elsewhere.
	if len(f.blocks) == 0 {
		panic("blocked: AddHash" + zeroFilter)
	}
	if oneKeyAsm {
		filterAddOne(f, h)
		return
	}
	f.addHashGo(h)
}

// HasHash reports whether h may have been added: false means it certainly
// was not; true is wrong with probability about the filter's FPR.
func (f *Filter) HasHash(h uint64) bool {
	if oneKeyAsm {
		return filterHasOne(f, h) // false for a zero Filter (k = 0)
	}
	if len(f.blocks) == 0 {
		return false
	}
	return f.hasHashGo(h)
}

// addHashGo and hasHashGo are the generic kernel for one key (the generic
// batch kernels call them; they are the reference the assembly must equal).
// Both k bodies are written out here, without calls: the function then needs
// no stack frame, which measured 5% faster than calling a helper per k. Go
// does not inline either (too large).
func (f *Filter) addHashGo(h uint64) {
	b := f.blockAt(h)
	x := uint32(h)
	if f.k == 8 {
		b[0] |= 1 << ((x * salt0) >> 26)
		b[1] |= 1 << ((x * salt1) >> 26)
		b[2] |= 1 << ((x * salt2) >> 26)
		b[3] |= 1 << ((x * salt3) >> 26)
		b[4] |= 1 << ((x * salt4) >> 26)
		b[5] |= 1 << ((x * salt5) >> 26)
		b[6] |= 1 << ((x * salt6) >> 26)
		b[7] |= 1 << ((x * salt7) >> 26)
		return
	}
	b[0] |= 1<<((x*salt0)>>26) | 1<<((x*salt8)>>26)
	b[1] |= 1<<((x*salt1)>>26) | 1<<((x*salt9)>>26)
	b[2] |= 1<<((x*salt2)>>26) | 1<<((x*salt10)>>26)
	b[3] |= 1<<((x*salt3)>>26) | 1<<((x*salt11)>>26)
	b[4] |= 1<<((x*salt4)>>26) | 1<<((x*salt12)>>26)
	b[5] |= 1<<((x*salt5)>>26) | 1<<((x*salt13)>>26)
	b[6] |= 1<<((x*salt6)>>26) | 1<<((x*salt14)>>26)
	b[7] |= 1<<((x*salt7)>>26) | 1<<((x*salt15)>>26)
}

// hasHashGo has no branches besides the one on k.
func (f *Filter) hasHashGo(h uint64) bool {
	b := f.blockAt(h)
	x := uint32(h)
	if f.k == 8 {
		v := b[0] >> ((x * salt0) >> 26)
		v &= b[1] >> ((x * salt1) >> 26)
		v &= b[2] >> ((x * salt2) >> 26)
		v &= b[3] >> ((x * salt3) >> 26)
		v &= b[4] >> ((x * salt4) >> 26)
		v &= b[5] >> ((x * salt5) >> 26)
		v &= b[6] >> ((x * salt6) >> 26)
		v &= b[7] >> ((x * salt7) >> 26)
		return v&1 != 0
	}
	v := b[0] >> ((x * salt0) >> 26) & (b[0] >> ((x * salt8) >> 26))
	v &= b[1] >> ((x * salt1) >> 26) & (b[1] >> ((x * salt9) >> 26))
	v &= b[2] >> ((x * salt2) >> 26) & (b[2] >> ((x * salt10) >> 26))
	v &= b[3] >> ((x * salt3) >> 26) & (b[3] >> ((x * salt11) >> 26))
	v &= b[4] >> ((x * salt4) >> 26) & (b[4] >> ((x * salt12) >> 26))
	v &= b[5] >> ((x * salt5) >> 26) & (b[5] >> ((x * salt13) >> 26))
	v &= b[6] >> ((x * salt6) >> 26) & (b[6] >> ((x * salt14) >> 26))
	v &= b[7] >> ((x * salt7) >> 26) & (b[7] >> ((x * salt15) >> 26))
	return v&1 != 0
}

// words returns the filter's bits as one slice of words.
func (f *Filter) words() []uint64 {
	if len(f.blocks) == 0 {
		return nil
	}
	return unsafe.Slice(&f.blocks[0][0], len(f.blocks)*8)
}

// popcount returns the number of set bits.
func (f *Filter) popcount() uint64 {
	var n uint64
	for _, w := range f.words() {
		n += uint64(bits.OnesCount64(w))
	}
	return n
}

// FillRatio returns the fraction of bits that are set. A filter holding the
// keys New sized it for has about Fill(n, NumBlocks(), K()) of its bits set,
// which depends on the rate it was sized for (about 0.55 at fpr 0.01, above
// 0.9 at 0.5, under 0.1 at 1e-12), so compare FillRatio with Fill, not with
// one half: well above Fill at the planned keys means overflow.
func (f *Filter) FillRatio() float64 {
	if len(f.blocks) == 0 {
		return 0
	}
	return float64(f.popcount()) / float64(f.NumBits())
}

// EstimatedCount estimates how many distinct keys were added, from each
// block's number of set bits (the maximum-likelihood count for a block whose
// 64-bit words each received one (k = 8) or two (k = 16) bits per key).
func (f *Filter) EstimatedCount() float64 {
	perKey := float64(f.k / 8)
	l := math.Log1p(-1.0 / 64)
	total := 0.0
	for i := range f.blocks {
		b := &f.blocks[i]
		x := 0
		for _, w := range b {
			x += bits.OnesCount64(w)
		}
		if x == 0 {
			continue
		}
		fill := float64(x) / blockBits
		if x == blockBits {
			fill = (blockBits - 0.5) / blockBits // saturated: a lower bound
		}
		total += math.Log1p(-fill) / (l * perKey)
	}
	return total
}

// EstimatedFPR returns the false-positive rate of the filter as it is now:
// the mean over blocks of the probability that a random hash finds all its
// bits set there. It is exact for well-mixed hashes, given the bits.
func (f *Filter) EstimatedFPR() float64 {
	if len(f.blocks) == 0 {
		return 0
	}
	sum := 0.0
	for i := range f.blocks {
		p := 1.0
		for _, w := range f.blocks[i] {
			q := float64(bits.OnesCount64(w)) / 64
			if f.k == 16 {
				q *= q
			}
			p *= q
		}
		sum += p
	}
	return sum / float64(len(f.blocks))
}

// compatible returns an error unless o has the same geometry as f.
func (f *Filter) compatible(o *Filter) error {
	if o == nil {
		return fmt.Errorf("%w: other filter is nil", errs.ErrGeometry)
	}
	if f.k != o.k || len(f.blocks) != len(o.blocks) {
		return fmt.Errorf("%w: %d blocks k=%d vs %d blocks k=%d", errs.ErrGeometry, len(f.blocks), f.k, len(o.blocks), o.k)
	}
	return nil
}

// Union adds every key of o to f (bitwise OR). Both must have the same k,
// and o the same number of blocks as f, or that number times or divided by
// a power of two (else bloom.ErrGeometry). A larger o is folded to f's size
// in the same pass (see Fold): the result is the filter built at f's size
// from both sets of keys. A smaller o, 2^t times, is spread over f: block j
// of f takes block j>>t of o, the block it was folded into, so every key
// of o is found in f at o's false-positive rate (the filters a distributed
// job's workers folded to the keys they hold OR into the largest of them
// this way). o is not modified. Their key hashes must agree (else
// bloom.ErrHashMismatch; a filter recording HashUnspecified agrees with any and
// the result records the other's hash), and key families that agree in the
// same way (KeysUnrecorded agrees with any); otherwise f is unchanged. A zero
// or nil o is bloom.ErrGeometry; a zero f panics.
func (f *Filter) Union(o *Filter) error { return f.combine(o, "Union", false) }

// Intersect keeps in f only the bits also set in o (bitwise AND): every key
// added to both still answers true. Both must have the same number of
// blocks and k (Intersect does not fold) and key hashes that agree, as for
// Union; otherwise f is unchanged. A zero or
// nil o is bloom.ErrGeometry; a zero f panics.
func (f *Filter) Intersect(o *Filter) error { return f.combine(o, "Intersect", true) }

// combine is Union (and false) or Intersect (and true), named op in the
// panic of a zero f.
func (f *Filter) combine(o *Filter, op string, and bool) error {
	if len(f.blocks) == 0 {
		panic("blocked: " + op + zeroFilter)
	}
	times := 0
	if o != nil && !and {
		times = foldShift(f, o)
	}
	if times == 0 {
		if err := f.compatible(o); err != nil {
			return err
		}
	}
	id, err := combinedHash(f.hash, o.hash)
	if err != nil {
		return err
	}
	keys, err := combinedKeys(f.keys, o.keys)
	if err != nil {
		return err
	}
	switch {
	case times > 0:
		foldBlocks(f.blocks, o.blocks, uint(times), true)
	case times < 0:
		spreadBlocks(f.blocks, o.blocks, uint(-times))
	default:
		combineWords(f.words(), o.words(), and)
	}
	f.hash, f.keys = id, keys
	return nil
}

// combineWords sets a[i] to a[i] AND b[i] (and true) or a[i] OR b[i], for
// len(b) >= len(a).
func combineWords[W uint32 | uint64](a, b []W, and bool) {
	b = b[:len(a)]
	if and {
		for i := range a {
			a[i] &= b[i]
		}
		return
	}
	for i := range a {
		a[i] |= b[i]
	}
}

// Clear removes every key, keeping the size. On a zero Filter, which holds
// no key, it does nothing.
func (f *Filter) Clear() { clear(f.blocks) }

// Clone returns an independent copy of f (a zero Filter for a zero f).
func (f *Filter) Clone() *Filter {
	if len(f.blocks) == 0 {
		return &Filter{hash: f.hash, keys: f.keys}
	}
	c := newFilter(uint64(len(f.blocks)), f.k)
	copy(c.blocks, f.blocks)
	c.hash, c.keys = f.hash, f.keys
	return c
}

// Equal reports whether f and o have the same geometry, the same key hash
// (KeyHash) and the same bits (the key family, KeyFamily, is not compared): the same bits over two hash functions hold
// different keys, and a decoded copy equals its original only if the id
// traveled with it.
func (f *Filter) Equal(o *Filter) bool {
	if f.compatible(o) != nil || f.hash != o.hash {
		return false
	}
	a, b := f.words(), o.words()
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
