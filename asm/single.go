package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// One-key kernels: Filter.HasHash/AddHash and SplitBlock.HasHash/AddHash are
// each one call to one of these four functions, small enough for Go to
// inline into the caller. Each takes two arguments, the filter and h, reads
// the filter's blocks and k from the struct and the level from cpu.Active (a
// global, since tests and SIMDBLOOM_CPU change it), and branches inside: at
// the AVX-512 level the Filter kernels probe the line as one zmm register
// (one VPMULLD per salt set, VPSRLVQ, VPTESTNMQ); at AVX2 (and AVX-512 for
// SplitBlock, whose block is one ymm) the AVX2 vector probe (one broadcast,
// one or two VPMULLD, VPSRLVQ over the line, one VPTEST); below it a scalar
// probe (IMUL, SHR and BT/BTS, no AVX, so it runs on every amd64 processor)
// that computes exactly what the pure-Go addHashGo and hasHashGo do.
// PERF.md gives the measurements behind the two arguments and the global.

// levelAVX2 and levelAVX512 are cpu.AVX2 and cpu.AVX512
// (blocked/dispatch_amd64.go checks them at compile time).
const (
	levelAVX2   = 2
	levelAVX512 = 3
)

// activeLevel is cpu.Active, a Level (an int): the assembler spells
// "github.com/simdbloom/bloom/internal/cpu.Active" with a middle dot for each
// dot and a division slash for each slash.
var activeLevel = Mem{
	Symbol: Symbol{Name: "github·com∕simdbloom∕bloom∕internal∕cpu·Active"},
	Base:   StaticBase,
}

// The one-key kernels take the filter itself (a *Filter as a *[4]uint64, a
// *SplitBlock as a *[3]uint64: avo parses signatures without package
// context, so neither the filter types nor unsafe.Pointer can be named) and
// read its fields, so that the inlined call stores two arguments.
// The offsets are those of
// Filter{blocks []block; k int} and SplitBlock{blocks []splitBlock}:
// blocked/dispatch_amd64.go checks them (and the sizes) at compile time.
const (
	offBlocks  = 0  // the blocks slice's data pointer
	offNblocks = 8  // its length
	offK       = 24 // Filter.k
)

const (
	filterOneSig = "func(f *[4]uint64, h uint64)%s"
	splitOneSig  = "func(s *[3]uint64, h uint64)%s"
)

func singleKernels() {
	filterHasOne()
	filterAddOne()
	splitHasOne()
	splitAddOne()
}

// oneKeyArgs loads the block of h (blocks of 1<<shift bytes) of the filter
// in argument fname and returns it, a register holding h, and the filter
// pointer.
func oneKeyArgs(fname string, shift uint8) (blk Mem, x, f GPVirtual) {
	f = GP64()
	Load(Param(fname), f)
	x = GP64()
	Load(Param("h"), x)
	return blockOf(f, x, shift), x, f
}

// blockOf returns the block of the hash in x (blocks of 1<<shift bytes) of
// the filter at f.
func blockOf(f, x GPVirtual, shift uint8) Mem {
	// blockOffset's 32-bit load of the upper half at h+12(FP) would fail
	// go vet's asmdecl check, so copy h and shift.
	t := GP64()
	MOVQ(x, t)
	SHRQ(U8(32), t)
	IMULQ(Mem{Base: f, Disp: offNblocks}, t)
	SHRQ(U8(32), t)
	SHLQ(U8(shift), t)
	ADDQ(Mem{Base: f, Disp: offBlocks}, t)
	return Mem{Base: t}
}

// branchLevel jumps to label lower when cpu.Active is below level.
func branchLevel(level uint8, lower string) {
	CMPQ(activeLevel, U8(level))
	JB(LabelRef(lower))
}

// branchK jumps to label k16 when the k of the Filter at f is not 8.
func branchK(f GPVirtual, k16 string) {
	CMPQ(Mem{Base: f, Disp: offK}, U8(8))
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

func filterHasOne() {
	filterOne("filterHasOne", " bool", "reports whether every bit of h is set in", filterHasVecBody, filterHasScalarBody)
}

// filterOne emits a one-key Filter kernel: the block of h, then the body
// for cpu.Active's level (AVX-512, AVX2, else scalar) and the filter's k.
func filterOne(name, result, does string, vec func(v vecISA, k int, blk Mem, x GPVirtual), scalar func(k int, blk Mem, x GPVirtual)) {
	TEXT(name, NOSPLIT, fmt.Sprintf(filterOneSig, result))
	Pragma("noescape")
	lookup := result != ""
	if lookup {
		Doc(name + " " + does + " the *Filter f: with AVX-512 or AVX2 as cpu.Active allows, else scalar. It returns false when f.k is neither 8 nor 16 (a zero Filter), without reading the blocks; otherwise len(f.blocks) must be > 0.")
	} else {
		Doc(name + " " + does + " the *Filter f: with AVX-512 or AVX2 as cpu.Active allows, else scalar. f.k must be 8 or 16, len(f.blocks) > 0.")
	}
	blk, x, f := oneKeyArgs("f", 6)
	filterOneBody(lookup, blk, x, f, vec, scalar)
}

// filterOneBody emits the probe of a one-key Filter kernel, from the block
// blk of the hash in x of the *Filter at f, for cpu.Active's level and the
// filter's k; a lookup stores its answer as the function's result.
func filterOneBody(lookup bool, blk Mem, x, f GPVirtual, vec func(v vecISA, k int, blk Mem, x GPVirtual), scalar func(k int, blk Mem, x GPVirtual)) {
	// The lookup's k = 16 paths first check that k is 16: a zero Filter
	// (k = 0, no blocks) then answers false at no cost to the k = 8 path.
	// The add needs no check: its Go wrapper panics on a zero Filter.
	k16 := func(label string) {
		Label(label)
		if lookup {
			CMPQ(Mem{Base: f, Disp: offK}, U8(16))
			JNE(LabelRef("zero"))
		}
	}
	branchLevel(levelAVX512, "lower")
	branchK(f, "avx512k16")
	vec(avx512, 8, blk, x)
	k16("avx512k16")
	vec(avx512, 16, blk, x)
	Label("lower")
	branchLevel(levelAVX2, "scalar")
	branchK(f, "avx2k16")
	vec(avx2, 8, blk, x)
	k16("avx2k16")
	vec(avx2, 16, blk, x)
	Label("scalar")
	branchK(f, "scalark16")
	scalar(8, blk, x)
	k16("scalark16")
	scalar(16, blk, x)
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
	idx := oneIndexes(v, k, x)
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

// filterHasScalarBody counts the set bits with BT (CF = the bit) and ADC,
// without branches, like hasHashGo.
func filterHasScalarBody(k int, blk Mem, x GPVirtual) {
	n := GP32()
	XORL(n, n)
	for j := 0; j < 8; j++ {
		w := GP64()
		MOVQ(blk.Offset(8*j), w)
		for s := 0; s < k/8; s++ {
			i := scalarIndex(x, filterSalts[j+8*s], 26)
			BTQ(i.As64(), w) // the register form takes the index mod 64
			ADCL(U8(0), n)
		}
	}
	CMPL(n, U8(k))
	SETEQ(retAddr())
	RET()
}

func filterAddOne() {
	filterOne("filterAddOne", "", "sets the bits of h in", filterAddVecBody, filterAddScalarBody)
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
	for j := 0; j < 8; j++ {
		w := GP64()
		MOVQ(blk.Offset(8*j), w)
		for s := 0; s < k/8; s++ {
			BTSQ(scalarIndex(x, filterSalts[j+8*s], 26).As64(), w)
		}
		MOVQ(w, blk.Offset(8*j))
	}
	RET()
}

func splitHasOne() {
	name := "splitHasOne"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, " bool"))
	Pragma("noescape")
	Doc(name + " reports whether every bit of h is set in its split block of the *SplitBlock s: with AVX2 when cpu.Active allows, else scalar. len(s.blocks) must be > 0.")
	blk, x, _ := oneKeyArgs("s", 5)
	branchLevel(levelAVX2, "scalar")
	idx := splitIndexesReg(x)
	b := YMM()
	VMOVDQU(blk, b)
	VPSRLVD(idx, b, b)
	VPTEST(splitTables[1], b) // CF = every dword has bit 0 set
	SETCS(retAddr())
	VZEROUPPER()
	RET()
	Label("scalar")
	n := GP32()
	XORL(n, n)
	for j := 0; j < 8; j++ {
		w := GP32()
		MOVL(blk.Offset(4*j), w)
		BTL(scalarIndex(x, splitSalts[j], 27), w) // index mod 32
		ADCL(U8(0), n)
	}
	CMPL(n, U8(8))
	SETEQ(retAddr())
	RET()
}

func splitAddOne() {
	name := "splitAddOne"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, ""))
	Pragma("noescape")
	Doc(name + " sets the bits of h in its split block of the *SplitBlock s: with AVX2 when cpu.Active allows, else scalar. len(s.blocks) must be > 0.")
	blk, x, _ := oneKeyArgs("s", 5)
	branchLevel(levelAVX2, "scalar")
	m := splitIndexesReg(x)
	ones := YMM()
	VMOVDQU(splitTables[1], ones)
	VPSLLVD(m, ones, m)
	VPOR(blk, m, m)
	VMOVDQU(m, blk)
	VZEROUPPER()
	RET()
	Label("scalar")
	for j := 0; j < 8; j++ {
		w := GP32()
		MOVL(blk.Offset(4*j), w)
		BTSL(scalarIndex(x, splitSalts[j], 27), w)
		MOVL(w, blk.Offset(4*j))
	}
	RET()
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
