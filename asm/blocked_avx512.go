package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// blockedAVX512 emits package blocked's kernels_avx512_amd64.s: the kernels
// of the AVX-512 level.
func blockedAVX512() {
	tables = newFilterTables(true)
	for _, k := range []int{8, 16} {
		groupedHas(k, tables)
		groupedHasBitalg(k, tables)
		filterAdd(avx512, k, tables)
	}
	salts, ones := newSplitTables()
	splitHasRingAVX512(salts, ones)
	countingHasAVX512(fifteensTable())
}

// groupedHas emits the AVX-512 Filter lookup of k bits, eight keys at a
// time (see groupedLookup), testing bits with VPSRLVQ and VPTESTMQ.
func groupedHas(k int, t filterTables) {
	name := fmt.Sprintf("filterHas%dAVX512", k)
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedSig, "*[8]uint64"))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to whether every bit of hs[i] is set (k = %d) and returns", name, k),
		"how many are, eight keys at a time. len(out) must be len(hs) and nblocks > 0.",
		"It needs AVX, AVX-512 F and DQ, BMI2 (PDEPQ), POPCNT and MMX+ (PREFETCHT0): the Requires",
		"line above it in the .s, which TestKernelFeatures checks against kAVX512Has in dispatch_amd64.go.")
	v := avx512
	salts := saltRegs(v, k, t)
	ones := ZMM()
	VMOVDQU64(t.ones, ones)
	// CF = every bit of the hash at xm is set in the block at blk.
	groupedLookup(name, avx512, 6, func(xm, blk Mem) {
		xb := ZMM()
		VPBROADCASTD(xm, xb)
		all := shiftedAnd(v, blk, bitIndexes(v, xb, salts))
		m := K()
		VPTESTMQ(ones, all, m)
		KORTESTB(m, m)
	})
}

// groupedHasBitalg is groupedHas with the bit test of AVX-512 BITALG: one
// VPMULLQ of the whole hash by the salts shifted left by 6 leaves each
// word's bit index in the low six bits of byte 4 of its lane
// (filterTables.saltsByte4), and one VPSHUFBITQMB reads the indexed bit of
// each word into bit 4 of that lane's byte group of a mask, which KTESTQ
// checks against 0x1010101010101010. No shifts: the VPSRLVQ kernel spends
// two of the vector shift unit's slots per key (VPSRLQ and VPSRLVQ), and on
// Zen 4, which splits each 512-bit operation in two, that unit is what
// bounds it (PERF.md). Processors with AVX-512 but not BITALG (Intel
// Skylake-SP, Cascade Lake) run the VPSRLVQ kernel (cpu.BITALG false).
func groupedHasBitalg(k int, t filterTables) {
	name := fmt.Sprintf("filterHas%dBITALG", k)
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedSig, "*[8]uint64"))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is filterHas%dAVX512 with the bit test of AVX-512 BITALG (VPSHUFBITQMB).", name, k),
		"len(out) must be len(hs) and nblocks > 0.")
	var salts [2]VecVirtual
	for s := 0; s < k/8; s++ {
		salts[s] = ZMM()
		VMOVDQU64(t.saltsByte4[s], salts[s])
	}
	bit4 := GP64()
	MOVQ(U64(0x1010101010101010), bit4)
	sel := K()
	KMOVQ(bit4, sel)
	groupedLookup(name, avx512, 6, func(xm, blk Mem) {
		xb := ZMM()
		VPBROADCASTQ(xm, xb)
		b := ZMM()
		VMOVDQU64(blk, b)
		var m Op
		for s := 0; s < k/8; s++ {
			idx := ZMM()
			VPMULLQ(salts[s], xb, idx)
			ms := K()
			VPSHUFBITQMB(idx, b, ms)
			if m != nil {
				KANDQ(m, ms, ms)
			}
			m = ms
		}
		KTESTQ(sel, m) // CF = every selected bit of m is set
	})
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

// splitHasRingAVX512 emits the SplitBlock lookup of the AVX-512 level:
// the AVX2 probe of splitHasAVX2Ring (a split block is one ymm register) in
// the AVX-512 level's ring (see groupedLookup), which computes the block
// offsets of eight keys with VPMULLQ, for any number of blocks, and spreads
// their answers with PDEP.
func splitHasRingAVX512(saltTable, onesTable Mem) {
	name := "splitHasRingAVX512"
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedSig, "*[8]uint32"))
	Pragma("noescape")
	Doc(name+" is the SplitBlock lookup of the AVX-512 level (it needs AVX-512F and DQ): the probes of splitHasAVX2Ring, the block",
		"offsets of eight keys at a time with VPMULLQ, answers spread with PDEPQ (BMI2) and counted",
		"with POPCNT. len(out) must be len(hs) and nblocks > 0.")
	salts, ones := YMM(), YMM()
	VMOVDQU(saltTable, salts)
	VMOVDQU(onesTable, ones)
	groupedLookup(name, avx512, 5, func(xm, blk Mem) {
		idx := splitBitIndexes(xm, salts)
		b := YMM()
		VMOVDQU(blk, b)
		VPSRLVD(idx, b, b)
		VPTEST(ones, b) // CF = every dword has bit 0 set
	})
}
