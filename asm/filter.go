package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// filterSalts returns the salts of blocked.Filter, the constants salt0 to
// salt15 of blocked/salts.go: word j of a block uses salt j for k = 8, and
// salts j and j+8 for k = 16.
func filterSalts() (s [16]uint32) {
	for j := range s {
		s[j] = uint32(constInt(blockedPath, fmt.Sprintf("salt%d", j)))
	}
	return s
}

// The bit of hash x in word j is (uint32(x)*salt[j])>>26. The kernels
// broadcast x to every 32-bit lane and multiply (VPMULLD) by a table whose
// 64-bit word j holds salt[j] in its upper half and 0 in its lower half, so
// that the upper half of 64-bit lane j is uint32(x*salt[j]) and a 64-bit
// shift right by 58 leaves the bit index, ready for the variable 64-bit
// shifts VPSRLVQ (lookup) and VPSLLVQ (add).
//
// AVX2 processes a 64-byte block as two ymm halves; AVX-512 as one zmm. The
// AVX-512 lookups are in grouped.go.
// Both are kept: AVX-512 measured faster at most sizes (PERF.md).

type vecISA struct {
	name  string
	lanes int // 64-bit lanes per register: 4 (ymm) or 8 (zmm)
	reg   func() VecVirtual
}

var (
	avx2   = vecISA{"AVX2", 4, YMM}
	avx512 = vecISA{"AVX512", 8, ZMM}
)

func (v vecISA) parts() int { return 8 / v.lanes }

// tables holds the Filter's salt and ones tables of the file being
// generated, once its generator has emitted them (each file has its own:
// the tables are file-local symbols); the one-key kernels (single.go,
// typed.go) share them.
var tables filterTables

// newFilterTables emits the Filter's salts and ones tables into the file
// being generated, and with byte4 the byte-4 salts of the grouped lookups.
func newFilterTables(byte4 bool) filterTables {
	salts := filterSalts()
	var hi8, hi16, b8, b16 [8]uint64
	for j := range hi8 {
		hi8[j] = uint64(salts[j]) << 32
		hi16[j] = uint64(salts[j+8]) << 32
		b8[j] = uint64(salts[j]) << 6
		b16[j] = uint64(salts[j+8]) << 6
	}
	t := filterTables{
		salts: [2]Mem{qwordTable("filterSalts", hi8[:]), qwordTable("filterSalts16", hi16[:])},
		ones:  qwordTable("qwordOnes", []uint64{1, 1, 1, 1, 1, 1, 1, 1}),
	}
	if byte4 {
		t.saltsByte4 = [2]Mem{qwordTable("filterSaltsByte4", b8[:]), qwordTable("filterSaltsByte4x16", b16[:])}
	}
	return t
}

type filterTables struct {
	salts [2]Mem // salts 0-7 and 8-15, each in the upper half of a 64-bit word
	ones  Mem    // eight 64-bit ones
	// saltsByte4 are the salts shifted left by 6: multiplying a whole hash
	// by salt<<6 (VPMULLQ) leaves (uint32(h)*salt)>>26 in bits 32-37, the
	// low bits of byte 4, where VPSHUFBITQMB reads a bit index.
	saltsByte4 [2]Mem
}

const filterSig = "func(blocks *[8]uint64, nblocks uint64, hs []uint64, %spf int, npf int)%s"

// saltRegs loads the salt tables of k into registers: regs[s][p] holds the
// salts of set s (0: words' first bit, 1: second bit for k = 16) for part p
// of the block.
func saltRegs(v vecISA, k int, t filterTables) [][]VecVirtual {
	regs := make([][]VecVirtual, k/8)
	for s := range regs {
		for p := 0; p < v.parts(); p++ {
			r := v.reg()
			vmovdqu(v, t.salts[s].Offset(32*p), r)
			regs[s] = append(regs[s], r)
		}
	}
	return regs
}

func vmovdqu(v vecISA, src, dst Op) {
	if v.lanes == 8 {
		VMOVDQU64(src, dst)
	} else {
		VMOVDQU(src, dst)
	}
}

// bitIndexes returns, for every salt set and part, the bit indexes of the
// hash whose low 32 bits x are broadcast in xb.
func bitIndexes(v vecISA, xb VecVirtual, salts [][]VecVirtual) [][]VecVirtual {
	idx := make([][]VecVirtual, len(salts))
	for s := range salts {
		for p := range salts[s] {
			r := v.reg()
			VPMULLD(salts[s][p], xb, r)
			VPSRLQ(U8(58), r, r)
			idx[s] = append(idx[s], r)
		}
	}
	return idx
}

// broadcastX broadcasts the low 32 bits of hs[i+j] to every 32-bit lane.
func broadcastX(v vecISA, hs, i Register, j int) VecVirtual {
	xb := v.reg()
	VPBROADCASTD(Mem{Base: hs, Index: i, Scale: 8, Disp: 8 * j}, xb)
	return xb
}

// blockOffset returns the byte offset of the block of the hash at m:
// ((h>>32)*nblocks)>>32 blocks of 1<<shift bytes (loading only the upper
// half of the hash).
func blockOffset(m Mem, nblocks Register, shift uint8) Register {
	t := GP64()
	MOVL(m.Offset(4), t.As32())
	IMULQ(nblocks, t)
	SHRQ(U8(32), t)
	SHLQ(U8(shift), t)
	return t
}

// unroll is how many keys one iteration of the main loops handles.
const unroll = 4

// batchLoop emits the loop over hs (the register holding its base) shared
// by every kernel, for blocks of 1<<shift bytes. Keys i < npf first prefetch the block of hs[i+pf]; body
// emits the work for key i+j, whose block is at blk. Each of the two ranges
// (with and without prefetch) runs unroll keys per iteration, then one.
func batchLoop(name string, hs Register, shift uint8, body func(i Register, j int, blk Mem)) {
	base := Load(Param("blocks"), GP64())
	nb := Load(Param("nblocks"), GP64())
	n := Load(Param("hs").Len(), GP64())
	pf := Load(Param("pf"), GP64())
	npf := Load(Param("npf"), GP64())
	ahead := GP64()
	LEAQ(Mem{Base: hs, Index: pf, Scale: 8}, ahead)
	i := GP64()
	XORQ(i, i)
	key := func(j int, prefetch bool) {
		if prefetch {
			PREFETCHT0(Mem{Base: base, Index: blockOffset(Mem{Base: ahead, Index: i, Scale: 8, Disp: 8 * j}, nb, shift), Scale: 1})
		}
		body(i, j, Mem{Base: base, Index: blockOffset(Mem{Base: hs, Index: i, Scale: 8, Disp: 8 * j}, nb, shift), Scale: 1})
	}
	loop := func(label string, end Register, prefetch bool) {
		Commentf("Keys up to %s, %d at a time, then one at a time.", label, unroll)
		Label(name + "_" + label + "_x")
		next := GP64()
		LEAQ(Mem{Base: i, Disp: unroll}, next)
		CMPQ(next, end)
		JA(LabelRef(name + "_" + label + "_1"))
		for j := 0; j < unroll; j++ {
			key(j, prefetch)
		}
		ADDQ(U8(unroll), i)
		JMP(LabelRef(name + "_" + label + "_x"))
		Label(name + "_" + label + "_1")
		CMPQ(i, end)
		JAE(LabelRef(name + "_" + label + "_end"))
		key(0, prefetch)
		INCQ(i)
		JMP(LabelRef(name + "_" + label + "_1"))
		Label(name + "_" + label + "_end")
	}
	Comment("Prefetch the block of hs[i+pf] while i < npf.")
	loop("prefetch", npf, true)
	loop("rest", n, false)
}

func filterAdd(v vecISA, k int, t filterTables) {
	name := fmt.Sprintf("filterAdd%d%s", k, v.name)
	TEXT(name, NOSPLIT, fmt.Sprintf(filterSig, "", ""))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets the bits of every hash of hs (k = %d), in order. nblocks must be > 0.", name, k))
	salts := saltRegs(v, k, t)
	ones := v.reg()
	vmovdqu(v, t.ones, ones)
	hs := Load(Param("hs").Base(), GP64())

	batchLoop(name, hs, 6, func(i Register, j int, blk Mem) {
		setBits(v, broadcastX(v, hs, i, j), blk, salts, ones)
	})
	VZEROUPPER()
	RET()
}

// setBits sets, in the block at blk, the bits of the hash whose low half is
// broadcast in xb: a read, an OR and a write back per part, so that the next
// key's read of the same block sees them.
func setBits(v vecISA, xb VecVirtual, blk Mem, salts [][]VecVirtual, ones VecVirtual) {
	idx := bitIndexes(v, xb, salts)
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
		// Read, OR and write back per key, so keys of one batch that
		// share a block all land.
		if v.lanes == 8 {
			VPORQ(blk.Offset(32*p), m, m)
			VMOVDQU64(m, blk.Offset(32*p))
		} else {
			VPOR(blk.Offset(32*p), m, m)
			VMOVDQU(m, blk.Offset(32*p))
		}
	}
}
