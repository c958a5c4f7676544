package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// One-key kernels: Filter.HasHash/AddHash and SplitBlock.HasHash/AddHash call
// them directly at the AVX2 and AVX-512 levels. A Go-to-assembly call costs
// about 2 ns here, yet the vector probe (one broadcast, one or two VPMULLD,
// VPSRLVQ over the line, one VPTEST) still beats the eight scalar multiplies,
// shifts and ANDs of the pure-Go body at every size. Measured on AMD EPYC
// Zen 4 (shared, loaded VM), blocked/bench_test.go and
// splitblock_bench_test.go, benchstat medians of 8 (6 for SplitBlock),
// ns/key, pure Go -> AVX2 one-key kernel:
//
//	Filter HasHash k=8:   16 KiB 6.17 -> 4.38, 1 MiB 9.66 -> 5.21, 256 MiB 68.6 -> 42.5
//	Filter HasHash k=16:  16 KiB 14.1 -> 4.52, 1 MiB 15.6 -> 5.77
//	Filter AddHash k=8:   16 KiB 8.69 -> 4.14, 1 MiB 11.9 -> 5.14, 256 MiB 74.9 -> 44.1
//	Filter AddHash k=16:  16 KiB 11.8 -> 4.25, 1 MiB 13.1 -> 5.29
//	SplitBlock HasHash:   16 KiB 7.26 -> 4.14, 1 MiB 9.65 -> 5.06, 256 MiB 69.2 -> 36.7
//	SplitBlock AddHash:   16 KiB 8.60 -> 4.13, 1 MiB 12.4 -> 4.74, 256 MiB 77.7 -> 37.7
//
// The methods are not inlinable (two calls), so a lookup pays the method's
// frame and the assembly call. AVX-512 one-key kernels (one zmm per line)
// were tried and not kept: in the same run, no faster than AVX2 (Filter
// HasHash k=8 at 16 KiB 6.19 against 6.29, k=16 7.14 against 6.66, within
// the noise), so the AVX-512 level runs these AVX2 kernels.
//
// The arguments are read straight from the frame: the low half of h is
// broadcast from memory, and all of h loaded for the block arithmetic.

const (
	filterOneSig = "func(blocks *[8]uint64, nblocks uint64, h uint64)%s"
	splitOneSig  = "func(blocks *[8]uint32, nblocks uint64, h uint64)%s"
)

func singleKernels() {
	for _, k := range []int{8, 16} {
		filterHasOne(avx2, k)
		filterAddOne(avx2, k)
	}
	splitHasOne()
	splitAddOne()
}

// oneKeyArgs loads the block of h (blocks of 1<<shift bytes) and returns it
// and the memory operand of h.
func oneKeyArgs(shift uint8) (blk, h Mem) {
	base := Load(Param("blocks"), GP64())
	nb := Load(Param("nblocks"), GP64())
	p, err := Param("h").Resolve()
	if err != nil {
		panic(err)
	}
	h = p.Addr
	// blockOffset's 32-bit load of the upper half at h+20(FP) would fail
	// go vet's asmdecl check, so load all of h and shift.
	t := GP64()
	MOVQ(h, t)
	SHRQ(U8(32), t)
	IMULQ(nb, t)
	SHRQ(U8(32), t)
	SHLQ(U8(shift), t)
	return Mem{Base: base, Index: t, Scale: 1}, h
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

func filterHasOne(v vecISA, k int) {
	name := fmt.Sprintf("filterHasOne%d%s", k, v.name)
	TEXT(name, NOSPLIT, fmt.Sprintf(filterOneSig, " bool"))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s reports whether every bit of h is set (k = %d). nblocks must be > 0.", name, k))
	blk, hm := oneKeyArgs(6)
	idx := oneIndexes(v, k, hm)
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
		VPTESTMQ(tables.ones, all, m)
		KORTESTB(m, m) // CF = every lane has bit 0 set
	} else {
		VPTEST(tables.ones, all) // CF = every lane has bit 0 set
	}
	SETCS(retAddr())
	VZEROUPPER()
	RET()
}

func filterAddOne(v vecISA, k int) {
	name := fmt.Sprintf("filterAddOne%d%s", k, v.name)
	TEXT(name, NOSPLIT, fmt.Sprintf(filterOneSig, ""))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets the bits of h (k = %d). nblocks must be > 0.", name, k))
	blk, hm := oneKeyArgs(6)
	idx := oneIndexes(v, k, hm)
	ones := v.reg()
	vmovdqu(v, tables.ones, ones)
	for p := 0; p < v.parts(); p++ {
		m := v.reg()
		VPSLLVQ(idx[0][p], ones, m)
		for s := 1; s < len(idx); s++ {
			m2 := v.reg()
			VPSLLVQ(idx[s][p], ones, m2)
			if v.lanes == 8 {
				VPORQ(m2, m, m)
			} else {
				VPOR(m2, m, m)
			}
		}
		if v.lanes == 8 {
			VPORQ(blk.Offset(32*p), m, m)
			VMOVDQU64(m, blk.Offset(32*p))
		} else {
			VPOR(blk.Offset(32*p), m, m)
			VMOVDQU(m, blk.Offset(32*p))
		}
	}
	VZEROUPPER()
	RET()
}

func splitHasOne() {
	name := "splitHasOneAVX2"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, " bool"))
	Pragma("noescape")
	Doc(name + " reports whether every bit of h is set in its split block. nblocks must be > 0.")
	blk, hm := oneKeyArgs(5)
	idx := splitIndexesMem(hm)
	b := YMM()
	VMOVDQU(blk, b)
	VPSRLVD(idx, b, b)
	VPTEST(splitTables[1], b) // CF = every dword has bit 0 set
	SETCS(retAddr())
	VZEROUPPER()
	RET()
}

func splitAddOne() {
	name := "splitAddOneAVX2"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, ""))
	Pragma("noescape")
	Doc(name + " sets the bits of h in its split block. nblocks must be > 0.")
	blk, hm := oneKeyArgs(5)
	m := splitIndexesMem(hm)
	ones := YMM()
	VMOVDQU(splitTables[1], ones)
	VPSLLVD(m, ones, m)
	VPOR(blk, m, m)
	VMOVDQU(m, blk)
	VZEROUPPER()
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
