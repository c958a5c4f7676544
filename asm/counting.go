package main

import (
	"fmt"

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

func countingHasAVX512(fifteens Mem) {
	name := "countingHasAVX512"
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedSig, "*[8]uint64"))
	Pragma("noescape")
	Doc(name+" sets out[i] to whether the 8 counters of hs[i] are all non-zero and returns",
		"how many are, eight keys at a time. len(out) must be len(hs) and nblocks > 0.",
		"It needs AVX, AVX-512 F and DQ, BMI2 (PDEPQ), POPCNT and MMX+ (PREFETCHT0): the Requires",
		"line above it in the .s, which TestKernelFeatures checks against kAVX512Has in dispatch_amd64.go.")
	f := ZMM()
	VMOVDQU64(fifteens, f)
	groupedLookup(name, avx512, 6, func(xm, blk Mem) {
		s := counterShifts(avx512, xm, 0)
		b := ZMM()
		VMOVDQU64(blk, b)
		VPSRLVQ(s, b, b)
		m := K()
		VPTESTMQ(f, b, m) // lane i: counter i non-zero
		KORTESTB(m, m)    // CF = all 8 are
	})
}

func countingHasAVX2(fifteens Mem) {
	name := "countingHasAVX2"
	TEXT(name, NOSPLIT, "func(blocks *[8]uint64, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int")
	Pragma("noescape")
	Doc(name+" sets out[i] to whether the 8 counters of hs[i] are all non-zero and returns",
		"how many are. len(out) must be len(hs) and nblocks > 0.")
	f, zero := YMM(), YMM()
	VMOVDQU(fifteens, f)
	VPXOR(zero, zero, zero)
	out := Load(Param("out").Base(), GP64())
	count := GP64()
	XORQ(count, count)
	hs := Load(Param("hs").Base(), GP64())
	batchLoop(name, hs, 6, func(i Register, j int, blk Mem) {
		anyZero := zeroCounters(Mem{Base: hs, Index: i, Scale: 8, Disp: 8 * j}, blk, f, zero)
		VPTEST(anyZero, anyZero) // ZF = no counter is zero
		r := GP8()
		SETEQ(r)
		MOVB(r, Mem{Base: out, Index: i, Scale: 1, Disp: j})
		MOVBQZX(r, r.As64())
		ADDQ(r.As64(), count)
	})
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

// zeroCounters returns a ymm register that is zero iff the 8 counters of
// the hash whose low half is at xm are all non-zero in the block at blk
// (AVX2; f holds 15 in every qword, zero is zero).
func zeroCounters(xm, blk Mem, f, zero VecVirtual) VecVirtual {
	var anyZero VecVirtual
	for p := 0; p < 2; p++ {
		s := counterShifts(avx2, xm, p)
		b := YMM()
		VMOVDQU(blk.Offset(32*p), b)
		VPSRLVQ(s, b, b)
		VPAND(f, b, b)
		VPCMPEQQ(zero, b, b) // all ones where the counter is zero
		if anyZero == nil {
			anyZero = b
		} else {
			VPOR(b, anyZero, anyZero)
		}
	}
	return anyZero
}

func countingHasRing(fifteens Mem) {
	name := "countingHasAVX2Ring"
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedSig, "*[8]uint64"))
	Pragma("noescape")
	Doc(name+" is countingHasAVX2 eight keys at a time, with the block offsets computed",
		"ahead into a ring. len(out) must be len(hs) and 0 < nblocks < 1<<32.",
		"It needs AVX, AVX2, POPCNT and MMX+ (PREFETCHT0): the Requires line above it in the .s,",
		"which TestKernelFeatures checks against kAVX2Ring in dispatch_amd64.go.")
	f, zero := YMM(), YMM()
	VMOVDQU(fifteens, f)
	VPXOR(zero, zero, zero)
	groupedLookup(name, avx2, 6, func(xm, blk Mem) {
		anyZero := zeroCounters(xm, blk, f, zero)
		VPTEST(anyZero, zero) // CF = anyZero is zero: no counter is zero
	})
}
