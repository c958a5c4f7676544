package cuckoo

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/simdbloom/bloom/blocked"
)

// maxKicks is the number of evictions an Add tries before it gives up.
const maxKicks = 500

// Filter is a cuckoo filter over 64-bit hashes. Create it with New or
// NewBuckets.
//
// The zero value is an empty filter with no buckets: HasHash and HasHashes
// answer false, the read-only methods 0, Clear does nothing, and AddHash and
// RemoveHash panic.
type Filter struct {
	data    []byte // buckets of stride bytes, then 8 bytes of padding for unaligned loads
	mask    uint64 // number of buckets - 1
	fpBits  uint   // 8, 12 or 16
	stride  uint64 // bytes per bucket: fpBits/2
	fpMask  uint64 // one lane: 2^fpBits - 1
	lo, hi  uint64 // 1 and the top bit in every lane
	wordMsk uint64 // the bucket's 4 lanes
	count   uint64 // fingerprints stored
	planned uint64 // keys the filter was sized for
	rng     uint64 // xorshift state for the choice of victims
	path    []kick // the moves of the current Add, to undo a failed one

	hash blocked.HashID // key-hash identifier (KeyHash), carried by the encoding
}

// kick is one eviction: the slot written during an Add.
type kick struct {
	bucket uint32
	slot   uint32
}

// New returns a filter for n keys with an expected false-positive rate of
// at most fpr at n keys: the filter Size(n, fpr) describes. It returns Size's
// errors, and ErrTooLarge for a table this platform cannot allocate.
func New(n uint64, fpr float64) (*Filter, error) {
	s, err := Size(n, fpr)
	if err != nil {
		return nil, err
	}
	if s.Blocks > platformBuckets(s.FingerprintBits) {
		return nil, fmt.Errorf("%w: %d keys need %d buckets of %d-bit fingerprints, more than this platform can allocate",
			ErrTooLarge, n, s.Blocks, s.FingerprintBits)
	}
	f := newFilter(s.Blocks, s.FingerprintBits)
	f.planned = n
	return f, nil
}

// NewBuckets returns an empty filter of exactly buckets buckets of
// fingerprints of fpBits bits, planned for MaxLoad of its slots (see
// BitsPerKey). The number of buckets is not rounded and must be a power of
// two. It returns ErrGeometry if fpBits is
// not 8, 12 or 16 or buckets is 0 or not a power of two, and ErrTooLarge for
// more than MaxBuckets buckets or more than this platform can allocate.
func NewBuckets(buckets uint64, fpBits int) (*Filter, error) {
	if fpBits != 8 && fpBits != 12 && fpBits != 16 {
		return nil, fmt.Errorf("%w: fingerprints must be 8, 12 or 16 bits, got %d", ErrGeometry, fpBits)
	}
	if buckets == 0 || buckets&(buckets-1) != 0 {
		return nil, fmt.Errorf("%w: the number of buckets must be a power of two, got %d", ErrGeometry, buckets)
	}
	if buckets > MaxBuckets {
		return nil, fmt.Errorf("%w: %d buckets, the most is %d", ErrTooLarge, buckets, MaxBuckets)
	}
	if buckets > platformBuckets(fpBits) {
		return nil, fmt.Errorf("%w: %d buckets of %d-bit fingerprints is more than this platform can allocate", ErrTooLarge, buckets, fpBits)
	}
	f := newFilter(buckets, fpBits)
	f.planned = max(1, uint64(MaxLoad*float64(buckets*BucketSize)))
	return f, nil
}

func newFilter(buckets uint64, fpBits int) *Filter {
	fb := uint(fpBits)
	f := &Filter{
		mask:   buckets - 1,
		fpBits: fb,
		stride: uint64(fb) / 2,
		fpMask: 1<<fb - 1,
		rng:    0x9e3779b97f4a7c15,
	}
	for j := range uint(BucketSize) {
		f.lo |= 1 << (j * fb)
	}
	f.hi = f.lo << (fb - 1)
	f.wordMsk = f.lo * f.fpMask // every bit of the 4 lanes
	f.data = make([]byte, buckets*f.stride+8)
	return f
}

// FingerprintBits returns the fingerprint size: 8, 12 or 16.
func (f *Filter) FingerprintBits() int { return int(f.fpBits) }

// NumBuckets returns the number of buckets, a power of two (0 for the zero
// Filter).
func (f *Filter) NumBuckets() uint64 {
	if f.zero() {
		return 0
	}
	return f.mask + 1
}

// zero reports whether f is the zero Filter (no table).
func (f *Filter) zero() bool { return len(f.data) == 0 }

// zeroFilter ends the panic message of a mutation of a zero Filter.
const zeroFilter = " on a zero Filter; use cuckoo.New or NewBuckets"

// NumBits returns the size of the table in bits: buckets * 4 * fingerprint bits.
func (f *Filter) NumBits() uint64 { return f.NumBuckets() * BucketSize * uint64(f.fpBits) }

// BitsPerKey returns NumBits divided by the number of keys the filter was
// planned for (n given to New; MaxLoad of the slots for NewBuckets).
func (f *Filter) BitsPerKey() float64 {
	if f.planned == 0 {
		return 0
	}
	return float64(f.NumBits()) / float64(f.planned)
}

// Len returns the number of fingerprints stored: successful adds minus
// successful removes.
func (f *Filter) Len() uint64 { return f.count }

// LoadFactor returns the fraction of slots in use.
func (f *Filter) LoadFactor() float64 {
	if f.zero() {
		return 0
	}
	return float64(f.count) / float64(f.NumBuckets()*BucketSize)
}

// EstimatedFPR returns the expected false-positive rate at the current load
// (ExpectedFPR).
func (f *Filter) EstimatedFPR() float64 {
	if f.zero() {
		return 0
	}
	return ExpectedFPR(int(f.fpBits), f.LoadFactor())
}

// split returns the first bucket and the fingerprint of h.
func (f *Filter) split(h uint64) (uint64, uint64) {
	fp := h & f.fpMask
	fp += b2u(fp == 0) // 0 marks an empty slot
	return (h >> 32) & f.mask, fp
}

// alt returns the other bucket of fingerprint fp stored in bucket i. It is
// its own inverse: alt(alt(i, fp), fp) == i.
func (f *Filter) alt(i, fp uint64) uint64 {
	return i ^ (fp*0x9e3779b97f4a7c15)>>32&f.mask
}

// load returns the 8 bytes at bucket i: its lanes, then whatever follows.
func (f *Filter) load(i uint64) uint64 {
	return binary.LittleEndian.Uint64(f.data[i*f.stride:])
}

func (f *Filter) store(i, w uint64) {
	binary.LittleEndian.PutUint64(f.data[i*f.stride:], w)
}

// zeroLanes returns a word with the top bit of some lane set if and only if
// a lane of x (masked to the bucket) is zero; its lowest set bit is in the
// lowest zero lane.
func (f *Filter) zeroLanes(x uint64) uint64 {
	x &= f.wordMsk
	return (x - f.lo) &^ x & f.hi
}

// lane returns the index of the lane holding the top bit m (m non-zero).
func (f *Filter) lane(m uint64) uint { return uint(bits.TrailingZeros64(m)) / f.fpBits }

// HasHash reports whether h may have been added: false means it certainly
// was not (or was removed); true is wrong with about EstimatedFPR.
func (f *Filter) HasHash(h uint64) bool {
	if f.zero() {
		return false
	}
	i1, fp := f.split(h)
	p := fp * f.lo
	m := f.zeroLanes(f.load(i1)^p) | f.zeroLanes(f.load(f.alt(i1, fp))^p)
	return m != 0
}

// HasHashes sets out[i] to HasHash(hs[i]) for every i and returns how many
// are true. It panics if out is shorter than hs, before touching anything.
func (f *Filter) HasHashes(hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic(fmt.Sprintf("cuckoo: HasHashes: out has %d elements, shorter than %d hashes", len(out), len(hs)))
	}
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		r := f.HasHash(h)
		out[i] = r
		n += int(b2u(r))
	}
	return n
}

// put stores fp in an empty slot of bucket i, if it has one.
func (f *Filter) put(i, fp uint64) bool {
	w := f.load(i)
	m := f.zeroLanes(w)
	if m == 0 {
		return false
	}
	f.store(i, w|fp<<(f.lane(m)*f.fpBits))
	return true
}

// swap stores fp in slot j of bucket i and returns the fingerprint it held.
func (f *Filter) swap(i uint64, j uint, fp uint64) uint64 {
	w := f.load(i)
	s := j * f.fpBits
	old := w >> s & f.fpMask
	f.store(i, w&^(f.fpMask<<s)|fp<<s)
	return old
}

// moveAside looks one step ahead from the full bucket i: if some
// fingerprint there has room in its other bucket, it moves it there and
// stores fp in the freed slot. This lookahead lets tables fill well past 95%
// where a plain random walk starts to fail on large tables.
func (f *Filter) moveAside(i, fp uint64) bool {
	w := f.load(i)
	for j := range uint(BucketSize) {
		v := w >> (j * f.fpBits) & f.fpMask
		if f.put(f.alt(i, v), v) {
			f.swap(i, j, fp)
			return true
		}
	}
	return false
}

// AddHash adds the hash h. Adding a hash again stores another copy (each
// copy needs its own RemoveHash); a hash added more than 8 times cannot fit.
// When the two buckets of h are full it evicts stored fingerprints to their
// other buckets (preferring one that has room there), a bounded number of times; if no
// place is found it undoes the evictions and returns an error wrapping ErrFull: the filter is then exactly
// as before the call. It is not safe for concurrent use. It panics on the
// zero Filter.
func (f *Filter) AddHash(h uint64) error {
	if f.zero() {
		panic("cuckoo: AddHash" + zeroFilter)
	}
	i, fp := f.split(h)
	if f.put(i, fp) || f.put(f.alt(i, fp), fp) {
		f.count++
		return nil
	}
	if f.path == nil {
		f.path = make([]kick, maxKicks)
	}
	r := f.rng
	if r>>63 != 0 {
		i = f.alt(i, fp)
	}
	for n := range f.path {
		if f.moveAside(i, fp) {
			f.count++
			f.rng = r
			return nil
		}
		r ^= r << 13 // xorshift64
		r ^= r >> 7
		r ^= r << 17
		j := uint(r & (BucketSize - 1))
		f.path[n] = kick{bucket: uint32(i), slot: uint32(j)}
		fp = f.swap(i, j, fp)
		i = f.alt(i, fp)
		if f.put(i, fp) {
			f.count++
			f.rng = r
			return nil
		}
	}
	// Undo in reverse: each slot gets back what it held, and fp ends up as
	// the fingerprint of h again.
	for n := len(f.path) - 1; n >= 0; n-- {
		k := f.path[n]
		fp = f.swap(uint64(k.bucket), uint(k.slot), fp)
	}
	return fmt.Errorf("%w: no room for hash %#x after %d evictions at load %.4f", ErrFull, h, maxKicks, f.LoadFactor())
}

// RemoveHash removes one copy of the fingerprint of h from its buckets and
// returns true, or returns false if neither bucket holds it. Remove only
// hashes that were added: removing a never-added hash that is a false
// positive erases another key's fingerprint, a false negative for that key.
// It is not safe for concurrent use. It panics on the zero Filter.
func (f *Filter) RemoveHash(h uint64) bool {
	if f.zero() {
		panic("cuckoo: RemoveHash" + zeroFilter)
	}
	i, fp := f.split(h)
	p := fp * f.lo
	for range 2 {
		w := f.load(i)
		if m := f.zeroLanes(w ^ p); m != 0 {
			f.store(i, w&^(f.fpMask<<(f.lane(m)*f.fpBits)))
			f.count--
			return true
		}
		i = f.alt(i, fp)
	}
	return false
}

// Clear removes every key, keeping the size. On the zero Filter it does
// nothing.
func (f *Filter) Clear() {
	clear(f.data)
	f.count = 0
}

// Clone returns an independent copy of f (the zero Filter for the zero
// Filter).
func (f *Filter) Clone() *Filter {
	c := *f
	c.data = append([]byte(nil), f.data...)
	c.path = nil
	return &c
}

// Equal reports whether f and o have the same geometry and hold the same
// fingerprints in the same slots.
func (f *Filter) Equal(o *Filter) bool {
	if o == nil || f.fpBits != o.fpBits || f.mask != o.mask || f.count != o.count {
		return false
	}
	return string(f.data) == string(o.data)
}

// b2u converts a bool to 0 or 1 without a branch.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
