package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cuckooAVX512 emits package cuckoo's kernels_avx512_amd64.s: the AVX-512
// batch lookups of both layouts.
func cuckooAVX512() {
	cuckooHas(true)
	cuckooHas(false)
}

// cuckooSig returns the AVX-512 kernels' signature: their parameter block
// (cuckoo/dispatch_amd64.go, cuckooParams) has cpWords words, each at the
// index of its cp constant there (ck).
func cuckooSig() string {
	return fmt.Sprintf("func(data *byte, params *[%d]uint64, tab *[4096]uint16, hs []uint64, out []bool) int", ck("cpWords"))
}

// cuckooHas emits cuckooHasSemiAVX512 or cuckooHasPlainAVX512: eight keys a
// group in the lanes of a zmm register.
//
//   - Stage 0: i1 by VPMULUDQ, H(fp) by VPMULLQ and VPMULUDQ, the mod by
//     VPMINUQ of d and d+nb; fp in every 16-bit lane by VPMULLQ; the byte
//     offsets (bit offset / 8) to the ring, the shifts (bit offset & 7) and
//     fp to delays.
//   - Stage 1: both buckets' words (loadWords), shifted by VPSRLVQ into a
//     delay; a semi-sorted bucket's 12-bit codes, masked and narrowed to
//     words (VPMOVQW), to the ring.
//   - Stage 2: one VPMULTISHIFTQB moves slot j's low bits to the bottom of
//     lane j (its control is per filter). A semi-sorted bucket's code is
//     looked up in decodeNibbles (16 bits: four nibbles, ascending), eight
//     entries gathered by scalar loads into an xmm register (loadNibbles);
//     VPMOVZXBD puts nibbles 0 and 1 of key k in dword 2k, 2 and 3 in 2k+1,
//     and one VPMULLD by 2^rest + 2^(12+rest) moves the low nibble of each
//     dword to bit rest of its low 16-bit half and the high one to bit rest
//     of its high half, the rest masked off; VPTERNLOGQ joins the two
//     parts. VPCMPEQW against fp finds a match in either bucket; the 32-bit
//     mask (four lanes a key) becomes one bit a key (bit 3 of each nibble
//     after adding 7 to its low three bits, then PEXTL), eight bools
//     (PDEPQ) stored with one MOVQ and counted with POPCNTQ.
func cuckooHas(semi bool) {
	name, layout := cuckooName(semi, "AVX512")
	TEXT(name, NOSPLIT, cuckooSig())
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to whether either bucket of hs[i] holds its", name),
		fmt.Sprintf("fingerprint, in a %s table of fingerprints of at most 16 bits, and", layout),
		"returns how many do. len(hs) must be a multiple of 8, len(out) = len(hs),",
		"nb < 2^31 and params as cuckooParams makes it. It uses BMI2 (PEXTL, PDEPQ),",
		"POPCNT and AVX-512 VBMI (VPMULTISHIFTQB) besides AVX-512 F, DQ and BW.")
	data, g, tab, hs, n, out := cuckooArgs(semi)

	bc := func(i int) VecVirtual {
		z := ZMM()
		VPBROADCASTQ(Mem{Base: g, Disp: 8 * i}, z)
		return z
	}
	nbV, bbV, fmV, lowV := bc(ck("cpNB")), bc(ck("cpBucketBits")), bc(ck("cpFPMask")), bc(ck("cpLowMask"))
	ctlV, altV, loV, sevenV, oneV := bc(ck("cpCtrl")), bc(ck("cpAltMix")), bc(ck("cpLanes16Lo")), bc(ck("cpSeven")), bc(ck("cpOne"))
	var nibV, mulV, codeV VecVirtual
	var bx [4]Register // BEXTRQ controls: 16 bits from bit 16j
	if semi {
		nibV, mulV, codeV = bc(ck("cpNibMask")), bc(ck("cpSpread")), bc(ck("cpCodeMask"))
		for j := 1; j < 4; j++ {
			r := GP64()
			MOVL(U32(16<<8|16*j), r.As32())
			bx[j] = r
		}
	}
	count := GP64()
	XORQ(count, count)

	// Stage 0 runs two groups ahead of stage 1, one more a ring slot's
	// stores wait before they are loaded; stage 1 one ahead of stage 2.
	st := ckPipe{keys: 8, ahead0: 2, ahead1: 1, ringN: 4, unit: 32}
	// Rings: the byte offsets of both buckets (128 bytes a slot, scale 4)
	// and their codes as words (32 bytes, scale 1).
	offs := AllocLocal(128 * st.ringN)
	var codes Mem
	if semi {
		codes = AllocLocal(32 * st.ringN)
	}
	// The shifts go from stage 0 to stage 1, fp in every lane from stage 0
	// to stage 2, the shifted words from stage 1 to stage 2.
	var sh, words [2]*delay
	for b := range 2 {
		sh[b] = newDelay(st.ahead0, ZMM)
		words[b] = newDelay(st.ahead1, ZMM)
	}
	fpb := newDelay(st.ahead0+st.ahead1, ZMM)
	st.arith = func(at Mem, sl Register) {
		h := ZMM()
		VMOVDQU64(at, h)
		fp := ZMM()
		VPANDQ(fmV, h, fp)
		VPMAXUQ(oneV, fp, fp) // a fingerprint of 0 is stored as 1
		i1 := ZMM()
		VPSRLQ(U8(32), h, i1)
		VPMULUDQ(nbV, i1, i1)
		VPSRLQ(U8(32), i1, i1)
		hf := ZMM()
		VPMULLQ(altV, fp, hf)
		VPSRLQ(U8(32), hf, hf)
		VPMULUDQ(nbV, hf, hf)
		VPSRLQ(U8(32), hf, hf)
		d, e := ZMM(), ZMM()
		VPSUBQ(i1, hf, d)
		VPADDQ(nbV, d, e)
		i2 := ZMM()
		VPMINUQ(e, d, i2)
		VPMULLQ(loV, fp, fpb.in()) // fp in each 16-bit lane
		for b, i := range [2]VecVirtual{i1, i2} {
			bo := ZMM()
			VPMULUDQ(bbV, i, bo)
			off := ZMM()
			VPSRLQ(U8(3), bo, off)
			VMOVDQU64(off, offs.Idx(sl, 4).Offset(64*b))
			VPANDQ(sevenV, bo, sh[b].in())
		}
	}
	st.load = func(sl Register) {
		for b := range 2 {
			w := loadWords(data, offs.Idx(sl, 4).Offset(64*b))
			VPSRLVQ(sh[b].out(), w, words[b].in())
			if semi {
				code := ZMM()
				VPANDQ(codeV, words[b].in(), code)
				VPMOVQW(code, codes.Idx(sl, 1).Offset(16*b))
			}
		}
	}
	st.finish = func(sl Register, o Mem) {
		var match [2]Register
		for b := range 2 {
			lanes := ZMM()
			VPMULTISHIFTQB(words[b].out(), ctlV, lanes) // slot j's low bits at the bottom of lane j
			if semi {
				nib := loadNibbles(tab, codes.Idx(sl, 1).Offset(16*b), bx)
				nd := ZMM()
				VPMOVZXBD(nib, nd) // the nibbles of key k: 0 and 1 in dword 2k, 2 and 3 in 2k+1
				VPMULLD(mulV, nd, nd)
				VPANDQ(nibV, nd, nd)                  // nibble j of key k above the low bits of lane j
				VPTERNLOGQ(U8(0xe4), lowV, nd, lanes) // lanes = low ? lanes : nd
			} else {
				VPANDQ(lowV, lanes, lanes)
			}
			m := K()
			VPCMPEQW(fpb.out(), lanes, m)
			match[b] = m
		}
		KORD(match[0], match[1], match[0])
		bits, t := GP32(), GP32()
		KMOVD(match[0], bits)
		// Bit 3 of each key's nibble of bits is set if any of its four is:
		// its low three bits plus 7 carry into it, and no further.
		MOVL(bits, t)
		ANDL(U32(0x77777777), t)
		ADDL(U32(0x77777777), t)
		ORL(t, bits)
		PEXTL(ckConsts().Offset(0), bits, bits)
		b64 := bits.As64()
		PDEPQ(ckConsts().Offset(8), b64, b64)
		MOVQ(b64, o)
		POPCNTQ(b64, b64)
		ADDQ(b64, count)
	}
	st.shift = func() {
		mov := func(a, b Op) { VMOVDQA64(a, b) }
		for b := range 2 {
			sh[b].shift(mov)
			words[b].shift(mov)
		}
		fpb.shift(mov)
	}
	cuckooLoop(name, hs, n, out, st)
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

var ckConstsMem *Mem

// ckConsts returns the AVX-512 kernels' scalar constants: the PEXT mask
// that keeps bit 3 of each key's nibble of lane bits, and the PDEP mask
// that spreads eight bits to eight bytes.
func ckConsts() Mem {
	if ckConstsMem == nil {
		m := qwordTable("cuckooConsts", []uint64{0x88888888, 0x0101010101010101})
		ckConstsMem = &m
	}
	return *ckConstsMem
}

// loadWords returns the 8-byte words at data+idx[j] for the 8 offsets idx
// at at, in the lanes of a zmm register: each word is loaded on its own and
// the four pairs joined (VINSERTI64X2, VINSERTI64X4). Sixteen scalar loads
// take fewer cycles on Zen 4 than a VPGATHERQQ (PERF.md). The first word of
// each half is loaded by a VPBROADCASTQ, which writes the whole register:
// avo's liveness takes a VMOVQ for a write of the low 128 bits only, and
// the upper bits read by the inserts would look live from the kernel's
// entry, taking registers from the rest of the loop.
func loadWords(data Register, at Mem) VecVirtual {
	z := ZMM()
	var x [4]VecVirtual
	for q := range x {
		r0, r1 := GP64(), GP64()
		MOVQ(at.Offset(16*q), r0)
		MOVQ(at.Offset(16*q+8), r1)
		lo := Mem{Base: data, Index: r0, Scale: 1}
		switch q {
		case 0:
			x[q] = z.AsX().(VecVirtual)
			VPBROADCASTQ(lo, z)
		case 2:
			x[q] = YMM().AsX().(VecVirtual)
			VPBROADCASTQ(lo, x[q].AsY())
		default:
			x[q] = XMM()
			VMOVQ(lo, x[q])
		}
		VPINSRQ(U8(1), Mem{Base: data, Index: r1, Scale: 1}, x[q], x[q])
	}
	VINSERTI64X2(U8(1), x[1], x[0].AsY(), x[0].AsY())
	VINSERTI64X2(U8(1), x[3], x[2].AsY(), x[2].AsY())
	VINSERTI64X4(U8(1), x[2].AsY(), z, z)
	return z
}

// loadNibbles returns, in an xmm register, the 16-bit entries of tab at the
// eight codes stored as words at at: two loads of four codes, each
// extracted by MOVWLZX or by BEXTRQ with the control bx[j], and each entry
// loaded on its own (VPBROADCASTW, then VPINSRW). Words rather than qwords
// take 14 loads fewer a group (PERF.md).
func loadNibbles(tab Register, at Mem, bx [4]Register) VecVirtual {
	x := XMM()
	for q := range 2 {
		w := GP64()
		MOVQ(at.Offset(8*q), w)
		for j := range 4 {
			r := GP64()
			if j == 0 {
				MOVWLZX(w.As16(), r.As32())
			} else {
				BEXTRQ(bx[j], w, r)
			}
			m := Mem{Base: tab, Index: r, Scale: 2}
			if q == 0 && j == 0 {
				VPBROADCASTW(m, x)
			} else {
				VPINSRW(U8(4*q+j), m, x, x)
			}
		}
	}
	return x
}
