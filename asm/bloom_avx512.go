package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// bloomAVX512 emits the root package's kernels_avx512_amd64.s: the AVX-512
// hashing of integers and strings. The typed one-key kernels run their AVX2
// versions at the AVX-512 level (levelJumps).
func bloomAVX512() {
	hashAVX512()
	hashStrsAVX512()
}

func hashAVX512() {
	consts := qwordTable("hashConsts", []uint64{xxhFolded, xxhPrime, 8})
	masks := GLOBL("hashTailMasks", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(i, U8(1<<i-1))
	}

	TEXT("hashUint64sAVX512", NOSPLIT, "func(dst []uint64, src []uint64)")
	Pragma("noescape")
	Doc("hashUint64sAVX512 sets dst[i] to the XXH3-64 hash of the 8-byte little-endian",
		"encoding of src[i], eight keys per zmm register. len(dst) must be at least",
		"len(src); dst and src may be the same slice. It uses AVX-512 F and DQ.")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("src").Base(), GP64())
	n := Load(Param("src").Len(), GP64())
	c := hashConstRegs{ZMM(), ZMM(), ZMM()}
	VPBROADCASTQ(consts.Offset(0), c.folded)
	VPBROADCASTQ(consts.Offset(8), c.prime)
	VPBROADCASTQ(consts.Offset(16), c.eight)

	const step = 8 * hashUnroll
	Commentf("%d keys at a time.", step)
	full := GP64()
	MOVQ(n, full)
	ANDQ(I32(-step), full)
	i := GP64()
	XORQ(i, i)
	Label("hash_loop")
	CMPQ(i, full)
	JAE(LabelRef("hash_eights"))
	xs := make([]VecVirtual, hashUnroll)
	for u := range xs {
		xs[u] = ZMM()
		VMOVDQU64(Mem{Base: src, Index: i, Scale: 8, Disp: 64 * u}, xs[u])
	}
	for u, x := range xs {
		VMOVDQU64(hashZMM(x, c), Mem{Base: dst, Index: i, Scale: 8, Disp: 64 * u})
	}
	ADDQ(U8(step), i)
	JMP(LabelRef("hash_loop"))

	Comment("Then eight at a time.")
	Label("hash_eights")
	ANDQ(I8(-8), n) // n rounded down; the tail length is src.len & 7
	Label("hash_eight")
	CMPQ(i, n)
	JAE(LabelRef("hash_tail"))
	x := ZMM()
	VMOVDQU64(Mem{Base: src, Index: i, Scale: 8}, x)
	VMOVDQU64(hashZMM(x, c), Mem{Base: dst, Index: i, Scale: 8})
	ADDQ(U8(8), i)
	JMP(LabelRef("hash_eight"))

	Comment("The last 0 to 7 keys, under a mask (masked loads do not fault past src).")
	Label("hash_tail")
	rest := Load(Param("src").Len(), GP64())
	ANDQ(U8(7), rest)
	JZ(LabelRef("hash_done"))
	tbl := GP64()
	LEAQ(masks, tbl)
	k := K()
	KMOVB(Mem{Base: tbl, Index: rest, Scale: 1}, k)
	t := ZMM()
	VMOVDQU64_Z(Mem{Base: src, Index: i, Scale: 8}, k, t)
	VMOVDQU64(hashZMM(t, c), k, Mem{Base: dst, Index: i, Scale: 8})
	Label("hash_done")
	VZEROUPPER()
	RET()
}

type hashConstRegs struct {
	folded, prime, eight VecVirtual
}

// hashZMM emits the hash of the eight keys in x and returns the register
// holding the eight hashes.
func hashZMM(x VecVirtual, c hashConstRegs) VecVirtual {
	h, a, b := ZMM(), ZMM(), ZMM()
	VPROLQ(U8(32), x, h)
	VPROLQ(U8(17), x, a)
	VPROLQ(U8(56), x, b)
	VPTERNLOGQ(U8(0x96), b, a, h) // h ^= a ^ b
	VPXORQ(c.folded, h, h)
	VPMULLQ(c.prime, h, h)
	t := ZMM()
	VPSRLQ(U8(35), h, t)
	VPADDQ(c.eight, t, t)
	VPXORQ(t, h, h)
	VPMULLQ(c.prime, h, h)
	u := ZMM()
	VPSRLQ(U8(28), h, u)
	VPXORQ(u, h, h)
	return h
}

// strAVX512 holds the AVX-512 kernel's registers and tables.
type strAVX512 struct {
	consts, keys Mem
}

func (s *strAVX512) c(i int) Mem { return s.consts.Offset(8 * i) }

// mulFold returns, per lane, the high and low halves of the 128-bit product
// a*b XORed: four 32x32->64 VPMULUDQ.
func (s *strAVX512) mulFold(a, b Register) Register {
	ah, bh := ZMM(), ZMM()
	VPSRLQ(U8(32), a, ah)
	VPSRLQ(U8(32), b, bh)
	ll, hl, lh, hh := ZMM(), ZMM(), ZMM(), ZMM()
	VPMULUDQ(b, a, ll)
	VPMULUDQ(b, ah, hl)
	VPMULUDQ(bh, a, lh)
	VPMULUDQ(bh, ah, hh)
	cross, t := ZMM(), ZMM()
	VPSRLQ(U8(32), ll, cross)
	VPANDQ_BCST(s.c(scLow32), hl, t)
	VPADDQ(t, cross, cross)
	VPADDQ(lh, cross, cross) // (ll>>32) + lo(hl) + lh: bits 32.. of the product
	VPSRLQ(U8(32), hl, hl)
	VPADDQ(hl, hh, hh)
	VPSRLQ(U8(32), cross, t)
	VPADDQ(t, hh, hh) // the high half
	VPSLLQ(U8(32), cross, cross)
	VPANDQ_BCST(s.c(scLow32), ll, ll)
	VPTERNLOGQ(U8(0x96), ll, cross, hh) // high ^ low
	return hh
}

// mulFoldIFMA is mulFold with AVX-512 IFMA, whose VPMADD52LUQ and
// VPMADD52HUQ add the low or high 52 bits of the 104-bit product of the low
// 52 bits of two lanes. With a = a0 + a1<<52 and b = b0 + b1<<52 (a1, b1 of
// 12 bits; IFMA reads a0 and b0 from a and b themselves, ignoring their top
// bits):
//
//	a*b = a0*b0 + (a0*b1 + a1*b0)<<52 + a1*b1<<104
//	    = L + M<<52 + T<<104, where
//	L = lo52(a0*b0)
//	M = hi52(a0*b0) + lo52(a0*b1) + lo52(a1*b0)   (< 3<<52)
//	T = hi52(a0*b1) + hi52(a1*b0) + a1*b1         (< 2^25)
//
// so the low half is M<<52 + L (no carry: L < 2^52) and the high half
// M>>12 + T<<40 (mod 2^64). a1*b1, 12 by 12 bits, is one VPMULUDQ (no
// accumulator to zero, and a shorter latency than IFMA's); the rest are six
// IFMA.
func (s *strAVX512) mulFoldIFMA(a, b Register) Register {
	a1, b1 := ZMM(), ZMM()
	VPSRLQ(U8(52), a, a1)
	VPSRLQ(U8(52), b, b1)
	m := ZMM()
	VPXORQ(m, m, m)
	VPMADD52HUQ(b, a, m)
	VPMADD52LUQ(b1, a, m)
	VPMADD52LUQ(b, a1, m) // M
	t := ZMM()
	VPMULUDQ(b1, a1, t)
	VPMADD52HUQ(b1, a, t)
	VPMADD52HUQ(b, a1, t) // T
	lo := ZMM()
	VPSLLQ(U8(52), m, lo)
	VPMADD52LUQ(b, a, lo) // the low half: M<<52 + L
	VPSRLQ(U8(12), m, m)
	VPSLLQ(U8(40), t, t)
	VPADDQ(t, m, m) // the high half
	VPXORQ(lo, m, m)
	return m
}

// avalanche applies XXH3's avalanche to h in place.
func (s *strAVX512) avalanche(h Register) {
	t := ZMM()
	VPSRLQ(U8(37), h, t)
	VPXORQ(t, h, h)
	VPMULLQ_BCST(s.c(scAval), h, h)
	VPSRLQ(U8(32), h, t)
	VPXORQ(t, h, h)
}

func hashStrsAVX512() {
	s := &strAVX512{
		consts: qwordTable("strConsts", strConstWords[:]),
		keys:   qwordTable("strSecret", xxhKey[:]),
	}
	bswap := qwordTable("strBswap", bswapIndexes(8))
	odds := qwordTable("strOdds", []uint64{1, 3, 5, 7, 9, 11, 13, 15})
	L := lanes512

	var k *strKernel
	lens := func() Register { return k.lens }
	var zlo, zspan, zodds VecVirtual
	chk := strCheck{
		setup: func(lo, hi int) {
			zlo, zspan, zodds = ZMM(), ZMM(), ZMM()
			VMOVDQU64(odds, zodds)
			t := GP64()
			MOVQ(U32(lo), t)
			VPBROADCASTQ(t, zlo)
			MOVQ(U32(hi-lo), t)
			VPBROADCASTQ(t, zspan)
		},
		check: func(kp GPVirtual, out LabelRef) Register {
			x, t := ZMM(), ZMM()
			VMOVDQU64(Mem{Base: kp}, x)
			VPERMT2Q(Mem{Base: kp, Disp: 64}, zodds, x) // the odd qwords of the eight headers
			VPSUBQ(zlo, x, t)
			VPCMPUQ(U8(6), zspan, t, K1) // length-lo > hi-lo: another class
			KORTESTB(K1, K1)
			JNZ(out)
			return x
		},
	}
	kernel := func(class int, suffix string, body func() Register) {
		name := "hashStr" + classNames[class] + suffix
		b := classBounds[class]
		doc := classDoc(name, 8, class)
		if suffix == "IFMA" {
			doc = append(doc, "It is hashStr"+classNames[class]+"AVX512 with the 64x64->128-bit multiplies of AVX-512 IFMA.")
		}
		strKernelFunc(name, 8, doc, chk, b[0], b[1], func(kk *strKernel) Register {
			k = kk
			return body()
		})
	}

	kernel(0, "AVX512", func() Register {
		Comment("4-8 bytes: rrmxmx of the first and last four bytes.")
		x := L.halfWords(k.kp)
		VPXORQ_BCST(s.c(scKey4), x, x)
		a, b := ZMM(), ZMM()
		VPROLQ(U8(49), x, a)
		VPROLQ(U8(24), x, b)
		VPTERNLOGQ(U8(0x96), b, a, x)
		VPMULLQ_BCST(s.c(scPrime), x, x)
		VPSRLQ(U8(35), x, a)
		VPADDQ(lens(), a, a)
		VPXORQ(a, x, x)
		VPMULLQ_BCST(s.c(scPrime), x, x)
		VPSRLQ(U8(28), x, a)
		VPXORQ(a, x, x)
		return x
	})

	// The classes with 64x64->128-bit multiplies have two kernels each: with
	// four VPMULUDQ a multiply (AVX512), and with IFMA (IFMA).
	for _, v := range []struct {
		suffix string
		mul    func(a, b Register) Register
	}{{"AVX512", s.mulFold}, {"IFMA", s.mulFoldIFMA}} {
		kernel(1, v.suffix, func() Register {
			Comment("9-16 bytes: the first and last eight, folded with one 64x64->128 multiply.")
			lo, hi := L.words(k.kp, front(0), back(8))
			VPXORQ_BCST(s.c(scKeyLo), lo, lo)
			VPXORQ_BCST(s.c(scKeyHi), hi, hi)
			f := v.mul(lo, hi)
			VPSHUFB(bswap, lo, lo)
			VPADDQ(lo, f, f)
			VPADDQ(hi, f, f)
			VPADDQ(lens(), f, f)
			s.avalanche(f)
			return f
		})
		// Keys of 65-128 bytes stay in Go at this level: avo's register
		// allocator fails on the three- and four-round zmm kernels (not yet
		// understood; the ymm ones allocate).
		for rounds := range 2 {
			kernel(2+rounds, v.suffix, func() Register {
				Comment("17-128 bytes: one 16-byte pair from each end per 32 bytes.")
				acc := ZMM()
				VPMULLQ_BCST(s.c(scP1), lens(), acc)
				for r := 0; r <= rounds; r++ {
					v2 := L.pairs(k.kp, front(16*r), back(16*(r+1)))
					for side := 0; side < 2; side++ {
						a, b := v2[2*side], v2[2*side+1]
						VPXORQ_BCST(s.keys.Offset(32*r+16*side), a, a)
						VPXORQ_BCST(s.keys.Offset(32*r+16*side+8), b, b)
						VPADDQ(v.mul(a, b), acc, acc)
					}
				}
				s.avalanche(acc)
				return acc
			})
		}
	}
}
