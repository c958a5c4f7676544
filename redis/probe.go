package sbredis

import (
	"math/bits"

	"github.com/simdbloom/bloom/blocked"
)

// batchKeys is how many keys AddAll and HasAll send in one pipeline.
const batchKeys = 1000

// blockOf returns the block of h among n blocks, as blocked.Filter picks it
// (FORMAT.md): the upper 32 bits scaled to n.
func blockOf(h, n uint64) uint64 {
	return ((h >> 32) * n) >> 32
}

// slotHash returns a hash with the lower 32 bits of h (which choose the
// bits inside a block) whose block among n blocks is i: the library's
// probe then tests h's bits in block i of a buffer of n fetched blocks.
// ((ceil(i*2^32/n) * n) >> 32 is i for n <= 2^32.)
func slotHash(h, i, n uint64) uint64 {
	hi := (i<<32 + n - 1) / n
	return hi<<32 | uint64(uint32(h))
}

// addOffsets appends to offs, for each hash of hs, the Redis bit offsets
// (BITFIELD's numbering: bit 0 is the most significant bit of byte 0) of its
// k bits within its shard, and returns offs with the start of each key's
// offsets in starts. The library builds the bits (blocked.AppendFilter, one
// block per key), so they are its bits by construction; scratch is reused.
func (g geometry) addOffsets(hs []uint64, slot []uint64, scratch []byte, offs []int64, starts []int) ([]byte, []int64, []int) {
	n := uint64(len(hs))
	for i, h := range hs {
		slot[i] = slotHash(h, uint64(i), n)
	}
	enc, err := blocked.AppendFilter(scratch[:0], n, g.k, slot[:len(hs)], blocked.BuildOptions{NoPayloadCRC: true})
	if err != nil {
		panic("sbredis: " + err.Error())
	}
	payload := enc[64:]
	for i, h := range hs {
		starts = append(starts, len(offs))
		blk := blockOf(h, g.blocks)
		local := blk - (blk/g.shardBlocks)*g.shardBlocks
		base := int64(g.dataOff()+local*64) * 8
		b := payload[i*64 : i*64+64]
		for j, x := range b {
			for x != 0 {
				t := bits.TrailingZeros8(x)
				x &= x - 1
				offs = append(offs, base+int64(j)*8+7-int64(t))
			}
		}
	}
	return enc, offs, starts
}
