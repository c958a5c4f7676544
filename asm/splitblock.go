package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// splitSalts returns the Parquet salts of blocked.SplitBlock, the constants
// splitSalt0 to splitSalt7 of blocked/salts.go.
func splitSalts() (s [8]uint32) {
	for j := range s {
		s[j] = uint32(constInt(blockedPath, fmt.Sprintf("splitSalt%d", j)))
	}
	return s
}

// A split block is 32 bytes of eight uint32 words: exactly one ymm register.
// The bit of hash x in word i is (uint32(x)*salt[i])>>27: VPMULLD of the
// broadcast x by the salts, VPSRLD by 27, then the variable 32-bit shifts
// VPSRLVD (lookup) and VPSLLVD (add).
//
// AVX2 kernels only: a zmm register would hold two blocks, i.e. two keys per
// register with two separate 32-byte loads and inserts, which adds
// instructions per key rather than removing them. The AVX-512 level runs the
// AVX2 adds, and splitHasRingAVX512: the AVX2 lookup grouped eight keys
// at a time in the AVX-512 level's ring, with PDEP and POPCNT (see
// grouped.go), for processors with AVX-512, all of which have fast BMI2. The AVX2 level looks up with splitHasAVX2Ring, the
// same grouping with byte-wise answers instead of PDEP, or splitHasAVX2.

// splitTables holds the split-block salts and dword ones of the file being
// generated once newSplitTables has emitted them; the one-key kernels
// (single.go) share them.
var splitTables [2]Mem

const splitSig = "func(blocks *[8]uint32, nblocks uint64, hs []uint64, %spf int, npf int)%s"

// newSplitTables emits the split-block salts and dword ones into the file
// being generated and sets splitTables.
func newSplitTables() (salts, ones Mem) {
	ss := splitSalts()
	var w [8]uint64
	for i := 0; i < 8; i += 2 {
		w[i/2] = uint64(ss[i]) | uint64(ss[i+1])<<32
	}
	salts = qwordTable("splitSalts", w[:4])
	ones = qwordTable("dwordOnes", []uint64{1 | 1<<32, 1 | 1<<32, 1 | 1<<32, 1 | 1<<32})
	splitTables = [2]Mem{salts, ones}
	return salts, ones
}

// splitBitIndexes returns the eight bit indexes, one per dword, of the hash
// whose low half is at xm.
func splitBitIndexes(xm Mem, salts VecVirtual) VecVirtual {
	r := YMM()
	VPBROADCASTD(xm, r)
	VPMULLD(salts, r, r)
	VPSRLD(U8(27), r, r)
	return r
}
