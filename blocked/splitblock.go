package blocked

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"

	"github.com/simdbloom/bloom/internal/errs"
)

// splitBlockBytes is the size of one SplitBlock block: 256 bits (NumBits()/256 blocks).
const splitBlockBytes = 32

// maxSplitBlocks is the largest number of blocks a SplitBlock may have: block
// choice maps the upper 32 bits of a hash onto the blocks, so at most 2^32
// (128 GiB). Parquet readers accept far less (128 MiB); see package sbparquet.
const maxSplitBlocks uint64 = 1 << 32

// splitBlock is one Parquet block: eight 32-bit words, 32 bytes.
type splitBlock [8]uint32

// SplitBlock is the Parquet split block Bloom filter over 64-bit hashes,
// bit for bit as the Parquet specification (BloomFilter.md) defines it.
//
// A block is 32 bytes: eight 32-bit words. The upper 32 bits of a hash choose
// the block (((h>>32) * blocks) >> 32) and the lower 32 bits set one bit in
// each word: bit (uint32(h)*salt[i])>>27 of word i, with the specification's
// eight salts. The serialized bitset (Bitset, SplitBlockFromBitset) is the
// blocks in order, each word little-endian, on every platform: exactly the
// bytes a Parquet file stores after the filter header.
//
// For Parquet the hash must be XXH64 (seed 0) of the value's plain encoding;
// package github.com/simdbloom/bloom/parquet computes it.
//
// Create filters with NewSplitBlock, NewSplitBlockBytes or
// SplitBlockFromBitset, or decode one with UnmarshalBinary or ReadFrom. The
// zero value is an empty filter with no blocks, ready for UnmarshalBinary or
// ReadFrom, and behaves as a zero Filter does: lookups answer false,
// read-only methods 0, Clear does nothing, the encoders return bloom.ErrGeometry,
// and the methods that add keys (and Union, Intersect) panic. Concurrency is
// as for Filter: lookups may run from many goroutines at once, changes may
// not.
type SplitBlock struct {
	// The one-key assembly (splitAddOne, splitHasOne) reads blocks' data
	// pointer and length at the offsets that ../asm takes from this
	// declaration at go generate.
	blocks []splitBlock // 64-byte aligned, so no block straddles a cache line
	hash   HashID       // key hash the caller recorded (KeyHash)
	keys   KeyFamily    // key family the caller recorded (KeyFamily)
}

// SplitBlockFPR returns the exact false-positive rate of a SplitBlock with
// nblocks blocks holding n keys, under well-mixed hashes: a Poisson mixture
// over the number of keys per block,
// sum_i Poisson(i; n/nblocks) * (1-(31/32)^i)^8.
func SplitBlockFPR(n, nblocks uint64) float64 {
	if nblocks == 0 {
		return 1
	}
	lambda := float64(n) / float64(nblocks)
	return poissonMixture(lambda, func(i int) float64 {
		return math.Pow(1-math.Pow(31.0/32.0, float64(i)), 8)
	})
}

// NewSplitBlock returns the smallest SplitBlock (in whole 32-byte blocks)
// whose exact false-positive rate for n keys is at most fpr. Its size need
// not be a power of two; package sbparquet sizes filters the way Parquet
// readers require.
//
// It is the filter SizeSplitBlock(n, fpr) describes, and returns its errors;
// it also returns bloom.ErrTooLarge for a filter this platform cannot allocate.
func NewSplitBlock(n uint64, fpr float64) (*SplitBlock, error) {
	s, err := SizeSplitBlock(n, fpr)
	if err != nil {
		return nil, err
	}
	if err := checkAlloc(s.Blocks, splitBlockBytes, keysAt(n, fpr)); err != nil {
		return nil, err
	}
	return newSplitBlock(s.Blocks), nil
}

// NewSplitBlockBytes returns an empty SplitBlock of numBytes bytes, rounded
// up to a whole number of 32-byte blocks. It returns bloom.ErrGeometry if numBytes
// is 0, and bloom.ErrTooLarge for more than 2^32 blocks or more than this
// platform can allocate.
func NewSplitBlockBytes(numBytes uint64) (*SplitBlock, error) {
	nb, err := blocksOfBytes(numBytes, splitBlockBytes, maxSplitBlocks)
	if err != nil {
		return nil, err
	}
	return newSplitBlock(nb), nil
}

// SplitBlockFromBitset returns a SplitBlock holding a copy of the serialized
// bitset b (as Bitset returns it, or as a Parquet file stores it), whose
// length must be a positive multiple of 32 (else bloom.ErrGeometry).
func SplitBlockFromBitset(b []byte) (*SplitBlock, error) {
	nb, err := splitBlocksOf(len(b))
	if err != nil {
		return nil, err
	}
	s := newSplitBlock(nb)
	if littleEndian {
		copy(s.bytes(), b)
		return s, nil
	}
	w := s.words()
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return s, nil
}

// splitBlocksOf returns the number of blocks in numBytes bytes, or an error
// unless numBytes is a positive multiple of 32 and not too large.
func splitBlocksOf(numBytes int) (uint64, error) {
	if numBytes <= 0 || numBytes%splitBlockBytes != 0 {
		return 0, fmt.Errorf("%w: split block size must be a positive multiple of 32 bytes, got %d", errs.ErrGeometry, numBytes)
	}
	return blocksOfBytes(uint64(numBytes), splitBlockBytes, maxSplitBlocks)
}

func newSplitBlock(nblocks uint64) *SplitBlock {
	return &SplitBlock{blocks: alignedSplitBlocks(nblocks)}
}

// alignedSplitBlocks allocates n zeroed blocks starting at a 64-byte
// boundary (see alignedBlocks).
func alignedSplitBlocks(n uint64) []splitBlock {
	return unsafe.Slice((*splitBlock)(unsafe.Pointer(unsafe.SliceData(alloc.Words(n*4)))), n)
}

// littleEndian reports whether this machine stores words little-endian, so
// that the in-memory blocks are already the serialized bitset.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// NumBlocks returns the number of 32-byte blocks.
func (s *SplitBlock) NumBlocks() uint64 { return uint64(len(s.blocks)) }

// NumBits returns the size of the bitset in bits.
func (s *SplitBlock) NumBits() uint64 { return uint64(len(s.blocks)) * splitBlockBytes * 8 }

// blockAt returns the block of hash h, without a bounds check: fastrange
// ((h>>32)*n)>>32 is always below n.
func (s *SplitBlock) blockAt(h uint64) *splitBlock {
	i := ((h >> 32) * uint64(len(s.blocks))) >> 32
	return (*splitBlock)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.blocks)), i*splitBlockBytes))
}

// zeroSplitBlock ends the panic message of a mutation of a zero SplitBlock.
const zeroSplitBlock = " on a zero SplitBlock; use blocked.NewSplitBlock, NewSplitBlockBytes or SplitBlockFromBitset"

// AddHash adds the hash h. It is not safe for concurrent use. It panics on a
// zero SplitBlock.
func (s *SplitBlock) AddHash(h uint64) {
	// On amd64 AddHash and HasHash are one call each to an assembly kernel
	// (splitAddOne, splitHasOne) that Go inlines into the caller: it reads
	// cpu.Active and runs the AVX2 probe at the AVX2 and AVX-512 levels and
	// a scalar one below, both equal to the pure-Go addHashGo and hasHashGo.
	if len(s.blocks) == 0 {
		panic("blocked: SplitBlock.AddHash" + zeroSplitBlock)
	}
	if oneKeyAsm {
		splitAddOne(s, h)
		return
	}
	s.addHashGo(h)
}

// HasHash reports whether h may have been added: false means it certainly
// was not; true is wrong with probability about the filter's FPR.
func (s *SplitBlock) HasHash(h uint64) bool {
	if len(s.blocks) == 0 {
		return false
	}
	if oneKeyAsm {
		return splitHasOne(s, h)
	}
	return s.hasHashGo(h)
}

// addHashGo and hasHashGo are the generic kernel for one key, the reference
// the assembly must equal. Each spells out the block probe rather than
// calling a helper: a helper is too large to inline, and one call per key
// instead of two measured faster.

func (s *SplitBlock) addHashGo(h uint64) {
	b, x := s.blockAt(h), uint32(h)
	b[0] |= 1 << ((x * splitSalt0) >> 27)
	b[1] |= 1 << ((x * splitSalt1) >> 27)
	b[2] |= 1 << ((x * splitSalt2) >> 27)
	b[3] |= 1 << ((x * splitSalt3) >> 27)
	b[4] |= 1 << ((x * splitSalt4) >> 27)
	b[5] |= 1 << ((x * splitSalt5) >> 27)
	b[6] |= 1 << ((x * splitSalt6) >> 27)
	b[7] |= 1 << ((x * splitSalt7) >> 27)
}

func (s *SplitBlock) hasHashGo(h uint64) bool {
	b, x := s.blockAt(h), uint32(h)
	v := b[0] >> ((x * splitSalt0) >> 27)
	v &= b[1] >> ((x * splitSalt1) >> 27)
	v &= b[2] >> ((x * splitSalt2) >> 27)
	v &= b[3] >> ((x * splitSalt3) >> 27)
	v &= b[4] >> ((x * splitSalt4) >> 27)
	v &= b[5] >> ((x * splitSalt5) >> 27)
	v &= b[6] >> ((x * splitSalt6) >> 27)
	v &= b[7] >> ((x * splitSalt7) >> 27)
	return v&1 != 0
}

// words returns the filter's bits as one slice of 32-bit words.
func (s *SplitBlock) words() []uint32 {
	if len(s.blocks) == 0 {
		return nil
	}
	return unsafe.Slice(&s.blocks[0][0], len(s.blocks)*8)
}

// bytes returns the filter's memory as bytes (the bitset on little-endian machines).
func (s *SplitBlock) bytes() []byte {
	if len(s.blocks) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s.blocks[0])), len(s.blocks)*splitBlockBytes)
}

// Bitset returns a copy of the filter's serialized bitset: the blocks in
// order, each 32-bit word little-endian, as Parquet stores it.
func (s *SplitBlock) Bitset() []byte {
	out := make([]byte, s.sizeBytes())
	if littleEndian {
		copy(out, s.bytes())
		return out
	}
	for i, w := range s.words() {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return out
}

// FillRatio returns the fraction of bits that are set. A well-sized filter at
// its planned number of keys is below one half; far above means overflow.
func (s *SplitBlock) FillRatio() float64 {
	if len(s.blocks) == 0 {
		return 0
	}
	var n uint64
	for _, w := range s.words() {
		n += uint64(bits.OnesCount32(w))
	}
	return float64(n) / float64(s.NumBits())
}

// EstimatedCount estimates how many distinct keys were added, from each
// block's number of set bits (the maximum-likelihood count for a block whose
// eight 32-bit words each received one bit per key).
func (s *SplitBlock) EstimatedCount() float64 {
	const blockBits = splitBlockBytes * 8
	l := math.Log1p(-1.0 / 32)
	total := 0.0
	for i := range s.blocks {
		x := 0
		for _, w := range s.blocks[i] {
			x += bits.OnesCount32(w)
		}
		if x == 0 {
			continue
		}
		fill := float64(x) / blockBits
		if x == blockBits {
			fill = (blockBits - 0.5) / blockBits // saturated: a lower bound
		}
		total += math.Log1p(-fill) / l
	}
	return total
}

// EstimatedFPR returns the false-positive rate of the filter as it is now:
// the mean over blocks of the probability that a random hash finds all its
// bits set there. It is exact for well-mixed hashes, given the bits.
func (s *SplitBlock) EstimatedFPR() float64 {
	if len(s.blocks) == 0 {
		return 0
	}
	sum := 0.0
	for i := range s.blocks {
		p := 1.0
		for _, w := range s.blocks[i] {
			p *= float64(bits.OnesCount32(w)) / 32
		}
		sum += p
	}
	return sum / float64(len(s.blocks))
}

// compatible returns an error unless o has the same geometry as s.
func (s *SplitBlock) compatible(o *SplitBlock) error {
	if o == nil {
		return fmt.Errorf("%w: other split block filter is nil", errs.ErrGeometry)
	}
	if len(s.blocks) != len(o.blocks) {
		return fmt.Errorf("%w: %d split blocks vs %d", errs.ErrGeometry, len(s.blocks), len(o.blocks))
	}
	return nil
}

// Union adds every key of o to s (bitwise OR). Both must have the same number
// of blocks (else bloom.ErrGeometry) and key hashes that agree (else
// bloom.ErrHashMismatch, as for Filter.Union); otherwise s is unchanged. A zero
// or nil o is bloom.ErrGeometry; a zero s panics.
func (s *SplitBlock) Union(o *SplitBlock) error { return s.combine(o, "SplitBlock.Union", false) }

// Intersect keeps in s only the bits also set in o (bitwise AND): every key
// added to both still answers true. Both must have the same number of
// blocks and key hashes that agree, as for Union; otherwise s is unchanged.
// A zero or nil o is bloom.ErrGeometry; a zero s panics.
func (s *SplitBlock) Intersect(o *SplitBlock) error {
	return s.combine(o, "SplitBlock.Intersect", true)
}

// combine is Union (and false) or Intersect (and true), named op in the
// panic of a zero s.
func (s *SplitBlock) combine(o *SplitBlock, op string, and bool) error {
	if len(s.blocks) == 0 {
		panic("blocked: " + op + zeroSplitBlock)
	}
	if err := s.compatible(o); err != nil {
		return err
	}
	id, err := combinedHash(s.hash, o.hash)
	if err != nil {
		return err
	}
	keys, err := combinedKeys(s.keys, o.keys)
	if err != nil {
		return err
	}
	combineWords(s.words(), o.words(), and)
	s.hash, s.keys = id, keys
	return nil
}

// Clear removes every key, keeping the size. On a zero SplitBlock it does
// nothing.
func (s *SplitBlock) Clear() { clear(s.blocks) }

// Clone returns an independent copy of s (a zero SplitBlock for a zero s).
func (s *SplitBlock) Clone() *SplitBlock {
	if len(s.blocks) == 0 {
		return &SplitBlock{hash: s.hash, keys: s.keys}
	}
	c := newSplitBlock(uint64(len(s.blocks)))
	copy(c.blocks, s.blocks)
	c.hash, c.keys = s.hash, s.keys
	return c
}

// Equal reports whether s and o have the same number of blocks, the same key
// hash (KeyHash) and the same bits, as Filter.Equal does.
func (s *SplitBlock) Equal(o *SplitBlock) bool {
	if s.compatible(o) != nil || s.hash != o.hash {
		return false
	}
	a, b := s.words(), o.words()
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
