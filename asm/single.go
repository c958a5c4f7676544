package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// One-key kernels: Filter.HasHash/AddHash and SplitBlock.HasHash/AddHash are
// each one call to one of four entry points (filterHasOne, filterAddOne,
// splitHasOne, splitAddOne), small enough for Go to inline into the caller.
// Each takes two arguments, the filter and h, and reads the filter's blocks
// and k from the struct. The entry point (in kernels_amd64.s, see
// blocked.go) compares cpu.Active (a global, since tests and SIMDBLOOM_CPU
// change it) once with the AVX2 level and jumps, without a call, to the
// version of Active's level, in that level's file: at the AVX-512 level the Filter kernels probe the
// line as one zmm register (one VPMULLD per salt set, VPSRLVQ, VPTESTNMQ);
// at AVX2 (and AVX-512 for SplitBlock, whose block is one ymm) the AVX2
// vector probe (one broadcast, one or two VPMULLD, VPSRLVQ over the line,
// one VPTEST); below it the entry point runs a scalar probe itself (IMUL,
// SHR and BT/BTS, no AVX, so it runs on every amd64 processor) that
// computes exactly what the pure-Go addHashGo and hasHashGo do. PERF.md
// gives the measurements behind the two arguments and the global. (The
// level is chosen in the assembly: Go inlines a function with one call at
// most, and a call through a function value goes through an ABI wrapper.)

// filterLayout is where the kernels find the fields of a blocked.Filter or
// SplitBlock: the blocks slice's data pointer and length, and Filter.k.
type filterLayout struct {
	blocks, nblocks, k int
}

// filterFields and splitFields return the layouts of blocked.Filter and
// blocked.SplitBlock, from their declarations.
func filterFields() filterLayout { f, _ := layouts(); return f }
func splitFields() filterLayout  { _, s := layouts(); return s }

var layoutsCache *[2]filterLayout

func layouts() (f, s filterLayout) {
	if c := layoutsCache; c != nil {
		return c[0], c[1]
	}
	defer func() { layoutsCache = &[2]filterLayout{f, s} }()
	off, size := offsetOf(blockedPath, "Filter", "blocks")
	mustSize("blocked.Filter.blocks", size, 24)
	f.blocks, f.nblocks = off, off+8
	off, size = offsetOf(blockedPath, "Filter", "k")
	mustSize("blocked.Filter.k", size, 8)
	f.k = off
	off, size = offsetOf(blockedPath, "SplitBlock", "blocks")
	mustSize("blocked.SplitBlock.blocks", size, 24)
	s.blocks, s.nblocks = off, off+8
	return f, s
}

const (
	filterOneSig = "func(f *Filter, h uint64)%s"
	splitOneSig  = "func(s *SplitBlock, h uint64)%s"
)

// levelJumps emits the start of the entry point name: one compare of
// cpu.Active with the AVX2 level, then a jump without a call to nameAVX2 at
// that level and above. Below AVX2 it falls through to the code after it,
// the scalar version. The AVX-512 level runs the AVX2 version too: for one
// key, 512-bit registers measured 4-10% slower (PERF.md, "One-key
// lookups"), and on Intel processors they can lower the core's clock for
// everything else.
func levelJumps(name string) {
	CMPQ(activeLevel(), U8(levelAVX2))
	JB(LabelRef("scalar"))
	tailCall("·" + name + "AVX2(SB)")
	Label("scalar")
}

// oneKeyArgs loads the block of h (blocks of 1<<shift bytes) of the filter
// in argument fname and returns it, a register holding h, and the filter
// pointer.
func oneKeyArgs(fname string, shift uint8, l filterLayout) (blk Mem, x, f GPVirtual) {
	f = GP64()
	Load(Param(fname), f)
	x = GP64()
	Load(Param("h"), x)
	return blockOf(f, x, shift, l), x, f
}

// blockOf returns the block of the hash in x (blocks of 1<<shift bytes) of
// the filter at f, whose fields are at l.
func blockOf(f, x GPVirtual, shift uint8, l filterLayout) Mem {
	// blockOffset's 32-bit load of the upper half at h+12(FP) would fail
	// go vet's asmdecl check, so copy h and shift.
	t := GP64()
	MOVQ(x, t)
	SHRQ(U8(32), t)
	IMULQ(Mem{Base: f, Disp: l.nblocks}, t)
	SHRQ(U8(32), t)
	SHLQ(U8(shift), t)
	ADDQ(Mem{Base: f, Disp: l.blocks}, t)
	return Mem{Base: t}
}

// branchK jumps to label k16 when the k of the Filter at f is not 8.
func branchK(f GPVirtual, k16 string) {
	CMPQ(Mem{Base: f, Disp: filterFields().k}, U8(8))
	JNE(LabelRef(k16))
}

// broadcastLow returns a vector register of v holding the low 32 bits of
// the register x in every 32-bit lane.
func broadcastLow(v vecISA, x GPVirtual) VecVirtual {
	xb := v.reg()
	if v.lanes == 8 {
		VPBROADCASTD(x.As32(), xb) // AVX-512 broadcasts from a general register
		return xb
	}
	VMOVD(x.As32(), xb.AsX())
	VPBROADCASTD(xb.AsX(), xb)
	return xb
}

// oneIndexes returns, per salt set and register part, the bit indexes of
// hash x: VPMULLD of the broadcast by the salt table in memory, shifted
// right by 58 (see filter.go).
func oneIndexes(v vecISA, k int, x GPVirtual) [][]VecVirtual {
	xb := broadcastLow(v, x)
	idx := make([][]VecVirtual, k/8)
	for s := range idx {
		for p := 0; p < v.parts(); p++ {
			r := v.reg()
			VPMULLD(tables.salts[s].Offset(32*p), xb, r)
			VPSRLQ(U8(58), r, r)
			idx[s] = append(idx[s], r)
		}
	}
	return idx
}

// scalarIndex returns a register holding (x*salt)>>shift, x the low half of h.
func scalarIndex(x GPVirtual, salt uint32, shift uint8) GPVirtual {
	r := GP32()
	IMUL3L(U32(salt), x.As32(), r)
	SHRL(U8(shift), r)
	return r
}

// filterOneDoc documents the one-key Filter kernel name, which does what
// does says and has a result if lookup.
func filterOneDoc(name, does, how string, lookup bool) {
	if lookup {
		Doc(name + " " + does + " the *Filter f" + how + ". It returns false when f.k is neither 8 nor 16 (a zero Filter), without reading the blocks; otherwise len(f.blocks) must be > 0.")
	} else {
		Doc(name + " " + does + " the *Filter f" + how + ". f.k must be 8 or 16, len(f.blocks) > 0.")
	}
}

// filterOneVec emits the one-key Filter kernel name+v.name: the block of h,
// then vec's body for v and the filter's k.
func filterOneVec(v vecISA, name, result, does string, vec func(v vecISA, k int, blk Mem, x GPVirtual)) {
	TEXT(name+v.name, NOSPLIT, fmt.Sprintf(filterOneSig, result))
	Pragma("noescape")
	lookup := result != ""
	filterOneDoc(name+v.name, does, ", with "+v.name+" (cpu.Active at that level: "+name+" jumps here)", lookup)
	blk, x, f := oneKeyArgs("f", 6, filterFields())
	filterOneBody(lookup, f, func(k int) { vec(v, k, blk, x) })
}

// filterOneBody emits the probe of a one-key Filter kernel, body(k) for the
// k of the *Filter at f; a lookup stores its answer as the function's
// result.
func filterOneBody(lookup bool, f GPVirtual, body func(k int)) {
	// The lookup's k = 16 path first checks that k is 16: a zero Filter
	// (k = 0, no blocks) then answers false at no cost to the k = 8 path.
	// The add needs no check: its Go wrapper panics on a zero Filter.
	branchK(f, "k16")
	body(8)
	Label("k16")
	if lookup {
		CMPQ(Mem{Base: f, Disp: filterFields().k}, U8(16))
		JNE(LabelRef("zero"))
	}
	body(16)
	if lookup {
		Label("zero")
		MOVB(U8(0), retAddr())
		RET()
	}
}

// filterHasVecBody shifts each word of the line right by its bit indexes
// and tests bit 0 of every lane: VPTEST (CF) for AVX2, VPTESTNMQ and
// KORTESTB (ZF) for AVX-512.
func filterHasVecBody(v vecISA, k int, blk Mem, x GPVirtual) {
	all := shiftedAnd(v, blk, oneIndexes(v, k, x))
	if v.lanes == 8 {
		m := K()
		VPTESTNMQ_BCST(tables.ones, all, m) // lanes whose bit 0 is clear
		KORTESTB(m, m)
		SETEQ(retAddr())
	} else {
		VPTEST(tables.ones, all) // CF = every lane has bit 0 set
		SETCS(retAddr())
	}
	VZEROUPPER()
	RET()
}

// shiftedAnd loads the line at blk, shifts each word right by its bit
// indexes idx[s][p] (one register of the line's part p for salt group s)
// and returns the AND of all the shifts: per 64-bit lane, bit 0 is set iff
// every bit the lane tests is set.
func shiftedAnd(v vecISA, blk Mem, idx [][]VecVirtual) VecVirtual {
	var all VecVirtual
	for p := 0; p < v.parts(); p++ {
		b := v.reg()
		vmovdqu(v, blk.Offset(32*p), b)
		for s := range idx {
			r := v.reg()
			VPSRLVQ(idx[s][p], b, r)
			if all == nil {
				all = r
			} else if v.lanes == 8 {
				VPANDQ(r, all, all)
			} else {
				VPAND(r, all, all)
			}
		}
	}
	return all
}

// filterHasScalarBody counts the set bits with BT (CF = the bit) and ADC,
// without branches, like hasHashGo.
func filterHasScalarBody(k int, blk Mem, x GPVirtual) {
	salts := filterSalts()
	n := GP32()
	XORL(n, n)
	for j := 0; j < 8; j++ {
		w := GP64()
		MOVQ(blk.Offset(8*j), w)
		for s := 0; s < k/8; s++ {
			i := scalarIndex(x, salts[j+8*s], 26)
			BTQ(i.As64(), w) // the register form takes the index mod 64
			ADCL(U8(0), n)
		}
	}
	CMPL(n, U8(k))
	SETEQ(retAddr())
	RET()
}

// filterAddVecBody ORs ones shifted left by the bit indexes into the line.
func filterAddVecBody(v vecISA, k int, blk Mem, x GPVirtual) {
	idx := oneIndexes(v, k, x)
	ones := v.reg()
	vmovdqu(v, tables.ones, ones)
	or := func(a, b, c Op) { VPOR(a, b, c) }
	if v.lanes == 8 {
		or = func(a, b, c Op) { VPORQ(a, b, c) }
	}
	for p := 0; p < v.parts(); p++ {
		m := v.reg()
		VPSLLVQ(idx[0][p], ones, m)
		for s := 1; s < len(idx); s++ {
			m2 := v.reg()
			VPSLLVQ(idx[s][p], ones, m2)
			or(m2, m, m)
		}
		or(blk.Offset(32*p), m, m)
		vmovdqu(v, m, blk.Offset(32*p))
	}
	VZEROUPPER()
	RET()
}

// filterAddScalarBody sets each word's bits with BTS, like addHashGo.
func filterAddScalarBody(k int, blk Mem, x GPVirtual) {
	salts := filterSalts()
	for j := 0; j < 8; j++ {
		w := GP64()
		MOVQ(blk.Offset(8*j), w)
		for s := 0; s < k/8; s++ {
			BTSQ(scalarIndex(x, salts[j+8*s], 26).As64(), w)
		}
		MOVQ(w, blk.Offset(8*j))
	}
	RET()
}

// splitOneDoc documents the one-key SplitBlock kernel name.
func splitOneDoc(name, does, how string) {
	Doc(name + " " + does + " in its split block of the *SplitBlock s" + how + ". len(s.blocks) must be > 0.")
}

// splitIndexesReg is splitBitIndexes of the hash in register x, with the
// salts read from memory.
func splitIndexesReg(x GPVirtual) VecVirtual {
	r := broadcastLow(avx2, x)
	VPMULLD(splitTables[0], r, r)
	VPSRLD(U8(27), r, r)
	return r
}

// retAddr returns the memory operand of the (single) result.
func retAddr() Mem {
	r, err := ReturnIndex(0).Resolve()
	if err != nil {
		panic(err)
	}
	return r.Addr
}

// paramAddr returns the memory operand of the named argument.
func paramAddr(name string) Mem {
	p, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return p.Addr
}
