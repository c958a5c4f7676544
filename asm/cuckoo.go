package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The cuckoo filter's batch lookups (package cuckoo) for fingerprints of at
// most 16 bits, eight keys a group in the 64-bit lanes of a zmm register:
//
//   - fingerprint fp = max(h & fpMask, 1), first bucket i1 = (h>>32)*nb>>32
//     (VPMULUDQ), and i2 = (H(fp) - i1) mod nb with H(fp) =
//     (fp*altMix>>32)*nb>>32 (VPMULLQ, VPMULUDQ); the mod is the unsigned
//     minimum of d and d+nb (VPMINUQ), d = H(fp) - i1;
//   - each bucket's bit offset i*bucketBits (VPMULUDQ) gives the 8 bytes that
//     hold it and a shift of 0 or 4 (VPSRLVQ); the byte offsets go through
//     a buffer on the stack to eight scalar loads (loadWords), which beat
//     VPGATHERQQ on Zen 4 (PERF.md);
//   - the bucket is unpacked into the four 16-bit lanes of its qword as the
//     Go code does (cuckoo.Filter.lanes16): a semi-sorted bucket's 12-bit
//     code is looked up in a table of its four nibbles as bytes (scalar
//     loads again, loadNibbles), which VPMOVZXBW spreads to 16-bit lanes and VPSLLW moves
//     above the low bits; the low bits of each slot are shifted into their
//     lane and masked (VPSLLQ, VPTERNLOGQ);
//   - VPCMPEQW with fp in every lane finds a match in either bucket, and the
//     32-bit mask (four lanes a key) is folded to one bit a key, spread to
//     eight bools (PEXTL, PDEPQ), stored with one MOVQ and counted with
//     POPCNTQ.
//
// The Go side (cuckoo/dispatch_amd64.go) passes only whole groups, nb <
// 2^31, and the 16 words of cuckooParams (params).
const cuckooSig = "func(data *byte, params *[16]uint64, tab *[4096]uint32, hs []uint64, out []bool) int"

// Indexes of the words of the parameter block params (cuckoo/dispatch_amd64.go).
const (
	cpNB = iota
	cpBucketBits
	cpFPMask
	cpLane0 // mask of the low bits of a slot in lane 0, then lanes 1, 2, 3
	cpLane1
	cpLane2
	cpLane3
	cpShift1 // left shift that moves slot 1's low bits into lane 1, then 2, 3
	cpShift2
	cpShift3
	cpRest      // bits of a slot below its nibble (semi-sorted)
	cpCodeShift // bits of the code (12 semi-sorted, 0 plain)
	cpAltMix
	cpLanes16Lo
	cpCodeMask
	cpFour
)

func cuckooKernels() {
	cuckooHas(true)
	cuckooHas(false)
	cuckooHas2(true)
	cuckooHas2(false)
}

func cuckooHas(semi bool) {
	name := "cuckooHasPlainAVX512"
	if semi {
		name = "cuckooHasSemiAVX512"
	}
	TEXT(name, NOSPLIT, cuckooSig)
	Pragma("noescape")
	layout := "plain"
	if semi {
		layout = "semi-sorted"
	}
	Doc(fmt.Sprintf("%s sets out[i] to whether either bucket of hs[i] holds its", name),
		fmt.Sprintf("fingerprint, in a %s table of fingerprints of at most 16 bits, and", layout),
		"returns how many do. len(hs) must be a multiple of 8, len(out) = len(hs),",
		"nb < 2^31 and params as cuckooParams makes it. It uses BMI2 (PEXTL, PDEPQ) and",
		"POPCNT besides AVX-512 F, DQ and BW.")
	data := Load(Param("data"), GP64())
	g := Load(Param("params"), GP64())
	var tab Register
	if semi {
		tab = Load(Param("tab"), GP64())
	}
	hs := Load(Param("hs").Base(), GP64())
	n := Load(Param("hs").Len(), GP64())
	out := Load(Param("out").Base(), GP64())

	bc := func(i int) VecVirtual {
		z := ZMM()
		VPBROADCASTQ(Mem{Base: g, Disp: 8 * i}, z)
		return z
	}
	cnt := func(i int) VecVirtual {
		x := XMM()
		VMOVQ(Mem{Base: g, Disp: 8 * i}, x)
		return x
	}
	nbV, bbV, fmV := bc(cpNB), bc(cpBucketBits), bc(cpFPMask)
	var lane [4]VecVirtual
	for j := range lane {
		lane[j] = bc(cpLane0 + j)
	}
	sh := [4]VecVirtual{nil, cnt(cpShift1), cnt(cpShift2), cnt(cpShift3)}
	altV, loV, fourV := bc(cpAltMix), bc(cpLanes16Lo), bc(cpFour)
	var codeV, restX VecVirtual
	if semi {
		codeV, restX = bc(cpCodeMask), cnt(cpRest)
	}
	ones := ZMM()
	VPTERNLOGQ(U8(0xff), ones, ones, ones)
	VPSRLQ(U8(63), ones, ones)

	fold, spread := GP64(), GP64()
	MOVQ(U64(0x11111111), fold)
	MOVQ(U64(0x0101010101010101), spread)
	count := GP64()
	XORQ(count, count)
	SHRQ(U8(3), n)
	ring := AllocLocal(6 * 64)

	// The ring holds the byte offsets of two groups' buckets: the current
	// group's at rc, the next one's at rn, computed an iteration ahead so
	// that the current group's loads wait on no arithmetic.
	rc, rn := GP64(), GP64()
	LEAQ(ring, rc)
	LEAQ(ring.Offset(128), rn)
	nibBuf := ring.Offset(256)
	prep := func(at Mem, slot Register) (fpb VecVirtual, shift [2]VecVirtual) {
		h := ZMM()
		VMOVDQU64(at, h)
		fp := ZMM()
		VPANDQ(fmV, h, fp)
		VPMAXUQ(ones, fp, fp) // a fingerprint of 0 is stored as 1
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
		fpb = ZMM()
		VPMULLQ(loV, fp, fpb) // fp in each 16-bit lane
		for b, i := range [2]VecVirtual{i1, i2} {
			off := ZMM()
			VPMULUDQ(bbV, i, off)
			idx := ZMM()
			VPSRLQ(U8(3), off, idx)
			shift[b] = ZMM()
			VPANDQ(fourV, off, shift[b])
			VMOVDQU64(idx, Mem{Base: slot, Disp: 64 * b})
		}
		return fpb, shift
	}

	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	fpb, shifts := prep(Mem{Base: hs}, rc)

	Label(name + "_loop")
	DECQ(n)
	JZ(LabelRef(name + "_last"))
	fpbN, shiftsN := prep(Mem{Base: hs, Disp: 64}, rn)
	Label(name + "_last")

	var match [2]Register
	for b := range 2 {
		shift := shifts[b]
		w := loadWords(data, Mem{Base: rc, Disp: 64 * b})
		VPSRLVQ(shift, w, w)
		lanes := ZMM()
		if semi {
			code := ZMM()
			VPANDQ(codeV, w, code)
			nib := loadNibbles(tab, code, nibBuf.Offset(64*b))
			VPMOVZXBW(nib, lanes)
			VPSLLW(restX, lanes, lanes)
			VPSRLQ(U8(12), w, w)
			VPTERNLOGQ(U8(0xf8), lane[0], w, lanes) // lanes |= w & lane0
		} else {
			VPANDQ(lane[0], w, lanes)
		}
		for j := 1; j < 4; j++ {
			t := ZMM()
			VPSLLQ(sh[j], w, t)
			VPTERNLOGQ(U8(0xf8), lane[j], t, lanes) // lanes |= t & lane j
		}
		m := K()
		VPCMPEQW(fpb, lanes, m)
		match[b] = m
	}
	KORD(match[0], match[1], match[0])
	bits, t := GP32(), GP32()
	KMOVD(match[0], bits)
	MOVL(bits, t)
	SHRL(U8(1), t)
	ORL(t, bits)
	MOVL(bits, t)
	SHRL(U8(2), t)
	ORL(t, bits)
	PEXTL(fold.As32(), bits, bits)
	b64 := bits.As64()
	PDEPQ(spread, b64, b64)
	MOVQ(b64, Mem{Base: out})
	POPCNTQ(b64, b64)
	ADDQ(b64, count)

	ADDQ(U8(64), hs)
	ADDQ(U8(8), out)
	VMOVDQA64(fpbN, fpb)
	VMOVDQA64(shiftsN[0], shifts[0])
	VMOVDQA64(shiftsN[1], shifts[1])
	XCHGQ(rc, rn)
	TESTQ(n, n)
	JNZ(LabelRef(name + "_loop"))

	Label(name + "_done")
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

// loadWords returns the 8-byte words at data+idx[j] for the 8 offsets idx
// at at, in the lanes of a zmm register: each word is loaded on its own
// (VMOVQ, VPINSRQ) and the four pairs joined (VINSERTI64X2, VINSERTI64X4).
// Sixteen scalar loads take fewer cycles on Zen 4 than a VPGATHERQQ
// (PERF.md).
func loadWords(data Register, at Mem) VecVirtual {
	var x [4]VecVirtual
	for q := range x {
		x[q] = XMM()
		r0, r1 := GP64(), GP64()
		MOVQ(at.Offset(16*q), r0)
		MOVQ(at.Offset(16*q+8), r1)
		VMOVQ(Mem{Base: data, Index: r0, Scale: 1}, x[q])
		VPINSRQ(U8(1), Mem{Base: data, Index: r1, Scale: 1}, x[q], x[q])
	}
	VINSERTI64X2(U8(1), x[1], x[0].AsY(), x[0].AsY())
	VINSERTI64X2(U8(1), x[3], x[2].AsY(), x[2].AsY())
	VINSERTI64X4(U8(1), x[2].AsY(), x[0].AsZ(), x[0].AsZ())
	return x[0].AsZ().(VecVirtual)
}

// loadNibbles returns, in a ymm register, the 32-bit entries of tab at the
// codes in the lanes of code: code is stored to the 64 bytes at buf and
// each entry loaded on its own (VMOVD, VPINSRD), the two halves joined by
// VINSERTI64X2.
func loadNibbles(tab Register, code VecVirtual, buf Mem) VecVirtual {
	VMOVDQU64(code, buf)
	var x [2]VecVirtual
	for q := range x {
		x[q] = XMM()
		for j := range 4 {
			r := GP64()
			MOVL(buf.Offset(32*q+8*j), r.As32())
			m := Mem{Base: tab, Index: r, Scale: 4}
			if j == 0 {
				VMOVD(m, x[q])
			} else {
				VPINSRD(U8(j), m, x[q], x[q])
			}
		}
	}
	VINSERTI64X2(U8(1), x[1], x[0].AsY(), x[0].AsY())
	return x[0].AsY().(VecVirtual)
}

// The AVX2 batch lookups (cuckooHasSemiAVX2, cuckooHasPlainAVX2) follow the
// AVX-512 ones four keys a group in the 64-bit lanes of a ymm register, in
// Y0–Y15 and VEX encodings only. Their parameter block holds each word of
// cuckooParams broadcast to 32 bytes (cuckooParams2), so that every
// constant is a memory operand and the sixteen registers stay free for the
// group:
//
//   - H(fp)'s 64-bit product fp*altMix (fp < 2^16) is built from two
//     VPMULUDQs by the low and high halves of altMix; only its bits 32 to 63
//     reach the next VPMULUDQ, which reads the low 32 bits of a lane;
//   - the mod is d + (nb & (d >> 31)) with an arithmetic shift of the 32-bit
//     halves (VPSRAD): |d| < nb < 2^31, so both halves of a negative d are
//     all ones after it and of a positive d zero;
//   - fp is copied to the four 16-bit lanes of its qword by VPSHUFLW and
//     VPSHUFHW, and fp = max(fp, 1) is VPMAXUD against 1 in the low halves;
//   - a group's matches (VPCMPEQW, VPOR) become one bit a key by VPCMPEQQ
//     against zero and VMOVMSKPD, and four bools by a multiplication that
//     moves bit k to byte k (0x204081 = 1 + 2^7 + 2^14 + 2^21, whose
//     products by a 4-bit value do not overlap); a second multiplication
//     sums the bools into the top byte for the count. No BMI2 or POPCNT.
const cuckooSig2 = "func(data *byte, params *[18][4]uint64, tab *[4096]uint32, hs []uint64, out []bool) int"

// Rows of the AVX2 parameter block beyond cuckooParams' 16.
const (
	cpAltHi = 16 + iota // altMix >> 32
	cpOne               // 1
)

func cuckooHas2(semi bool) {
	name := "cuckooHasPlainAVX2"
	layout := "plain"
	if semi {
		name, layout = "cuckooHasSemiAVX2", "semi-sorted"
	}
	TEXT(name, NOSPLIT, cuckooSig2)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to whether either bucket of hs[i] holds its", name),
		fmt.Sprintf("fingerprint, in a %s table of fingerprints of at most 16 bits, and", layout),
		"returns how many do. len(hs) must be a multiple of 4, len(out) = len(hs),",
		"nb < 2^31 and params as cuckooParams2 makes it. It uses AVX2 only.")
	data := Load(Param("data"), GP64())
	g := Load(Param("params"), GP64())
	var tab Register
	if semi {
		tab = Load(Param("tab"), GP64())
	}
	hs := Load(Param("hs").Base(), GP64())
	n := Load(Param("hs").Len(), GP64())
	out := Load(Param("out").Base(), GP64())
	p := func(i int) Mem { return Mem{Base: g, Disp: 32 * i} }

	count := GP64()
	XORQ(count, count)
	SHRQ(U8(2), n)
	ring := AllocLocal(4*32 + 2*32)
	rc, rn := GP64(), GP64()
	LEAQ(ring, rc)
	LEAQ(ring.Offset(64), rn)
	nibBuf := ring.Offset(128)
	prep := func(at Mem, slot Register) (fpb VecVirtual, shift [2]VecVirtual) {
		h := YMM()
		VMOVDQU(at, h)
		fp := YMM()
		VPAND(p(cpFPMask), h, fp)
		VPMAXUD(p(cpOne), fp, fp) // a fingerprint of 0 is stored as 1
		i1 := YMM()
		VPSRLQ(U8(32), h, i1)
		VPMULUDQ(p(cpNB), i1, i1)
		VPSRLQ(U8(32), i1, i1)
		lo, hf := YMM(), YMM()
		VPMULUDQ(p(cpAltMix), fp, lo)
		VPMULUDQ(p(cpAltHi), fp, hf)
		VPSRLQ(U8(32), lo, lo)
		VPADDQ(lo, hf, hf)
		VPMULUDQ(p(cpNB), hf, hf)
		VPSRLQ(U8(32), hf, hf)
		d, neg := YMM(), YMM()
		VPSUBQ(i1, hf, d)
		VPSRAD(U8(31), d, neg)
		VPAND(p(cpNB), neg, neg)
		i2 := YMM()
		VPADDQ(neg, d, i2)
		fpb = YMM()
		VPSHUFLW(U8(0), fp, fpb) // fp in each 16-bit lane
		VPSHUFHW(U8(0), fpb, fpb)
		for b, i := range [2]VecVirtual{i1, i2} {
			off := YMM()
			VPMULUDQ(p(cpBucketBits), i, off)
			idx := YMM()
			VPSRLQ(U8(3), off, idx)
			shift[b] = YMM()
			VPAND(p(cpFour), off, shift[b])
			VMOVDQU(idx, Mem{Base: slot, Disp: 32 * b})
		}
		return fpb, shift
	}

	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	fpb, shifts := prep(Mem{Base: hs}, rc)

	Label(name + "_loop")
	DECQ(n)
	JZ(LabelRef(name + "_last"))
	fpbN, shiftsN := prep(Mem{Base: hs, Disp: 32}, rn)
	Label(name + "_last")

	var match [2]VecVirtual
	for b := range 2 {
		w := loadWords2(data, Mem{Base: rc, Disp: 32 * b})
		VPSRLVQ(shifts[b], w, w)
		lanes := YMM()
		if semi {
			code := YMM()
			VPAND(p(cpCodeMask), w, code)
			nib := loadNibbles2(tab, code, nibBuf.Offset(32*b))
			VPMOVZXBW(nib, lanes)
			VPSLLW(p(cpRest), lanes, lanes)
			VPSRLQ(U8(12), w, w)
			t := YMM()
			VPAND(p(cpLane0), w, t)
			VPOR(t, lanes, lanes)
		} else {
			VPAND(p(cpLane0), w, lanes)
		}
		for j := 1; j < 4; j++ {
			t := YMM()
			VPSLLQ(p(cpShift1+j-1), w, t)
			VPAND(p(cpLane0+j), t, t)
			VPOR(t, lanes, lanes)
		}
		VPCMPEQW(fpb, lanes, lanes)
		match[b] = lanes
	}
	zero := YMM()
	VPXOR(zero, zero, zero)
	VPOR(match[1], match[0], match[0])
	VPCMPEQQ(zero, match[0], match[0]) // all ones where no lane matched
	bits, t := GP32(), GP32()
	VMOVMSKPD(match[0], bits)
	XORL(U8(15), bits)
	IMUL3L(U32(0x204081), bits, bits)
	ANDL(U32(0x01010101), bits)
	MOVL(bits, Mem{Base: out})
	IMUL3L(U32(0x01010101), bits, t)
	SHRL(U8(24), t)
	ADDQ(t.As64(), count)

	ADDQ(U8(32), hs)
	ADDQ(U8(4), out)
	VMOVDQA(fpbN, fpb)
	VMOVDQA(shiftsN[0], shifts[0])
	VMOVDQA(shiftsN[1], shifts[1])
	XCHGQ(rc, rn)
	TESTQ(n, n)
	JNZ(LabelRef(name + "_loop"))

	Label(name + "_done")
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

// loadWords2 returns the 8-byte words at data+idx[j] for the 4 offsets idx
// at at, in the lanes of a ymm register (VMOVQ, VPINSRQ, VINSERTI128).
func loadWords2(data Register, at Mem) VecVirtual {
	var x [2]VecVirtual
	for q := range x {
		x[q] = XMM()
		r0, r1 := GP64(), GP64()
		MOVQ(at.Offset(16*q), r0)
		MOVQ(at.Offset(16*q+8), r1)
		VMOVQ(Mem{Base: data, Index: r0, Scale: 1}, x[q])
		VPINSRQ(U8(1), Mem{Base: data, Index: r1, Scale: 1}, x[q], x[q])
	}
	VINSERTI128(U8(1), x[1], x[0].AsY(), x[0].AsY())
	return x[0].AsY().(VecVirtual)
}

// loadNibbles2 returns, in an xmm register, the 32-bit entries of tab at
// the 4 codes in the lanes of code, stored to the 32 bytes at buf and
// loaded one by one (VMOVD, VPINSRD).
func loadNibbles2(tab Register, code VecVirtual, buf Mem) VecVirtual {
	VMOVDQU(code, buf)
	x := XMM()
	for j := range 4 {
		r := GP64()
		MOVL(buf.Offset(8*j), r.As32())
		m := Mem{Base: tab, Index: r, Scale: 4}
		if j == 0 {
			VMOVD(m, x)
		} else {
			VPINSRD(U8(j), m, x, x)
		}
	}
	return x
}
