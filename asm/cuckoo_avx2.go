package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cuckooAVX2 emits package cuckoo's kernels_avx2_amd64.s: the AVX2 batch
// lookups of both layouts.
func cuckooAVX2() {
	cuckooHas2(true)
	cuckooHas2(false)
}

// cuckooSig2 returns the AVX2 kernels' signature: their parameter block
// (cuckoo/dispatch_amd64.go, cuckooParams2) has c2Rows rows of 32 bytes,
// each at the index of its c2 constant there (ck).
func cuckooSig2() string {
	return fmt.Sprintf("func(data *byte, params *[%d][4]uint64, tab *[4096]uint16, hs []uint64, out []bool) int", ck("c2Rows"))
}

// cuckooHas2 emits cuckooHasSemiAVX2 or cuckooHasPlainAVX2: the pipeline of
// the AVX-512 kernels for four keys a group in the 64-bit lanes of a ymm
// register, in Y0–Y15 and VEX encodings only. Four keys a group rather
// than eight keep an iteration short enough for the out-of-order window to
// hold more groups, and the pipeline within sixteen registers and a NOSPLIT
// frame: stage 0 hands stage 1 the byte offsets and the words' shifts, and
// stage 2 fp's lane pattern, through rings; only the shifted bucket words
// stay in registers.
//
//   - Stage 0: H(fp)'s 64-bit product fp*altMix (fp < 2^16) from two
//     VPMULUDQs by the halves of altMix; the mod is the unsigned minimum of
//     d and d+nb in the low 32 bits (VPMINUD; |d| < nb < 2^31, so a negative
//     d is above 2^31 there), which is all the next VPMULUDQ reads. fp =
//     max(fp, 1) is VPMAXUD against 1, copied to the four lanes by VPSHUFB.
//   - Without VPMULTISHIFTQB the lanes are laid out differently: each
//     bucket word is shifted left (VPSLLVQ, P minus the bucket's 0 or 4)
//     so that the bucket starts at bit P, where two right shifts (VPSRLQ)
//     put slots 0 and 1 at the top of lane 0 and the bottom of lane 1, and
//     slots 2 and 3 at the top of lane 2 and the bottom of lane 3, joined by
//     VPBLENDW. The nibbles go below the low bits in lanes 0 and 2 and above
//     them in lanes 1 and 3 (one VPMULLD by 1 + 2^(12+rest)), so that lanes
//     1 and 3 hold fp and lanes 0 and 2 fp rotated left by 16 - rest, the
//     pattern stage 0 builds (VPSLLW, VPSRLW, VPBLENDW). P, the least that
//     keeps both shifts right shifts, always leaves the bucket in the word.
//   - The codes, (word >> P) & (2^12 - 1), are narrowed to words by two
//     VPACKUSDW and stored with one store: two loads of four codes.
//   - A group's matches (VPCMPEQW, VPOR) become one bit a key by VPCMPEQQ
//     against zero and VMOVMSKPD, and four bools by a multiplication that
//     moves bit k to byte k (0x204081 = 1 + 2^7 + 2^14 + 2^21, whose
//     products by a 4-bit value do not overlap); a second multiplication
//     sums the bools into the top byte for the count. No BMI2 or POPCNT.
func cuckooHas2(semi bool) {
	name, layout := cuckooName(semi, "AVX2")
	TEXT(name, NOSPLIT, cuckooSig2())
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to whether either bucket of hs[i] holds its", name),
		fmt.Sprintf("fingerprint, in a %s table of fingerprints of at most 16 bits, and", layout),
		"returns how many do. len(hs) must be a multiple of 4, len(out) = len(hs),",
		"nb < 2^31 and params as cuckooParams2 makes it. It uses AVX2 only.")
	data, g, tab, hs, n, out := cuckooArgs(semi)
	p := func(i int) Mem { return Mem{Base: g, Disp: 32 * i} }
	reg := func(i int) VecVirtual {
		y := YMM()
		VMOVDQU(p(i), y)
		return y
	}
	nbV, lowV, shA, shB := reg(ck("c2NB")), reg(ck("c2LowMask")), reg(ck("c2ShiftA")), reg(ck("c2ShiftB"))
	var nibV, mulV VecVirtual
	if semi {
		nibV, mulV = reg(ck("c2NibMask")), reg(ck("c2Spread"))
	}
	count := GP64()
	XORQ(count, count)

	st := ckPipe{keys: 4, ahead0: 2, ahead1: 1, ringN: 4, unit: 32}
	// Rings, slots indexed by the slot register: bucket b's four byte
	// offsets at 32b and their left shifts at 64+32b (128 bytes a slot,
	// scale 4); fp's lane pattern (32 bytes, scale 1); the codes (32 bytes,
	// scale 1). The shifted words go from stage 1 to stage 2 in delays.
	offs, fpbs := AllocLocal(128*st.ringN), AllocLocal(32*st.ringN)
	var codes Mem
	if semi {
		codes = AllocLocal(32 * st.ringN)
	}
	var words [2]*delay
	for b := range 2 {
		words[b] = newDelay(st.ahead1, YMM)
	}
	st.arith = func(at Mem, sl Register) {
		h := YMM()
		VMOVDQU(at, h)
		fp := YMM()
		VPAND(p(ck("c2FPMask")), h, fp)
		VPMAXUD(p(ck("c2One")), fp, fp) // a fingerprint of 0 is stored as 1
		i1 := YMM()
		VPSRLQ(U8(32), h, i1)
		VPMULUDQ(nbV, i1, i1)
		VPSRLQ(U8(32), i1, i1)
		lo, hf := YMM(), YMM()
		VPMULUDQ(p(ck("c2AltMix")), fp, lo)
		VPMULUDQ(p(ck("c2AltHi")), fp, hf)
		VPSRLQ(U8(32), lo, lo)
		VPADDQ(lo, hf, hf)
		VPMULUDQ(nbV, hf, hf)
		VPSRLQ(U8(32), hf, hf)
		d, e, i2 := YMM(), YMM(), YMM()
		VPSUBQ(i1, hf, d)
		VPADDQ(nbV, d, e)
		VPMINUD(e, d, i2)
		fpb, rot, t := YMM(), YMM(), YMM()
		VPSHUFB(p(ck("c2FPShuf")), fp, fpb) // fp in each 16-bit lane
		VPSLLW(p(ck("c2RotL")), fpb, rot)
		VPSRLW(p(ck("c2RotR")), fpb, t)
		VPOR(t, rot, rot)
		VPBLENDW(U8(0x55), rot, fpb, fpb) // lanes 0 and 2 rotated
		VMOVDQU(fpb, fpbs.Idx(sl, 1))
		for b, i := range [2]VecVirtual{i1, i2} {
			bo := YMM()
			VPMULUDQ(p(ck("c2BucketBits")), i, bo)
			off := YMM()
			VPSRLQ(U8(3), bo, off)
			VMOVDQU(off, offs.Idx(sl, 4).Offset(32*b))
			VPANDN(p(ck("c2Four")), bo, bo) // 4 - the bucket's first bit in its word
			VPADDQ(p(ck("c2Q")), bo, bo)
			VMOVDQU(bo, offs.Idx(sl, 4).Offset(64+32*b))
		}
	}
	st.load = func(sl Register) {
		var c [2]VecVirtual
		for b := range 2 {
			w := loadWords2(data, offs.Idx(sl, 4).Offset(32*b))
			VPSLLVQ(offs.Idx(sl, 4).Offset(64+32*b), w, words[b].in()) // the bucket at bit P
			if semi {
				c[b] = YMM()
				VPSRLQ(p(ck("c2P")), words[b].in(), c[b])
				VPAND(p(ck("c2CodeMask")), c[b], c[b])
			}
		}
		if semi {
			// Dwords c0, 0, c1, 0 | c2, 0, c3, 0 of each bucket to the
			// words c0, c1, c0', c1' | c2, c3, c2', c3'.
			VPACKUSDW(c[1], c[0], c[0])
			VPACKUSDW(c[0], c[0], c[0])
			VMOVDQU(c[0], codes.Idx(sl, 1))
		}
	}
	st.finish = func(sl Register, o Mem) {
		var m [2]VecVirtual
		for b := range 2 {
			w, xa := words[b].out(), YMM()
			xb := YMM()
			VPSRLQ(shA.AsX(), w, xa)
			VPSRLQ(shB.AsX(), w, xb)
			VPBLENDW(U8(0xcc), xb, xa, xa) // slots 2 and 3 from xb
			VPAND(lowV, xa, xa)
			if semi {
				nd := loadNibbles2(tab, codes.Idx(sl, 1), b)
				VPMOVZXBD(nd.AsX(), nd) // the nibbles of key k: 0 and 1 in dword 2k, 2 and 3 in 2k+1
				VPMULLD(mulV, nd, nd)
				VPAND(nibV, nd, nd)
				VPOR(nd, xa, xa)
			}
			VPCMPEQW(fpbs.Idx(sl, 1), xa, xa)
			m[b] = xa
		}
		zero := YMM()
		VPXOR(zero, zero, zero)
		VPOR(m[1], m[0], m[0])
		VPCMPEQQ(zero, m[0], m[0]) // all ones where no lane matched
		bits, t := GP32(), GP32()
		VMOVMSKPD(m[0], bits)
		XORL(U8(15), bits)
		IMUL3L(U32(0x204081), bits, bits)
		ANDL(U32(0x01010101), bits)
		MOVL(bits, o)
		IMUL3L(U32(0x01010101), bits, t)
		SHRL(U8(24), t)
		ADDQ(t.As64(), count)
	}
	st.shift = func() {
		for b := range 2 {
			words[b].shift(func(a, b Op) { VMOVDQA(a, b) })
		}
	}
	cuckooLoop(name, hs, n, out, st)
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

// loadWords2 returns the 8-byte words at data+idx[j] for the 4 offsets idx
// at at, in the lanes of a ymm register (VPBROADCASTQ or VMOVQ, VPINSRQ,
// VINSERTI128; the broadcast writes the whole register, see loadWords).
func loadWords2(data Register, at Mem) VecVirtual {
	y := YMM()
	var x [2]VecVirtual
	for q := range x {
		r0, r1 := GP64(), GP64()
		MOVQ(at.Offset(16*q), r0)
		MOVQ(at.Offset(16*q+8), r1)
		lo := Mem{Base: data, Index: r0, Scale: 1}
		if q == 0 {
			x[q] = y.AsX().(VecVirtual)
			VPBROADCASTQ(lo, y)
		} else {
			x[q] = XMM()
			VMOVQ(lo, x[q])
		}
		VPINSRQ(U8(1), Mem{Base: data, Index: r1, Scale: 1}, x[q], x[q])
	}
	VINSERTI128(U8(1), x[1], y, y)
	return y
}

// loadNibbles2 returns, in the low 8 bytes of a ymm register, the 16-bit
// entries of tab at the four codes of bucket b stored by cuckooHas2 at at
// (words 2b and 2b+1 of the qwords at 0 and 16), each loaded on its own.
func loadNibbles2(tab Register, at Mem, b int) VecVirtual {
	y := YMM()
	x := y.AsX().(VecVirtual)
	for q := range 2 {
		w := GP64()
		MOVQ(at.Offset(16*q), w)
		if b == 1 {
			SHRQ(U8(32), w)
		}
		for j := range 2 {
			r := GP64()
			if j == 0 {
				MOVWLZX(w.As16(), r.As32())
			} else {
				MOVL(w.As32(), r.As32())
				SHRL(U8(16), r.As32())
			}
			m := Mem{Base: tab, Index: r, Scale: 2}
			if q == 0 && j == 0 {
				VPBROADCASTW(m, y)
			} else {
				VPINSRW(U8(2*q+j), m, x, x)
			}
		}
	}
	return y
}
