package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// blockedAVX2 emits package blocked's kernels_avx2_amd64.s: the kernels of
// the AVX2 level, which need AVX2 (and POPCNT for the ring lookups) but no
// AVX-512.
func blockedAVX2() {
	tables = newFilterTables(false)
	for _, k := range []int{8, 16} {
		filterHas(k, tables)
		filterHasRing(k, tables)
		filterAdd(avx2, k, tables)
		filterAddRing(k, tables)
	}
	salts, ones := newSplitTables()
	splitHas(salts, ones)
	splitHasRing(salts, ones)
	splitAdd(salts, ones)
	splitAddRing(salts, ones)
	fifteens := fifteensTable()
	countingHasAVX2(fifteens)
	countingHasRing(fifteens)
	filterOneVec(avx2, "filterHasOne", " bool", "reports whether every bit of h is set in", filterHasVecBody)
	filterOneVec(avx2, "filterAddOne", "", "sets the bits of h in", filterAddVecBody)
	splitHasOneAVX2()
	splitAddOneAVX2()
	filterLookupVec(avx2)
}

// filterHas emits the AVX2 lookup, one key at a time (the AVX-512 lookups
// are in grouped.go).
func filterHas(k int, t filterTables) {
	v := avx2
	name := fmt.Sprintf("filterHas%d%s", k, v.name)
	TEXT(name, NOSPLIT, fmt.Sprintf(filterSig, "out []bool, ", " int"))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to whether every bit of hs[i] is set (k = %d) and returns", name, k),
		"how many are. len(out) must be len(hs) and nblocks > 0.")
	salts := saltRegs(v, k, t)
	ones := v.reg()
	vmovdqu(v, t.ones, ones)
	out := Load(Param("out").Base(), GP64())
	count := GP64()
	XORQ(count, count)
	hs := Load(Param("hs").Base(), GP64())

	batchLoop(name, hs, 6, func(i Register, j int, blk Mem) {
		testBitsAVX2(broadcastX(v, hs, i, j), blk, salts, ones)
		r := GP8()
		SETCS(r)
		MOVB(r, Mem{Base: out, Index: i, Scale: 1, Disp: j})
		ADCQ(Imm(0), count)
	})
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

// testBitsAVX2 sets CF when every bit of the hash whose low half is
// broadcast in xb is set in the block at blk.
func testBitsAVX2(xb VecVirtual, blk Mem, salts [][]VecVirtual, ones VecVirtual) {
	v := avx2
	all := shiftedAnd(v, blk, bitIndexes(v, xb, salts))
	VPTEST(ones, all) // CF = every lane has bit 0 set
}

// filterHasRing emits the AVX2 lookup eight keys at a time, with the block
// offsets in a ring (see groupedLookup): nblocks must be < 1<<32.
func filterHasRing(k int, t filterTables) {
	name := fmt.Sprintf("filterHas%dAVX2Ring", k)
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedSig, "*[8]uint64"))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is filterHas%dAVX2 eight keys at a time, with the block offsets", name, k),
		"computed ahead into a ring. len(out) must be len(hs) and 0 < nblocks < 1<<32.",
		"It needs AVX, AVX2, POPCNT and MMX+ (PREFETCHT0): the Requires line above it in the .s,",
		"which TestKernelFeatures checks against kAVX2Ring in dispatch_amd64.go.")
	salts := saltRegs(avx2, k, t)
	ones := YMM()
	VMOVDQU(t.ones, ones)
	groupedLookup(name, avx2, 6, func(xm, blk Mem) {
		xb := YMM()
		VPBROADCASTD(xm, xb)
		testBitsAVX2(xb, blk, salts, ones)
	})
}

// filterAddRing emits the AVX2 add eight keys at a time, with the block
// offsets in a ring (see groupedAdd): nblocks must be < 1<<32.
func filterAddRing(k int, t filterTables) {
	name := fmt.Sprintf("filterAdd%dAVX2Ring", k)
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedAddSig, "*[8]uint64"))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is filterAdd%dAVX2 eight keys at a time, with the block offsets", name, k),
		"computed ahead into a ring. The keys are added in order; 0 < nblocks < 1<<32.")
	salts := saltRegs(avx2, k, t)
	ones := YMM()
	VMOVDQU(t.ones, ones)
	groupedAdd(name, 6, func(xm, blk Mem) {
		xb := YMM()
		VPBROADCASTD(xm, xb)
		setBits(avx2, xb, blk, salts, ones)
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

func splitHas(saltTable, onesTable Mem) {
	name := "splitHasAVX2"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitSig, "out []bool, ", " int"))
	Pragma("noescape")
	Doc(name+" sets out[i] to whether every bit of hs[i] is set in its split block",
		"and returns how many are. len(out) must be len(hs) and nblocks > 0.")
	salts, ones := YMM(), YMM()
	VMOVDQU(saltTable, salts)
	VMOVDQU(onesTable, ones)
	out := Load(Param("out").Base(), GP64())
	count := GP64()
	XORQ(count, count)
	hs := Load(Param("hs").Base(), GP64())
	batchLoop(name, hs, 5, func(i Register, j int, blk Mem) {
		idx := splitBitIndexes(Mem{Base: hs, Index: i, Scale: 8, Disp: 8 * j}, salts)
		b := YMM()
		VMOVDQU(blk, b)
		VPSRLVD(idx, b, b)
		VPTEST(ones, b) // CF = every dword has bit 0 set
		r := GP8()
		SETCS(r)
		MOVB(r, Mem{Base: out, Index: i, Scale: 1, Disp: j})
		ADCQ(Imm(0), count)
	})
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

func splitHasRing(saltTable, onesTable Mem) {
	name := "splitHasAVX2Ring"
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedSig, "*[8]uint32"))
	Pragma("noescape")
	Doc(name+" is splitHasAVX2 eight keys at a time, with the block offsets computed",
		"ahead into a ring. len(out) must be len(hs) and 0 < nblocks < 1<<32.",
		"It needs AVX, AVX2, POPCNT and MMX+ (PREFETCHT0): the Requires line above it in the .s,",
		"which TestKernelFeatures checks against kAVX2Ring in dispatch_amd64.go.")
	salts, ones := YMM(), YMM()
	VMOVDQU(saltTable, salts)
	VMOVDQU(onesTable, ones)
	groupedLookup(name, avx2, 5, func(xm, blk Mem) {
		idx := splitBitIndexes(xm, salts)
		b := YMM()
		VMOVDQU(blk, b)
		VPSRLVD(idx, b, b)
		VPTEST(ones, b) // CF = every dword has bit 0 set
	})
}

func splitAdd(saltTable, onesTable Mem) {
	name := "splitAddAVX2"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitSig, "", ""))
	Pragma("noescape")
	Doc(name + " sets the bits of every hash of hs in its split block, in order. nblocks must be > 0.")
	salts, ones := YMM(), YMM()
	VMOVDQU(saltTable, salts)
	VMOVDQU(onesTable, ones)
	hs := Load(Param("hs").Base(), GP64())
	batchLoop(name, hs, 5, func(i Register, j int, blk Mem) {
		m := splitBitIndexes(Mem{Base: hs, Index: i, Scale: 8, Disp: 8 * j}, salts)
		VPSLLVD(m, ones, m)
		// Read, OR and write back per key: keys sharing a block all land.
		VPOR(blk, m, m)
		VMOVDQU(m, blk)
	})
	VZEROUPPER()
	RET()
}

func splitAddRing(saltTable, onesTable Mem) {
	name := "splitAddAVX2Ring"
	TEXT(name, NOSPLIT, fmt.Sprintf(groupedAddSig, "*[8]uint32"))
	Pragma("noescape")
	Doc(name+" is splitAddAVX2 eight keys at a time, with the block offsets computed",
		"ahead into a ring. The keys are added in order; 0 < nblocks < 1<<32.")
	salts, ones := YMM(), YMM()
	VMOVDQU(saltTable, salts)
	VMOVDQU(onesTable, ones)
	groupedAdd(name, 5, func(xm, blk Mem) {
		m := splitBitIndexes(xm, salts)
		VPSLLVD(m, ones, m)
		// Read, OR and write back per key: keys sharing a block all land.
		VPOR(blk, m, m)
		VMOVDQU(m, blk)
	})
}

// splitHasOneAVX2 emits the AVX2 version of splitHasOne.
func splitHasOneAVX2() {
	name := "splitHasOneAVX2"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, " bool"))
	Pragma("noescape")
	splitOneDoc(name, "reports whether every bit of h is set", ", with AVX2 (cpu.Active AVX2 or above: splitHasOne jumps here)")
	blk, x, _ := oneKeyArgs("s", 5, splitFields())
	idx := splitIndexesReg(x)
	b := YMM()
	VMOVDQU(blk, b)
	VPSRLVD(idx, b, b)
	VPTEST(splitTables[1], b) // CF = every dword has bit 0 set
	SETCS(retAddr())
	VZEROUPPER()
	RET()
}

// splitAddOneAVX2 emits the AVX2 version of splitAddOne.
func splitAddOneAVX2() {
	name := "splitAddOneAVX2"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, ""))
	Pragma("noescape")
	splitOneDoc(name, "sets the bits of h", ", with AVX2 (cpu.Active AVX2 or above: splitAddOne jumps here)")
	blk, x, _ := oneKeyArgs("s", 5, splitFields())
	m := splitIndexesReg(x)
	ones := YMM()
	VMOVDQU(splitTables[1], ones)
	VPSLLVD(m, ones, m)
	VPOR(blk, m, m)
	VMOVDQU(m, blk)
	VZEROUPPER()
	RET()
}
