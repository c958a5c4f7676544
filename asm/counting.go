package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// blocked.Counting lookups. A block is 8 words of 16 four-bit counters; the
// counter of hash x in word i is (uint32(x)*salt[i])>>28 with the Filter's
// first 8 salts, and x is present iff its 8 counters are all non-zero.
//
// As for the Filter, VPMULLD of the broadcast x by the salt table leaves
// uint32(x*salt[i]) in the upper half of 64-bit lane i; VPSRLQ $60 gives the
// counter index and VPSLLQ $2 its bit offset. VPSRLVQ brings each counter to
// the bottom of its lane, and the lane's counter is non-zero iff the low 4
// bits are. AVX-512: VPTESTMQ against 15 and KORTESTB over the 8 lanes, in
// the grouped loop of grouped.go. AVX2: two ymm halves, VPAND 15, VPCMPEQQ
// with zero and VPTEST (ZF = no lane is zero), one key at a time
// (countingHasAVX2) or eight, in the grouped loop (countingHasAVX2Ring).
// Both are kept: each is several times faster than pure Go (PERF.md).

// fifteensTable emits eight 64-bit 15s into the file being generated.
func fifteensTable() Mem {
	return qwordTable("qwordFifteens", []uint64{15, 15, 15, 15, 15, 15, 15, 15})
}

// counterShifts returns the bit offsets of the counters of the hash whose
// low half is at xm, for register part p.
func counterShifts(v vecISA, xm Mem, p int) VecVirtual {
	r := v.reg()
	VPBROADCASTD(xm, r)
	VPMULLD(tables.salts[0].Offset(32*p), r, r)
	VPSRLQ(U8(60), r, r)
	VPSLLQ(U8(2), r, r)
	return r
}
