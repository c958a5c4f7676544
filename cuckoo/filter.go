package cuckoo

import (
	"encoding/binary"
	"fmt"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/memlimit"
)

// maxKicks is the number of evictions an Add tries before it gives up.
const maxKicks = 500

// Filter is a cuckoo filter over 64-bit hashes. Create it with New,
// SizeLayout and NewBuckets.
//
// The zero value is an empty filter with no buckets: HasHash and HasHashes
// answer false, the read-only methods 0, Clear does nothing, and AddHash and
// RemoveHash panic.
type Filter struct {
	data     []byte // the table (bucketBits bits per bucket), then 8 bytes of padding
	nb       uint64 // number of buckets
	fpBits   uint   // minFingerprintBits..maxFingerprintBits
	rest     uint   // semi-sorted: fpBits-4, the bits of a slot stored outside the code
	bBits    uint64 // bits per bucket
	fpMask   uint64 // 2^fpBits - 1
	layout   Layout
	count    uint64 // fingerprints stored
	planned  uint64 // keys the filter was sized for
	rng      uint64 // xorshift state for the choice of victims
	path     []kick // the moves of the current Add, to undo a failed one
	hash     blocked.HashID
	keys     blocked.KeyFamily
	lanesMsk uint64 // one 16-bit lane's low part mask (plain: fpMask, semi: 2^rest-1)
}

// kick is one eviction during an Add: fingerprint in replaced out in slot
// of bucket.
type kick struct {
	bucket, slot uint32
	in, out      uint32
}

// New returns a semi-sorted filter for n keys with an expected
// false-positive rate of at most fpr at n keys: the filter Size(n, fpr)
// describes. It returns Size's errors, and bloom.ErrTooLarge for a table this
// platform cannot allocate.
func New(n uint64, fpr float64) (*Filter, error) { return newLayout(n, fpr, SemiSorted) }

// newLayout returns a filter of layout l for n keys with an expected
// false-positive rate of at most fpr at n keys: the filter SizeLayout(n,
// fpr, l) describes. It returns SizeLayout's errors, and bloom.ErrTooLarge for a
// table this platform cannot allocate.
func newLayout(n uint64, fpr float64, l Layout) (*Filter, error) {
	s, err := SizeLayout(n, fpr, l)
	if err != nil {
		return nil, err
	}
	if s.Blocks > platformBuckets(s.FingerprintBits, l) {
		return nil, fmt.Errorf("%w: %s need %d buckets of %d-bit fingerprints, more than this platform can allocate",
			errs.ErrTooLarge, errs.Count(n, "key"), s.Blocks, s.FingerprintBits)
	}
	if err := checkMemory(s.Blocks, s.FingerprintBits, l, func() string {
		return fmt.Sprintf("%s at fpr %v (%d buckets of %d-bit fingerprints)", errs.Count(n, "key"), fpr, s.Blocks, s.FingerprintBits)
	}); err != nil {
		return nil, err
	}
	f := newFilter(s.Blocks, s.FingerprintBits, l)
	f.planned = n
	return f, nil
}

// NewBuckets returns an empty filter of exactly buckets buckets of
// fingerprints of fpBits bits in layout l, planned for 95% of its slots
// (see BitsPerKey). It returns bloom.ErrGeometry if buckets is 0, fpBits is
// outside minFingerprintBits..maxFingerprintBits or l is unknown, and
// bloom.ErrTooLarge for more than maxBuckets buckets or more than this platform
// can allocate.
func NewBuckets(buckets uint64, fpBits int, l Layout) (*Filter, error) {
	if fpBits < minFingerprintBits || fpBits > maxFingerprintBits {
		return nil, fmt.Errorf("%w: fingerprints must be %d to %d bits, got %d", errs.ErrGeometry, minFingerprintBits, maxFingerprintBits, fpBits)
	}
	if l != SemiSorted && l != Plain {
		return nil, fmt.Errorf("%w: unknown layout %d", errs.ErrGeometry, l)
	}
	if buckets == 0 {
		return nil, fmt.Errorf("%w: 0 buckets", errs.ErrGeometry)
	}
	if buckets > maxBuckets {
		return nil, fmt.Errorf("%w: %d buckets, the most is %d", errs.ErrTooLarge, buckets, maxBuckets)
	}
	if buckets > platformBuckets(fpBits, l) {
		return nil, fmt.Errorf("%w: %d buckets of %d-bit fingerprints is more than this platform can allocate", errs.ErrTooLarge, buckets, fpBits)
	}
	if err := checkMemory(buckets, fpBits, l, func() string {
		return fmt.Sprintf("%s of %d-bit fingerprints", errs.Count(buckets, "bucket"), fpBits)
	}); err != nil {
		return nil, err
	}
	f := newFilter(buckets, fpBits, l)
	f.planned = max(1, uint64(maxLoad*float64(buckets*bucketSize)))
	return f, nil
}

// checkMemory returns bloom.ErrTooLarge if a table of buckets buckets is more
// than this machine can allocate now (internal/memlimit); what names the
// request for the message.
func checkMemory(buckets uint64, fpBits int, l Layout, what func() string) error {
	return memlimit.Check(alloc.Footprint(tableBytes(buckets, fpBits, l)+8), what)
}

func newFilter(buckets uint64, fpBits int, l Layout) *Filter {
	fb := uint(fpBits)
	f := &Filter{
		nb:     buckets,
		fpBits: fb,
		bBits:  bucketBits(fpBits, l),
		fpMask: 1<<fb - 1,
		layout: l,
		rng:    0x9e3779b97f4a7c15,
	}
	f.lanesMsk = f.fpMask
	if l == SemiSorted {
		f.rest = fb - 4
		f.lanesMsk = 1<<f.rest - 1
	}
	f.data = alloc.Bytes(tableBytes(buckets, fpBits, l) + 8)
	return f
}

// FingerprintBits returns the fingerprint width in bits (0 for the zero
// Filter).
func (f *Filter) FingerprintBits() int { return int(f.fpBits) }

// Layout returns the way buckets are stored (0 for the zero Filter).
func (f *Filter) Layout() Layout { return f.layout }

// NumBuckets returns the number of buckets (0 for the zero Filter).
func (f *Filter) NumBuckets() uint64 { return f.nb }

// zero reports whether f is the zero Filter (no table).
func (f *Filter) zero() bool { return f.nb == 0 }

// zeroFilter ends the panic message of a mutation of a zero Filter.
const zeroFilter = " on a zero Filter; use cuckoo.New or NewBuckets"

// NumBits returns the size of the table in bits: buckets times 4(f-1)
// (semi-sorted) or 4f (plain).
func (f *Filter) NumBits() uint64 { return f.nb * f.bBits }

// EstimatedCount returns the number of keys stored: successful adds minus
// successful removes, exactly (each stores one fingerprint), so a key added
// twice counts twice. The name is every filter's of this module; a Bloom
// filter can only estimate it.
func (f *Filter) EstimatedCount() float64 { return float64(f.count) }

// LoadFactor returns the fraction of slots in use.
func (f *Filter) LoadFactor() float64 {
	if f.zero() {
		return 0
	}
	return float64(f.count) / float64(f.nb*bucketSize)
}

// EstimatedFPR returns the expected false-positive rate at the current load
// (FPR).
func (f *Filter) EstimatedFPR() float64 {
	if f.zero() {
		return 0
	}
	return fprAt(int(f.fpBits), f.LoadFactor())
}

// altMix multiplies a fingerprint into the 32 bits that choose the offset
// between its two buckets.
const altMix = 0x9e3779b97f4a7c15

// split returns the first bucket and the fingerprint of h: the upper 32
// bits scaled to the number of buckets, and the low fpBits bits (0 becomes
// 1, since 0 marks an empty slot).
func (f *Filter) split(h uint64) (uint64, uint64) {
	fp := h & f.fpMask
	fp += b2u(fp == 0)
	return (h >> 32) * f.nb >> 32, fp
}

// alt returns the other bucket of fingerprint fp stored in bucket i:
// (H(fp) - i) mod buckets, with H(fp) in [0, buckets). It is its own
// inverse: alt(alt(i, fp), fp) == i.
func (f *Filter) alt(i, fp uint64) uint64 {
	hf := (fp * altMix >> 32) * f.nb >> 32
	d := hf - i
	if i > hf {
		d += f.nb
	}
	return d
}

// getBits returns the n bits (n <= 32) of the table at bit offset off.
func (f *Filter) getBits(off uint64, n uint) uint64 {
	return binary.LittleEndian.Uint64(f.data[off>>3:]) >> (off & 7) & (1<<n - 1)
}

// setBits stores v (< 2^n, n <= 32) in the n bits at bit offset off.
func (f *Filter) setBits(off uint64, n uint, v uint64) {
	p := f.data[off>>3:]
	s := off & 7
	w := binary.LittleEndian.Uint64(p)
	binary.LittleEndian.PutUint64(p, w&^((1<<n-1)<<s)|v<<s)
}

// slots returns the 4 fingerprints of bucket i (0 for an empty slot), in
// ascending order for a semi-sorted table.
func (f *Filter) slots(i uint64) [bucketSize]uint64 {
	var s [bucketSize]uint64
	base := i * f.bBits
	if f.layout == SemiSorted {
		nib := uint64(decodeNibbles[f.getBits(base, codeBits)])
		for j := range uint64(bucketSize) {
			s[j] = (nib>>(4*j)&15)<<f.rest | f.getBits(base+codeBits+j*uint64(f.rest), f.rest)
		}
		return s
	}
	for j := range uint64(bucketSize) {
		s[j] = f.getBits(base+j*uint64(f.fpBits), f.fpBits)
	}
	return s
}

// setSlots stores s as the fingerprints of bucket i, sorting them first in
// a semi-sorted table.
func (f *Filter) setSlots(i uint64, s [bucketSize]uint64) {
	base := i * f.bBits
	if f.layout == SemiSorted {
		sort4(&s)
		var nib uint64
		for j := range bucketSize {
			nib |= (s[j] >> f.rest) << (4 * j)
		}
		f.setBits(base, codeBits, uint64(encodeNibbles(nib)))
		for j := range uint64(bucketSize) {
			f.setBits(base+codeBits+j*uint64(f.rest), f.rest, s[j]&f.lanesMsk)
		}
		return
	}
	for j := range uint64(bucketSize) {
		f.setBits(base+j*uint64(f.fpBits), f.fpBits, s[j])
	}
}

// Lookups of fingerprints up to 16 bits unpack a bucket into 4 16-bit
// lanes of one word and compare all four at once (SWAR).
const (
	lanes16Lo = 0x0001_0001_0001_0001
	lanes16Hi = 0x8000_8000_8000_8000
)

// lanes16 returns the 4 fingerprints of bucket i in the 16-bit lanes of a
// word (fpBits <= 16, so a bucket is at most 64 bits, starts at a bit
// offset that is a multiple of 4, and one 8-byte load holds it).
func (f *Filter) lanes16(i uint64) uint64 {
	off := i * f.bBits
	w := binary.LittleEndian.Uint64(f.data[off>>3:]) >> (off & 4)
	var top uint64
	lw := f.fpBits // width of the stored lanes
	if f.layout == SemiSorted {
		top = spread16(decodeNibbles[w&(1<<codeBits-1)]) << f.rest
		w >>= codeBits
		lw = f.rest
	}
	m := f.lanesMsk
	return top | w&m | (w>>lw&m)<<16 | (w>>(2*lw)&m)<<32 | (w>>(3*lw)&m)<<48
}

// spread16 moves the 4 nibbles of x to the low bits of the 4 16-bit lanes
// of a word.
func spread16(x uint16) uint64 {
	w := uint64(x)
	w = (w | w<<24) & 0x0000_00ff_0000_00ff
	return (w | w<<12) & 0x000f_000f_000f_000f
}

// hasZero16 is non-zero if and only if some 16-bit lane of x is zero.
func hasZero16(x uint64) uint64 { return (x - lanes16Lo) &^ x & lanes16Hi }

// HasHash reports whether h may have been added: false means it certainly
// was not (or was removed); true is wrong with about EstimatedFPR.
func (f *Filter) HasHash(h uint64) bool {
	if f.zero() {
		return false
	}
	i1, fp := f.split(h)
	i2 := f.alt(i1, fp)
	if f.fpBits <= 16 {
		p := fp * lanes16Lo
		return hasZero16(f.lanes16(i1)^p)|hasZero16(f.lanes16(i2)^p) != 0
	}
	return f.holds(i1, fp) || f.holds(i2, fp)
}

// holds reports whether bucket i holds fp.
func (f *Filter) holds(i, fp uint64) bool {
	s := f.slots(i)
	return s[0] == fp || s[1] == fp || s[2] == fp || s[3] == fp
}

// hasHashes is the portable HasHashes: len(out) >= len(hs).
func (f *Filter) hasHashes(hs []uint64, out []bool) int {
	out = out[:len(hs)]
	if n, ok := hasHashesArch(f, hs, out); ok {
		return n
	}
	if f.fpBits <= 16 && !f.zero() {
		return f.hasHashes16(hs, out)
	}
	n := 0
	for i, h := range hs {
		r := f.HasHash(h)
		out[i] = r
		n += int(b2u(r))
	}
	return n
}

// group is the number of keys hasHashes16 handles at a time.
const group = 8

// hasHashes16 is hasHashes for fpBits <= 16 (len(out) == len(hs), f not
// zero). It computes the 16 bucket offsets of a group of keys before it
// reads any bucket, so that the group's cache misses overlap, and unpacks
// both layouts with the same code: a plain table reads code 0, whose
// nibbles are all 0, and shifts nothing out.
func (f *Filter) hasHashes16(hs []uint64, out []bool) int {
	var off [2 * group]uint64
	var fps [group]uint64
	nb, bb, fm := f.nb, f.bBits, f.fpMask
	m, rest := f.lanesMsk, f.rest
	lw := f.fpBits
	codeMsk, codeShift := uint64(0), uint(0)
	if f.layout == SemiSorted {
		codeMsk, codeShift, lw = 1<<codeBits-1, codeBits, f.rest
	}
	data := f.data
	lanes := func(off uint64) uint64 {
		w := binary.LittleEndian.Uint64(data[off>>3:]) >> (off & 4)
		top := spread16(decodeNibbles[w&codeMsk&(1<<codeBits-1)]) << rest
		w >>= codeShift
		return top | w&m | (w>>lw&m)<<16 | (w>>(2*lw)&m)<<32 | (w>>(3*lw)&m)<<48
	}
	n := 0
	for len(hs) > 0 {
		g := min(group, len(hs))
		for j, h := range hs[:g] {
			fp := h & fm
			fp += b2u(fp == 0)
			i1 := (h >> 32) * nb >> 32
			hf := (fp * altMix >> 32) * nb >> 32
			i2 := hf - i1
			if i1 > hf {
				i2 += nb
			}
			off[j], off[group+j&(2*group-1)], fps[j&(group-1)] = i1*bb, i2*bb, fp
		}
		o := out[:g]
		for j := range o {
			p := fps[j&(group-1)] * lanes16Lo
			r := hasZero16(lanes(off[j&(group-1)])^p)|hasZero16(lanes(off[group+j&(group-1)])^p) != 0
			o[j] = r
			n += int(b2u(r))
		}
		hs, out = hs[g:], out[g:]
	}
	return n
}

// put stores fp in an empty slot of bucket i, if it has one.
func (f *Filter) put(i, fp uint64) bool {
	s := f.slots(i)
	for j := range s {
		if s[j] == 0 {
			s[j] = fp
			f.setSlots(i, s)
			return true
		}
	}
	return false
}

// swap stores fp in slot j of bucket i and returns the fingerprint it held.
func (f *Filter) swap(i uint64, j uint, fp uint64) uint64 {
	s := f.slots(i)
	old := s[j]
	s[j] = fp
	f.setSlots(i, s)
	return old
}

// replace changes one copy of in, which bucket i holds, to out.
func (f *Filter) replace(i, in, out uint64) {
	s := f.slots(i)
	for j := range s {
		if s[j] == in {
			s[j] = out
			f.setSlots(i, s)
			return
		}
	}
}

// moveAside looks one step ahead from the full bucket i: if some
// fingerprint there has room in its other bucket, it moves it there and
// stores fp in the freed slot. This lookahead lets tables fill well past 95%
// where a plain random walk starts to fail on large tables.
func (f *Filter) moveAside(i, fp uint64) bool {
	s := f.slots(i)
	for j, v := range s {
		if a := f.alt(i, v); a != i && f.put(a, v) {
			s[j] = fp
			f.setSlots(i, s)
			return true
		}
	}
	return false
}

// AddHash adds the hash h. Adding a hash again stores another copy (each
// copy needs its own RemoveHash); a hash added more than 8 times cannot fit.
// When the two buckets of h are full it evicts stored fingerprints to their
// other buckets (preferring one that has room there), a bounded number of
// times; if no place is found it undoes the evictions and returns an error
// wrapping bloom.ErrFull: the filter is then exactly as before the call. It is
// not safe for concurrent use. It panics on the zero Filter.
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
		j := uint(r & (bucketSize - 1))
		old := f.swap(i, j, fp)
		f.path[n] = kick{bucket: uint32(i), slot: uint32(j), in: uint32(fp), out: uint32(old)}
		fp = old
		i = f.alt(i, fp)
		if f.put(i, fp) {
			f.count++
			f.rng = r
			return nil
		}
	}
	// Undo in reverse: each bucket gets back what it held. A semi-sorted
	// bucket is sorted, so its bytes depend only on its fingerprints; a
	// plain one gets each fingerprint back in its slot.
	for n := len(f.path) - 1; n >= 0; n-- {
		k := f.path[n]
		if f.layout == SemiSorted {
			f.replace(uint64(k.bucket), uint64(k.in), uint64(k.out))
		} else {
			f.swap(uint64(k.bucket), uint(k.slot), uint64(k.out))
		}
	}
	return fmt.Errorf("%w: no room for hash %#x after %d evictions at load %.4f", errFull, h, maxKicks, f.LoadFactor())
}

// RemoveHash removes one copy of the fingerprint of h from its buckets and
// returns true, or returns false, changing nothing, if neither bucket holds
// it. Remove only hashes that were added: removing a never-added hash that
// is a false positive erases another key's fingerprint, a false negative
// for that key. It is not safe for concurrent use. It panics on the zero
// Filter.
func (f *Filter) RemoveHash(h uint64) bool {
	if f.zero() {
		panic("cuckoo: RemoveHash" + zeroFilter)
	}
	i, fp := f.split(h)
	for range 2 {
		s := f.slots(i)
		for j := range s {
			if s[j] == fp {
				s[j] = 0
				f.setSlots(i, s)
				f.count--
				return true
			}
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
	c.data = alloc.Bytes(uint64(len(f.data)))
	copy(c.data, f.data)
	c.path = nil
	return &c
}

// Equal reports whether f and o have the same geometry and hold the same
// fingerprints in the same slots.
func (f *Filter) Equal(o *Filter) bool {
	if o == nil || f.fpBits != o.fpBits || f.nb != o.nb || f.layout != o.layout || f.count != o.count {
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
