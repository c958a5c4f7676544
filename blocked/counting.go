package blocked

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// Counting is a counting Bloom filter over 64-bit hashes that can remove
// keys. Like Filter it keeps every key in one 64-byte cache line, but a block
// holds 128 four-bit counters (8 words of 16) instead of 512 bits, and a key
// uses one counter in each word (k = 8): block ((h>>32)*blocks)>>32, counter
// (uint32(h)*salt[i])>>28 of word i, with the salts of Filter's k = 8.
//
// AddHash increments the key's 8 counters, RemoveHash decrements them and
// HasHash reports whether all 8 are non-zero. Counters saturate at 15: an
// increment of a counter at 15 leaves it at 15, and a counter at 15 is never
// decremented again (it no longer knows its count), so overflow never causes
// a false negative; it only leaves a key that cannot be fully removed.
//
// Warning: remove only keys that were added. RemoveHash refuses a key that is
// definitely absent (one of its counters is zero), but a key that was never
// added and is a false positive (all its counters non-zero because of other
// keys) is "removed" anyway, which decrements other keys' counters and can
// cause false negatives for them.
//
// Counters cost memory: at 1% FPR a Counting filter needs 45.7 bits per key,
// 4.5 times a Filter (10.1); see CountingFPR. Counting is not safe for concurrent use while any
// goroutine adds or removes; lookups alone may run concurrently.
//
// Create one with NewCounting or NewCountingBytes, or decode one with
// UnmarshalBinary or ReadFrom. The zero value is an empty filter with no
// blocks, ready for UnmarshalBinary or ReadFrom, and behaves as a zero
// Filter does: lookups answer false, read-only methods 0, Clear does
// nothing, the encoders return bloom.ErrGeometry, and AddHash, AddHashes,
// RemoveHash and RemoveHashes panic.
type Counting struct {
	blocks []block   // 64-byte aligned, 16 nibble counters per word
	hash   HashID    // key hash the caller recorded (KeyHash)
	keys   KeyFamily // key family the caller recorded (KeyFamily)
}

// countingBlockCounters is the number of 4-bit counters in one Counting block.
const countingBlockCounters = 128

// Nibble masks for SWAR counter arithmetic on a word of 16 four-bit counters.
const (
	nibbleLow = 0x1111111111111111 // bit 0 of every counter
	maxCount  = 15                 // a counter at this value is saturated
)

// countingWordFPR is the probability that a query's counter is non-zero in a
// word of 16 counters that received i keys, one counter each.
func countingWordFPR(i int) float64 { return 1 - math.Pow(15.0/16.0, float64(i)) }

// CountingFPR returns the exact false-positive rate of a Counting filter with
// nblocks blocks holding n keys, under well-mixed hashes: the Poisson mixture
// over keys per block of (1-(15/16)^i)^8. (Saturation does not change it:
// a saturated counter is non-zero, as it would be without saturation.)
func CountingFPR(n, nblocks uint64) float64 {
	if nblocks == 0 {
		return 1
	}
	lambda := float64(n) / float64(nblocks)
	return poissonMixture(lambda, func(i int) float64 { return math.Pow(countingWordFPR(i), 8) })
}

// NewCounting returns the smallest Counting filter whose exact FPR for n
// keys (CountingFPR) is at most fpr: the filter SizeCounting(n, fpr)
// describes. It returns SizeCounting's errors, and bloom.ErrTooLarge for a filter
// this platform cannot allocate.
func NewCounting(n uint64, fpr float64) (*Counting, error) {
	s, err := SizeCounting(n, fpr)
	if err != nil {
		return nil, err
	}
	if err := checkAlloc(s.Blocks, 64, keysAt(n, fpr)); err != nil {
		return nil, err
	}
	return &Counting{blocks: alignedBlocks(s.Blocks)}, nil
}

// NewCountingBytes returns an empty Counting filter of numBytes bytes,
// rounded up to a whole number of 64-byte blocks. It returns bloom.ErrGeometry if
// numBytes is 0, and bloom.ErrTooLarge for more than MaxBlocks blocks or more than
// this platform can allocate.
func NewCountingBytes(numBytes uint64) (*Counting, error) {
	nb, err := blocksOfBytes(numBytes, 64, MaxBlocks)
	if err != nil {
		return nil, err
	}
	return &Counting{blocks: alignedBlocks(nb)}, nil
}

// NumBlocks returns the number of 64-byte blocks.
func (c *Counting) NumBlocks() uint64 { return uint64(len(c.blocks)) }

// NumBits returns the size of the counter array in bits.
func (c *Counting) NumBits() uint64 { return uint64(len(c.blocks)) * 512 }

// blockAt returns the block of hash h without a bounds check (fastrange).
func (c *Counting) blockAt(h uint64) *block {
	i := ((h >> 32) * uint64(len(c.blocks))) >> 32
	return (*block)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(c.blocks)), i*64))
}

// zeroCounting ends the panic message of a mutation of a zero Counting.
const zeroCounting = " on a zero Counting; use blocked.NewCounting or NewCountingBytes"

// AddHash adds the hash h: it increments its 8 counters, leaving those at 15.
// It is not safe for concurrent use. It panics on a zero Counting.
func (c *Counting) AddHash(h uint64) {
	if len(c.blocks) == 0 {
		panic("blocked: Counting.AddHash" + zeroCounting)
	}
	countInc(c.blockAt(h), uint32(h))
}

// HasHash reports whether h may have been added (all 8 counters non-zero):
// false means it certainly was not; true is wrong with about the FPR.
func (c *Counting) HasHash(h uint64) bool {
	if len(c.blocks) == 0 {
		return false
	}
	return countHas(c.blockAt(h), uint32(h))
}

// RemoveHash removes one copy of the hash h: if all its counters are
// non-zero it decrements each one not saturated at 15 and returns true;
// otherwise h was certainly never added, and it returns false and changes
// nothing. Remove only hashes that were added: removing a never-added hash
// that is a false positive decrements other keys' counters and can cause
// false negatives. It is not safe for concurrent use. It panics on a zero
// Counting.
func (c *Counting) RemoveHash(h uint64) bool {
	if len(c.blocks) == 0 {
		panic("blocked: Counting.RemoveHash" + zeroCounting)
	}
	return countRemove(c.blockAt(h), uint32(h))
}

// batchGroup is how many keys AddHashes and HasHashes take at a time. They
// first work on word 0 of each key's block for the whole group: those loads
// are independent, so their cache misses overlap, and the rest of the work
// then finds the lines in cache. One key at a time, the ~50 instructions per
// key let the processor keep only a few misses in flight (measured at 16 MiB:
// 180 ns per key one at a time, 49 ns grouped).
const batchGroup = 16

// AddHashes adds every hash of hs. The counters end as if AddHash had been
// called for each in order (saturating increments commute). It panics on a
// zero Counting.
func (c *Counting) AddHashes(hs []uint64) {
	if len(c.blocks) == 0 {
		panic("blocked: Counting.AddHashes" + zeroCounting)
	}
	if len(hs) == 0 || countingAddHashesArch(c, hs) {
		return
	}
	countingAddHashesGeneric(c, hs)
}

// countingAddHashesGeneric is the pure-Go batch add, the reference the
// assembly must equal.
func countingAddHashesGeneric(c *Counting, hs []uint64) {
	for len(hs) >= batchGroup {
		g := hs[:batchGroup]
		var bp [batchGroup]*block
		for i, h := range g {
			bp[i] = c.blockAt(h)
			bp[i][0] = nibStep(bp[i][0], nibShift(uint32(h), salt0), 1)
		}
		for i, h := range g {
			countInc7(bp[i], uint32(h))
		}
		hs = hs[batchGroup:]
	}
	for _, h := range hs {
		countInc(c.blockAt(h), uint32(h))
	}
}

// HasHashes sets out[i] to HasHash(hs[i]) for every i and returns how many
// are true. It panics if out is shorter than hs, before touching anything.
func (c *Counting) HasHashes(hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic(fmt.Sprintf("blocked: Counting.HasHashes: out has %d elements, shorter than %d hashes", len(out), len(hs)))
	}
	out = out[:len(hs)]
	if len(hs) == 0 {
		return 0
	}
	if len(c.blocks) == 0 {
		clear(out)
		return 0
	}
	if n, ok := countingHasHashesArch(c, hs, out); ok {
		return n
	}
	return countingHasHashesGeneric(c, hs, out)
}

// countingHasHashesGeneric is the pure-Go batch lookup, the reference the
// assembly must equal; out has the length of hs.
func countingHasHashesGeneric(c *Counting, hs []uint64, out []bool) int {
	n := 0
	for len(hs) >= batchGroup {
		g, o := hs[:batchGroup], out[:batchGroup]
		var bp [batchGroup]*block
		var v0 [batchGroup]uint64
		for i, h := range g {
			bp[i] = c.blockAt(h)
			v0[i] = nibNonZero(bp[i][0], nibShift(uint32(h), salt0))
		}
		for i, h := range g {
			r := countHas7(bp[i], uint32(h), v0[i])
			o[i] = r
			n += int(b2u(r))
		}
		hs, out = hs[batchGroup:], out[batchGroup:]
	}
	for i, h := range hs {
		r := countHas(c.blockAt(h), uint32(h))
		out[i] = r
		n += int(b2u(r))
	}
	return n
}

// RemoveHashes calls RemoveHash for every hash of hs, in order, and returns
// how many were removed (the others were definitely absent when their turn
// came). The same warning as RemoveHash applies. It panics on a zero
// Counting.
func (c *Counting) RemoveHashes(hs []uint64) int {
	if len(c.blocks) == 0 {
		panic("blocked: Counting.RemoveHashes" + zeroCounting)
	}
	n := 0
	for _, h := range hs {
		n += int(b2u(c.RemoveHash(h)))
	}
	return n
}

// words returns the counters as one slice of words.
func (c *Counting) words() []uint64 {
	if len(c.blocks) == 0 {
		return nil
	}
	return unsafe.Slice(&c.blocks[0][0], len(c.blocks)*8)
}

// nonZeroNibbles returns a word with bit 4j set iff counter j of w is non-zero.
func nonZeroNibbles(w uint64) uint64 { return (w | w>>1 | w>>2 | w>>3) & nibbleLow }

// fullNibbles returns a word with bit 4j set iff counter j of w is 15.
func fullNibbles(w uint64) uint64 { return w & (w >> 1) & (w >> 2) & (w >> 3) & nibbleLow }

// Saturated returns how many counters are stuck at 15. Keys whose counters
// are all saturated can no longer be removed; a growing count means the
// filter holds far more keys (or copies of one key) than planned.
func (c *Counting) Saturated() uint64 {
	var n uint64
	for _, w := range c.words() {
		n += uint64(bits.OnesCount64(fullNibbles(w)))
	}
	return n
}

// EstimatedCount returns the number of keys added and not removed: the sum
// of the counters over the 8 each key increments, exact while no counter is
// saturated (Saturated returns 0), a lower bound after.
func (c *Counting) EstimatedCount() float64 {
	var sum uint64
	for _, w := range c.words() {
		sum += nibbleSum(w)
	}
	return float64(sum) / 8
}

// nibbleSum returns the sum of the 16 four-bit counters of w.
func nibbleSum(w uint64) uint64 {
	const low = 0x0f0f0f0f0f0f0f0f
	b := w&low + w>>4&low               // 8 bytes of at most 30
	return b * 0x0101010101010101 >> 56 // their sum, at most 240
}

// FillRatio returns the fraction of counters that are non-zero (the
// counterpart of a Bloom filter's fraction of set bits).
func (c *Counting) FillRatio() float64 {
	if len(c.blocks) == 0 {
		return 0
	}
	var n uint64
	for _, w := range c.words() {
		n += uint64(bits.OnesCount64(nonZeroNibbles(w)))
	}
	return float64(n) / float64(uint64(len(c.blocks))*countingBlockCounters)
}

// EstimatedFPR returns the false-positive rate of the filter as it is now:
// the mean over blocks of the product over words of the fraction of non-zero
// counters. It is exact for well-mixed hashes, given the counters.
func (c *Counting) EstimatedFPR() float64 {
	if len(c.blocks) == 0 {
		return 0
	}
	sum := 0.0
	for i := range c.blocks {
		p := 1.0
		for _, w := range c.blocks[i] {
			p *= float64(bits.OnesCount64(nonZeroNibbles(w))) / 16
		}
		sum += p
	}
	return sum / float64(len(c.blocks))
}

// Clear removes every key, keeping the size. On a zero Counting it does
// nothing.
func (c *Counting) Clear() { clear(c.blocks) }

// Clone returns an independent copy of c (a zero Counting for a zero c).
func (c *Counting) Clone() *Counting {
	if len(c.blocks) == 0 {
		return &Counting{hash: c.hash, keys: c.keys}
	}
	d := &Counting{blocks: alignedBlocks(uint64(len(c.blocks))), hash: c.hash, keys: c.keys}
	copy(d.blocks, c.blocks)
	return d
}

// Equal reports whether c and o have the same size, the same key hash
// (KeyHash) and the same counters, as Filter.Equal does.
func (c *Counting) Equal(o *Counting) bool {
	if o == nil || len(c.blocks) != len(o.blocks) || c.hash != o.hash {
		return false
	}
	a, b := c.words(), o.words()
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The counter kernels. Counter j of a word is bits 4j..4j+3; a key's counter
// in word i is j = (x*salt[i])>>28, the top 4 bits of the salted product, so
// its bit offset is 4j. Every update is branch-free nibble arithmetic on the
// whole word: (n+1)>>4 is 1 exactly when the counter n is 15, so adding or
// subtracting (1 ^ (n+1)>>4) << 4j steps the counter unless it is saturated,
// and never carries into a neighbour (0..14 + 1 <= 15; the decrement runs only
// on counters known to be non-zero).

// nibShift returns the bit offset of the counter that x selects with salt.
func nibShift(x, salt uint32) uint64 { return uint64((x*salt)>>28) * 4 }

// nibStep returns the word with the counter at offset s incremented
// (sign = +1) or decremented (sign = -1 as a uint64), unless it is at 15.
func nibStep(w, s, sign uint64) uint64 {
	n := w >> s & maxCount
	return w + ((n+1)>>4^1)*sign<<s
}

// nibNonZero returns 16 + (counter at offset s of w) - 1, whose bit 4 is set
// exactly when the counter is non-zero; ANDing these tests eight at once.
func nibNonZero(w, s uint64) uint64 { return w>>s&maxCount + 15 }

// countInc increments the 8 counters of x in b, saturating at 15.
func countInc(b *block, x uint32) {
	b[0] = nibStep(b[0], nibShift(x, salt0), 1)
	countInc7(b, x)
}

// countInc7 increments the counters of x in words 1 to 7 of b.
func countInc7(b *block, x uint32) {
	b[1] = nibStep(b[1], nibShift(x, salt1), 1)
	b[2] = nibStep(b[2], nibShift(x, salt2), 1)
	b[3] = nibStep(b[3], nibShift(x, salt3), 1)
	b[4] = nibStep(b[4], nibShift(x, salt4), 1)
	b[5] = nibStep(b[5], nibShift(x, salt5), 1)
	b[6] = nibStep(b[6], nibShift(x, salt6), 1)
	b[7] = nibStep(b[7], nibShift(x, salt7), 1)
}

// countRemove decrements the 8 counters of x in b, leaving those at 15, if
// all 8 are non-zero, and reports whether it did. The shifts are computed
// once for the test and the update.
func countRemove(b *block, x uint32) bool {
	s0, s1, s2, s3 := nibShift(x, salt0), nibShift(x, salt1), nibShift(x, salt2), nibShift(x, salt3)
	s4, s5, s6, s7 := nibShift(x, salt4), nibShift(x, salt5), nibShift(x, salt6), nibShift(x, salt7)
	v := nibNonZero(b[0], s0) & nibNonZero(b[1], s1) & nibNonZero(b[2], s2) & nibNonZero(b[3], s3) &
		nibNonZero(b[4], s4) & nibNonZero(b[5], s5) & nibNonZero(b[6], s6) & nibNonZero(b[7], s7)
	if v&16 == 0 {
		return false
	}
	const minus1 = ^uint64(0)
	b[0] = nibStep(b[0], s0, minus1)
	b[1] = nibStep(b[1], s1, minus1)
	b[2] = nibStep(b[2], s2, minus1)
	b[3] = nibStep(b[3], s3, minus1)
	b[4] = nibStep(b[4], s4, minus1)
	b[5] = nibStep(b[5], s5, minus1)
	b[6] = nibStep(b[6], s6, minus1)
	b[7] = nibStep(b[7], s7, minus1)
	return true
}

// countHas reports whether the 8 counters of x in b are all non-zero,
// without branches.
func countHas(b *block, x uint32) bool {
	return countHas7(b, x, nibNonZero(b[0], nibShift(x, salt0)))
}

// countHas7 is countHas given v, nibNonZero of word 0's counter.
func countHas7(b *block, x uint32, v uint64) bool {
	v &= nibNonZero(b[1], nibShift(x, salt1))
	v &= nibNonZero(b[2], nibShift(x, salt2))
	v &= nibNonZero(b[3], nibShift(x, salt3))
	v &= nibNonZero(b[4], nibShift(x, salt4))
	v &= nibNonZero(b[5], nibShift(x, salt5))
	v &= nibNonZero(b[6], nibShift(x, salt6))
	v &= nibNonZero(b[7], nibShift(x, salt7))
	return v&16 != 0
}
