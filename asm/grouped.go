package main

import (
	"log"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The AVX-512 lookups handle keys in groups of eight: each key's answer is
// shifted from the carry flag into a register (ADCQ r, r), and the eight
// answers are spread to eight bools with one PDEPQ, stored with one MOVQ and
// counted with one POPCNTQ, instead of SETCS, MOVB and ADCQ per key
// (PERF.md). PDEP and POPCNT need BMI2 and POPCNT, which every AVX-512 processor has;
// the Go side checks and otherwise uses the AVX2 kernels.

const group = 8

// The grouped lookups compute the block offsets of eight keys at once (one
// VPMULLQ of the upper halves by nblocks) and keep them in a ring on the
// stack: each key's offset is then one load instead of four instructions.
// Iteration g stores the offsets of group g+aheadGroups+1 and, when the
// kernel prefetches, prefetches the blocks of group g+aheadGroups (32 keys
// ahead: blocked's prefetchDistance, that of the other kernels) from offsets
// stored an iteration earlier: a load right after the 64-byte store would
// wait for it to commit, as forwarding from a 512-bit store to a 64-bit load
// fails. VPMULLQ rather than VPMULUDQ: nblocks may be 1<<32. PERF.md
// compares the ring with one key at a time.
const ringGroups = 8 // a power of two, more than aheadGroups

// aheadGroups returns how many groups ahead the grouped kernels prefetch:
// blocked's prefetchDistance in groups.
func aheadGroups() int {
	d := constInt(blockedPath, "prefetchDistance")
	if d%group != 0 || d/group < 1 || d/group >= ringGroups {
		log.Fatalf("asm: blocked.prefetchDistance = %d is not 1 to %d groups of %d keys", d, ringGroups-1, group)
	}
	return d / group
}

// groupedSig is the signature of the grouped lookups over blocks of type
// blockType.
const groupedSig = "func(blocks %s, nblocks uint64, hs []uint64, out []bool, prefetch bool) int"

// groupedLookup emits the body of a grouped lookup kernel over blocks of
// 1<<shift bytes: test(xm, blk) must set CF when the hash whose low half is
// at xm has every bit set in the block at blk. With prefetch true, each
// group first prefetches the blocks of the group aheadGroups later.
//
// At v = avx512 the offsets come from one VPMULLQ and the eight answers are
// spread with PDEPQ. At v = avx2 (which has neither) each half of the group
// takes one VPMULUDQ, so nblocks must be < 1<<32, and each answer is added
// to a register shifted left by 8 before the next test, which leaves key j's
// answer in byte j without PDEP (slow on Zen 1 and 2).
func groupedLookup(name string, v vecISA, shift uint8, test func(xm, blk Mem)) {
	groupedLoop(name, v, shift, test, true)
}

// groupedAddSig is the signature of the grouped adds over blocks of type
// blockType.
const groupedAddSig = "func(blocks %s, nblocks uint64, hs []uint64, prefetch bool)"

// groupedAdd emits the body of a grouped add kernel at the AVX2 level over
// blocks of 1<<shift bytes (nblocks < 1<<32): add(xm, blk) must set the bits
// of the hash whose low half is at xm in the block at blk, reading the block,
// ORing and storing it back. The keys of a group run one after another, each
// key's store before the next key's load, so keys sharing a block (in a group
// or across groups) all land, in order, as in the generic loop.
func groupedAdd(name string, shift uint8, add func(xm, blk Mem)) {
	groupedLoop(name, avx2, shift, add, false)
}

// groupedLoop emits groupedLookup (lookup true) or groupedAdd (lookup false):
// an add keeps no answers, so it has no out, count or result.
func groupedLoop(name string, v vecISA, shift uint8, test func(xm, blk Mem), lookup bool) {
	base := Load(Param("blocks"), GP64())
	nb := Load(Param("nblocks"), GP64())
	hs := Load(Param("hs").Base(), GP64())
	n := Load(Param("hs").Len(), GP64())
	var out Register
	if lookup {
		out = Load(Param("out").Base(), GP64())
	}
	ring := AllocLocal(8 * group * ringGroups)
	nbv := v.reg()
	var low VecVirtual // avx2: every bit but the low shift bits of a qword
	if v.lanes == 8 {
		VPBROADCASTQ(nb, nbv)
	} else {
		VPBROADCASTQ(paramAddr("nblocks"), nbv)
		low = YMM()
		VPCMPEQQ(low, low, low)
		VPSLLQ(U8(shift), low, low)
	}
	full := GP64() // keys in whole groups: n &^ 7
	MOVQ(n, full)
	ANDQ(I8(-group), full)
	var spread Register
	if v.lanes == 8 && lookup {
		spread = GP64()
		MOVQ(U64(0x0101010101010101), spread)
	}
	var count Register
	if lookup {
		count = GP64()
		XORQ(count, count)
	}
	g := GP64() // first key of the group looked up
	XORQ(g, g)
	a := GP64() // first key of the group whose offsets come next
	XORQ(a, a)
	p := GP64() // first key of the group to prefetch next
	XORQ(p, p)
	// slot returns the ring's memory operand of the offsets of the group
	// starting at key k.
	slot := func(k Register) Mem {
		r := GP64()
		MOVQ(k, r)
		ANDQ(U8(group*ringGroups-1), r)
		return ring.Idx(r, 8)
	}
	// offsets computes the block offsets of the group at a into the ring.
	offsets := func() {
		keys := Mem{Base: hs, Index: a, Scale: 8}
		if v.lanes == 8 {
			o := ZMM()
			VPSRLQ(U8(32), keys, o)
			VPMULLQ(nbv, o, o)
			VPSRLQ(U8(32), o, o)
			VPSLLQ(U8(shift), o, o)
			VMOVDQU64(o, slot(a))
		} else {
			// VPMULUDQ reads the low half of each qword: the first half
			// is loaded 4 bytes in, so that the low halves are the upper
			// halves of the hashes (without reading past the group); the
			// second half has each upper half copied to the low half by
			// VPSHUFD (dwords 1,1,3,3 of each 128-bit lane), which has a
			// VEX form with a memory source. A shift by an immediate
			// from memory (VPSRLQ $32, m256, ymm) exists only in EVEX
			// (AVX-512VL) form and faults on AVX2-only processors.
			// ((hi*nblocks)>>32)<<shift is ((hi*nblocks)>>(32-shift))
			// with the low shift bits cleared.
			m := slot(a)
			for h := 0; h < 2; h++ {
				o := YMM()
				if h == 0 {
					VPMULUDQ(keys.Offset(4), nbv, o)
				} else {
					VPSHUFD(U8(0xf5), keys.Offset(32), o)
					VPMULUDQ(nbv, o, o)
				}
				VPSRLQ(U8(32-shift), o, o)
				VPAND(low, o, o)
				VMOVDQU(o, m.Offset(32*h))
			}
		}
		ADDQ(U8(group), a)
	}
	// prefetch prefetches the blocks of the group at p.
	prefetch := func() {
		m := slot(p)
		for j := 0; j < group; j++ {
			r := GP64()
			MOVQ(m.Offset(8*j), r)
			PREFETCHT0(Mem{Base: base, Index: r, Scale: 1})
		}
		ADDQ(U8(group), p)
	}
	// while emits a loop running body while r < full and r < limit keys.
	while := func(label string, r Register, limit int, body func()) {
		Label(label)
		CMPQ(r, full)
		JAE(LabelRef(label + "_end"))
		CMPQ(r, U8(limit))
		JAE(LabelRef(label + "_end"))
		body()
		JMP(LabelRef(label))
		Label(label + "_end")
	}
	body := func(label string, pf bool) {
		Commentf("Offsets of the first %d groups (%s).", aheadGroups()+1, label)
		while(name+"_"+label+"_first", a, group*(aheadGroups()+1), offsets)
		if pf {
			Commentf("Prefetch the first %d groups.", aheadGroups())
			while(name+"_"+label+"_pf", p, group*aheadGroups(), prefetch)
		}
		Commentf("Groups of %d keys (%s): the offsets of group g+%d, the prefetch of group g+%d.", group, label, aheadGroups()+1, aheadGroups())
		Label(name + "_" + label)
		CMPQ(g, full)
		JAE(LabelRef(name + "_tail"))
		CMPQ(a, full)
		JAE(LabelRef(name + "_" + label + "_next"))
		offsets()
		Label(name + "_" + label + "_next")
		if pf {
			// p is behind a, so the offsets at p were stored an iteration
			// ago (or before the loop), not just now.
			CMPQ(p, full)
			JAE(LabelRef(name + "_" + label + "_look"))
			prefetch()
			Label(name + "_" + label + "_look")
		}
		m := slot(g)
		if !lookup {
			for j := 0; j < group; j++ {
				o := GP64()
				MOVQ(m.Offset(8*j), o)
				test(Mem{Base: hs, Index: g, Scale: 8, Disp: 8 * j}, Mem{Base: base, Index: o, Scale: 1})
			}
			ADDQ(U8(group), g)
			JMP(LabelRef(name + "_" + label))
			return
		}
		bits := GP64()
		XORQ(bits, bits)
		// Last key first, so that key j ends in bit j (avx512) or byte
		// j (avx2).
		for j := group - 1; j >= 0; j-- {
			o := GP64()
			MOVQ(m.Offset(8*j), o)
			if v.lanes == 4 && j < group-1 {
				SHLQ(U8(8), bits)
			}
			test(Mem{Base: hs, Index: g, Scale: 8, Disp: 8 * j}, Mem{Base: base, Index: o, Scale: 1})
			if v.lanes == 8 {
				ADCQ(bits, bits)
			} else {
				ADCQ(Imm(0), bits)
			}
		}
		if v.lanes == 8 {
			PDEPQ(spread, bits, bits)
		}
		MOVQ(bits, Mem{Base: out, Index: g, Scale: 1})
		POPCNTQ(bits, bits)
		ADDQ(bits, count)
		ADDQ(U8(group), g)
		JMP(LabelRef(name + "_" + label))
	}
	CMPB(paramAddr("prefetch"), U8(0))
	JE(LabelRef(name + "_plain_first"))
	body("prefetch", true)
	body("plain", false)
	Comment("The last keys one at a time.")
	Label(name + "_tail")
	CMPQ(g, n)
	JAE(LabelRef(name + "_done"))
	o := blockOffset(Mem{Base: hs, Index: g, Scale: 8}, nb, shift)
	test(Mem{Base: hs, Index: g, Scale: 8}, Mem{Base: base, Index: o, Scale: 1})
	if lookup {
		r := GP8()
		SETCS(r)
		MOVB(r, Mem{Base: out, Index: g, Scale: 1})
		ADCQ(Imm(0), count)
	}
	INCQ(g)
	JMP(LabelRef(name + "_tail"))
	Label(name + "_done")
	VZEROUPPER()
	if lookup {
		Store(count, ReturnIndex(0))
	}
	RET()
}
