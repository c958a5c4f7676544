package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// One-key kernels: Filter.HasHash/AddHash and SplitBlock.HasHash/AddHash are
// each one call to one of these four functions, small enough for Go to
// inline into the caller. Each takes the filter's k and the current level
// (cpu.Active, read by the method at every call, since tests change it at run
// time) and branches inside: at levelAVX2 and above the AVX2 vector probe
// (one broadcast, one or two VPMULLD, VPSRLVQ over the line, one VPTEST);
// below it a scalar probe (IMUL, SHR and BT/BTS, no AVX, so it runs on every
// amd64 processor) that computes exactly what the pure-Go addHashGo and
// hasHashGo do.
//
// Before, the methods checked the level and k in Go and then called the
// assembly: not inlinable (two or three calls), so every lookup paid the
// method's frame on top of the assembly call. Measured on AMD EPYC Zen 4
// (2 shared cores, quiet), BenchmarkHasHash, BenchmarkAddHash,
// BenchmarkSplitBlock{Has,Add}Hash (-benchtime 300ms, the commit before
// and this one alternated 8 times), benchstat medians, ns/key,
// old -> new, at the AVX2 level:
//
//	Filter HasHash k=8:   16 KiB 4.39 -> 3.93, 1 MiB 5.24 -> 4.68, 256 MiB 47.3 -> 36.4
//	Filter HasHash k=16:  16 KiB 4.58 -> 4.22, 1 MiB 5.75 -> 5.14
//	Filter AddHash k=8:   16 KiB 4.26 -> 4.08 (~), 1 MiB 4.88 -> 4.56, 256 MiB 39.7 -> 32.6
//	Filter AddHash k=16:  16 KiB 4.37 -> 4.09, 1 MiB 5.12 -> 4.82 (~)
//	SplitBlock HasHash:   16 KiB 4.13 -> 3.81, 1 MiB 5.32 -> 4.25, 256 MiB 39.3 -> 30.1
//	SplitBlock AddHash:   16 KiB 4.09 -> 3.70, 1 MiB 4.88 -> 4.03, 256 MiB 36.4 -> 27.4
//
// (AVX-512 level: the same within noise.) At the generic level the scalar
// assembly against the pure-Go method: HasHash k=8 16 KiB 6.17 -> 6.32 (~),
// k=16 14.3 -> 9.74; AddHash k=8 16 KiB 9.26 -> 7.16, k=16 1 MiB 13.3 ->
// 15.1 (the one regression, ±44% noise); SplitBlock HasHash 16 KiB 7.42 ->
// 6.21. The rest is left per key: the ABI0 call spills the caller's live
// registers and stores its arguments, and the kernel reloads them.
//
// The kernels first took five arguments (blocks pointer, nblocks, h, k,
// level); they now take three (the filter pointer, h, level) and read the
// blocks pointer, length and k from the struct. Measured as above, old ->
// new, benchstat medians of 6 alternated runs, three rounds (the machine
// shared; the middle-round values), ns/key at 16 KiB: Filter HasHash k=8
// AVX2 3.93 -> 3.65, AVX-512 3.94 -> 3.58 (first round 4.28 -> 3.63, 4.25
// -> 3.52); k=16 AVX2 4.24 -> 3.80; at 1 MiB k=16 AVX2 5.21 -> 4.80.
// AddHash and SplitBlock HasHash: the same or faster (-0 to -13%, mostly
// within the noise); nothing measured slower.
//
// AVX-512 one-key kernels (one zmm per line) were tried and not kept: no
// faster than AVX2 (Filter HasHash k=8 at 16 KiB 6.19 against 6.29, k=16
// 7.14 against 6.66, within the noise), so the AVX-512 level runs the AVX2
// bodies.

// levelAVX2 is cpu.AVX2 (blocked/kernels_amd64.go checks that at compile time).
const levelAVX2 = 2

// The one-key kernels take the filter itself (a *Filter as a *[4]uint64, a
// *SplitBlock as a *[3]uint64: avo parses signatures without package
// context, so neither the filter types nor unsafe.Pointer can be named) and
// read its fields, so that the inlined call stores three
// arguments instead of five. The offsets are those of
// Filter{blocks []block; k int} and SplitBlock{blocks []splitBlock}:
// blocked/kernels_amd64.go checks them (and the sizes) at compile time.
const (
	offBlocks  = 0  // the blocks slice's data pointer
	offNblocks = 8  // its length
	offK       = 24 // Filter.k
)

const (
	filterOneSig = "func(f *[4]uint64, h uint64, level uint64)%s"
	splitOneSig  = "func(s *[3]uint64, h uint64, level uint64)%s"
)

func singleKernels() {
	filterHasOne()
	filterAddOne()
	splitHasOne()
	splitAddOne()
}

// oneKeyArgs loads the block of h (blocks of 1<<shift bytes) of the filter
// in argument fname and returns it, the memory operand of h, a register
// holding the low half of h, and the filter pointer.
func oneKeyArgs(fname string, shift uint8) (blk, h Mem, x, f GPVirtual) {
	f = GP64()
	Load(Param(fname), f)
	base := GP64()
	MOVQ(Mem{Base: f, Disp: offBlocks}, base)
	nb := GP64()
	MOVQ(Mem{Base: f, Disp: offNblocks}, nb)
	h = paramAddr("h")
	// blockOffset's 32-bit load of the upper half at h+20(FP) would fail
	// go vet's asmdecl check, so load all of h and shift.
	x = GP64()
	MOVQ(h, x)
	t := GP64()
	MOVQ(x, t)
	SHRQ(U8(32), t)
	IMULQ(nb, t)
	SHRQ(U8(32), t)
	SHLQ(U8(shift), t)
	return Mem{Base: base, Index: t, Scale: 1}, h, x, f
}

// paramAddr returns the memory operand of the named argument.
func paramAddr(name string) Mem {
	p, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return p.Addr
}

// branchLevel jumps to label scalar when the level argument is below AVX2.
func branchLevel(scalar string) {
	CMPQ(paramAddr("level"), U8(levelAVX2))
	JB(LabelRef(scalar))
}

// branchK jumps to label k16 when the k of the Filter at f is not 8.
func branchK(f GPVirtual, k16 string) {
	CMPQ(Mem{Base: f, Disp: offK}, U8(8))
	JNE(LabelRef(k16))
}

// oneIndexes returns, per salt set and register part, the bit indexes of the
// hash whose low half is at hm: VPMULLD of the broadcast by the salt table
// in memory, shifted right by 58 (see filter.go).
func oneIndexes(v vecISA, k int, hm Mem) [][]VecVirtual {
	xb := v.reg()
	VPBROADCASTD(hm, xb)
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
	name := "filterHasOne"
	TEXT(name, NOSPLIT, fmt.Sprintf(filterOneSig, " bool"))
	Pragma("noescape")
	Doc(name + " reports whether every bit of h is set in the *Filter f: with AVX2 at level >= AVX2, else scalar. f.k must be 8 or 16, len(f.blocks) > 0.")
	blk, hm, x, f := oneKeyArgs("f", 6)
	branchLevel("scalar")
	branchK(f, "avx2k16")
	filterHasAVX2Body(8, blk, hm)
	Label("avx2k16")
	filterHasAVX2Body(16, blk, hm)
	Label("scalar")
	branchK(f, "scalark16")
	filterHasScalarBody(8, blk, x)
	Label("scalark16")
	filterHasScalarBody(16, blk, x)
}

func filterHasAVX2Body(k int, blk, hm Mem) {
	v := avx2
	idx := oneIndexes(v, k, hm)
	var all VecVirtual
	for p := 0; p < v.parts(); p++ {
		b := v.reg()
		VMOVDQU(blk.Offset(32*p), b)
		for s := range idx {
			r := v.reg()
			VPSRLVQ(idx[s][p], b, r)
			if all == nil {
				all = r
			} else {
				VPAND(r, all, all)
			}
		}
	}
	VPTEST(tables.ones, all) // CF = every lane has bit 0 set
	SETCS(retAddr())
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
	name := "filterAddOne"
	TEXT(name, NOSPLIT, fmt.Sprintf(filterOneSig, ""))
	Pragma("noescape")
	Doc(name + " sets the bits of h in the *Filter f: with AVX2 at level >= AVX2, else scalar. f.k must be 8 or 16, len(f.blocks) > 0.")
	blk, hm, x, f := oneKeyArgs("f", 6)
	branchLevel("scalar")
	branchK(f, "avx2k16")
	filterAddAVX2Body(8, blk, hm)
	Label("avx2k16")
	filterAddAVX2Body(16, blk, hm)
	Label("scalar")
	branchK(f, "scalark16")
	filterAddScalarBody(8, blk, x)
	Label("scalark16")
	filterAddScalarBody(16, blk, x)
}

func filterAddAVX2Body(k int, blk, hm Mem) {
	v := avx2
	idx := oneIndexes(v, k, hm)
	ones := v.reg()
	VMOVDQU(tables.ones, ones)
	for p := 0; p < v.parts(); p++ {
		m := v.reg()
		VPSLLVQ(idx[0][p], ones, m)
		for s := 1; s < len(idx); s++ {
			m2 := v.reg()
			VPSLLVQ(idx[s][p], ones, m2)
			VPOR(m2, m, m)
		}
		VPOR(blk.Offset(32*p), m, m)
		VMOVDQU(m, blk.Offset(32*p))
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
	Doc(name + " reports whether every bit of h is set in its split block of the *SplitBlock s: with AVX2 at level >= AVX2, else scalar. len(s.blocks) must be > 0.")
	blk, hm, x, _ := oneKeyArgs("s", 5)
	branchLevel("scalar")
	idx := splitIndexesMem(hm)
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
	Doc(name + " sets the bits of h in its split block of the *SplitBlock s: with AVX2 at level >= AVX2, else scalar. len(s.blocks) must be > 0.")
	blk, hm, x, _ := oneKeyArgs("s", 5)
	branchLevel("scalar")
	m := splitIndexesMem(hm)
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

// splitIndexesMem is splitBitIndexes with the salts read from memory.
func splitIndexesMem(hm Mem) VecVirtual {
	r := YMM()
	VPBROADCASTD(hm, r)
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
