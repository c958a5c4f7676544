package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

// bloomAVX2 emits the root package's kernels_avx2_amd64.s: the AVX2
// hashing of integers and strings, and the typed one-key kernels' AVX2
// versions.
func bloomAVX2() {
	hashAVX2()
	hashStrsAVX2()
	typedKernels(&avx2)
}

// AVX2 has neither 64-bit multiplies nor rotates. The kernel multiplies by
// the prime p with three 32x32->64 VPMULUDQ: h*p = lo(h)*lo(p) +
// (hi(h)*lo(p) + lo(h)*hi(p))<<32. Of the three rotates of x, 32 is VPSHUFD
// and 56 (a byte rotate) is VPSHUFB; 17 is two shifts. Four keys per ymm,
// eight per iteration, then four; the Go side hashes the last 0 to 3 keys.
func hashAVX2() {
	var rot8 [4]uint64 // VPSHUFB indexes: byte j of each qword from byte j+1 mod 8
	for q := range rot8 {
		for j := 0; j < 8; j++ {
			rot8[q] |= uint64(8*(q%2)+(j+1)%8) << (8 * j)
		}
	}
	consts := qwordTable("hashConstsAVX2", []uint64{xxhFolded, xxhPrime, xxhPrime >> 32, 8})
	shuf := qwordTable("hashRotl56", rot8[:])

	TEXT("hashUint64sAVX2", NOSPLIT, "func(dst []uint64, src []uint64)")
	Pragma("noescape")
	Doc("hashUint64sAVX2 sets dst[i] to the XXH3-64 hash of the 8-byte little-endian",
		"encoding of src[i], four keys per ymm register. len(src) must be a multiple",
		"of 4 and len(dst) at least len(src); dst and src may be the same slice.")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("src").Base(), GP64())
	n := Load(Param("src").Len(), GP64())
	c := hashAVX2Regs{YMM(), YMM(), YMM(), YMM(), YMM()}
	VPBROADCASTQ(consts.Offset(0), c.folded)
	VPBROADCASTQ(consts.Offset(8), c.prime)
	VPBROADCASTQ(consts.Offset(16), c.primeHi)
	VPBROADCASTQ(consts.Offset(24), c.eight)
	VMOVDQU(shuf, c.rotl56)

	Comment("8 keys at a time.")
	full := GP64()
	MOVQ(n, full)
	ANDQ(I8(-8), full)
	i := GP64()
	XORQ(i, i)
	Label("hash2_loop")
	CMPQ(i, full)
	JAE(LabelRef("hash2_four"))
	xs := []VecVirtual{YMM(), YMM()}
	for u, x := range xs {
		VMOVDQU(Mem{Base: src, Index: i, Scale: 8, Disp: 32 * u}, x)
	}
	for u, x := range xs {
		VMOVDQU(hashYMM(x, c), Mem{Base: dst, Index: i, Scale: 8, Disp: 32 * u})
	}
	ADDQ(U8(8), i)
	JMP(LabelRef("hash2_loop"))

	Comment("Then four.")
	Label("hash2_four")
	CMPQ(i, n)
	JAE(LabelRef("hash2_done"))
	x := YMM()
	VMOVDQU(Mem{Base: src, Index: i, Scale: 8}, x)
	VMOVDQU(hashYMM(x, c), Mem{Base: dst, Index: i, Scale: 8})
	Label("hash2_done")
	VZEROUPPER()
	RET()
}

type hashAVX2Regs struct {
	folded, prime, primeHi, eight, rotl56 VecVirtual
}

// hashYMM emits the hash of the four keys in x and returns the register
// holding the four hashes.
func hashYMM(x VecVirtual, c hashAVX2Regs) VecVirtual {
	h, t := YMM(), YMM()
	VPSHUFD(U8(0xb1), x, h) // rotl 32
	VPSHUFB(c.rotl56, x, t)
	VPXOR(t, h, h)
	VPSLLQ(U8(17), x, t) // rotl 17
	VPXOR(t, h, h)
	VPSRLQ(U8(47), x, t)
	VPXOR(t, h, h)
	VPXOR(c.folded, h, h)
	mulPrime(h, c)
	VPSRLQ(U8(35), h, t)
	VPADDQ(c.eight, t, t)
	VPXOR(t, h, h)
	mulPrime(h, c)
	VPSRLQ(U8(28), h, t)
	VPXOR(t, h, h)
	return h
}

// mulPrime emits h *= prime (mod 2^64) with three VPMULUDQ.
func mulPrime(h VecVirtual, c hashAVX2Regs) {
	lo, hi, cross := YMM(), YMM(), YMM()
	VPMULUDQ(c.prime, h, lo)      // lo(h)*lo(p)
	VPMULUDQ(c.primeHi, h, cross) // lo(h)*hi(p)
	VPSRLQ(U8(32), h, hi)         //
	VPMULUDQ(c.prime, hi, hi)     // hi(h)*lo(p)
	VPADDQ(cross, hi, hi)
	VPSLLQ(U8(32), hi, hi)
	VPADDQ(lo, hi, h)
}

// strAVX2 holds the AVX2 kernel's tables; each constant is four copies, so
// that it is a ymm memory operand.
type strAVX2 struct {
	consts Mem
	keys   Mem
}

func (s *strAVX2) c(i int) Mem { return s.consts.Offset(32 * i) }

// key returns the secret word at byte offset off, four copies.
func (s *strAVX2) key(off int) Mem { return s.keys.Offset(4 * off) }

// mulConst sets h *= the constant at c (mod 2^64) with three VPMULUDQ; hiC
// holds the constant shifted right 32.
func (s *strAVX2) mulConst(h Register, c, hiC Mem) {
	lo, hi, cross := YMM(), YMM(), YMM()
	VPMULUDQ(c, h, lo)
	VPMULUDQ(hiC, h, cross)
	VPSRLQ(U8(32), h, hi)
	VPMULUDQ(c, hi, hi)
	VPADDQ(cross, hi, hi)
	VPSLLQ(U8(32), hi, hi)
	VPADDQ(lo, hi, h)
}

func (s *strAVX2) mulFold(a, b Register) Register {
	ah, bh := YMM(), YMM()
	VPSRLQ(U8(32), a, ah)
	VPSRLQ(U8(32), b, bh)
	ll, hl, lh, hh := YMM(), YMM(), YMM(), YMM()
	VPMULUDQ(b, a, ll)
	VPMULUDQ(b, ah, hl)
	VPMULUDQ(bh, a, lh)
	VPMULUDQ(bh, ah, hh)
	cross, t := YMM(), YMM()
	VPSRLQ(U8(32), ll, cross)
	VPAND(s.c(scLow32), hl, t)
	VPADDQ(t, cross, cross)
	VPADDQ(lh, cross, cross)
	VPSRLQ(U8(32), hl, hl)
	VPADDQ(hl, hh, hh)
	VPSRLQ(U8(32), cross, t)
	VPADDQ(t, hh, hh)
	VPSLLQ(U8(32), cross, cross)
	VPAND(s.c(scLow32), ll, ll)
	VPXOR(ll, hh, hh)
	VPXOR(cross, hh, hh)
	return hh
}

func (s *strAVX2) avalanche(h Register) {
	t := YMM()
	VPSRLQ(U8(37), h, t)
	VPXOR(t, h, h)
	s.mulConst(h, s.c(scAval), s.c(scAvalHi))
	VPSRLQ(U8(32), h, t)
	VPXOR(t, h, h)
}

func hashStrsAVX2() {
	words := append(strConstWords[:], xxhAvalMul>>32, xxhPrime>>32, xxhPrime64_1>>32)
	s := &strAVX2{
		consts: qwordTable("strConstsAVX2", quad(words)),
		keys:   qwordTable("strSecretAVX2", quad(xxhKey[:])),
	}
	bswap := qwordTable("strBswapAVX2", bswapIndexes(4))
	L := lanes256

	var k *strKernel
	var ylo, yhi VecVirtual
	chk := strCheck{
		setup: func(lo, hi int) {
			ylo, yhi = YMM(), YMM()
			t := GP64()
			MOVQ(U32(lo), t)
			MOVQ(t, ylo.AsX())
			VPBROADCASTQ(ylo.AsX(), ylo)
			MOVQ(U32(hi), t)
			MOVQ(t, yhi.AsX())
			VPBROADCASTQ(yhi.AsX(), yhi)
		},
		check: func(kp GPVirtual, out LabelRef) Register {
			a := L.load(func(x VecVirtual) (*ir.Instruction, error) { return x86.VMOVDQU(Mem{Base: kp}, x.AsX()) })
			VINSERTI128(U8(1), Mem{Base: kp, Disp: 32}, a.AsY(), a.AsY())
			b := L.load(func(x VecVirtual) (*ir.Instruction, error) { return x86.VMOVDQU(Mem{Base: kp, Disp: 16}, x.AsX()) })
			VINSERTI128(U8(1), Mem{Base: kp, Disp: 48}, b.AsY(), b.AsY())
			VPUNPCKHQDQ(b.AsY(), a.AsY(), a.AsY()) // the lengths of headers 0, 1, 2, 3
			t, u := YMM(), YMM()
			VPCMPGTQ(yhi, a.AsY(), t) // longer than hi
			VPCMPGTQ(a.AsY(), ylo, u) // shorter than lo: lo-1 > length
			VPOR(u, t, t)
			VPTEST(t, t)
			JNZ(out)
			return a.AsY()
		},
	}
	kernel := func(class int, body func() Register) {
		name := "hashStr" + classNames[class] + "AVX2"
		b := classBounds[class]
		strKernelFunc(name, 4, classDoc(name, 4, class), chk, b[0], b[1], func(kk *strKernel) Register {
			k = kk
			return body()
		})
	}
	lens := func() Register { return k.lens }

	kernel(0, func() Register {
		Comment("4-8 bytes.")
		x := L.halfWords(k.kp)
		s.hash4(x, lens())
		return x
	})

	kernel(1, func() Register {
		Comment("9-16 bytes.")
		lo, hi := L.words(k.kp, front(0), back(8))
		return s.hash9(lo, hi, lens(), bswap)
	})

	for rounds := range 4 {
		kernel(2+rounds, func() Register {
			Comment("17-128 bytes.")
			acc, hi, l := YMM(), YMM(), lens()
			VPMULUDQ(s.c(scP1), l, acc)
			VPMULUDQ(s.c(scP1Hi), l, hi)
			VPSLLQ(U8(32), hi, hi)
			VPADDQ(hi, acc, acc)
			for r := 0; r <= rounds; r++ {
				v := L.pairs(k.kp, front(16*r), back(16*(r+1)))
				for side := 0; side < 2; side++ {
					a, b := v[2*side], v[2*side+1]
					VPXOR(s.key(32*r+16*side), a, a)
					VPXOR(s.key(32*r+16*side+8), b, b)
					VPADDQ(s.mulFold(a, b), acc, acc)
				}
			}
			s.avalanche(acc)
			return acc
		})
	}
	mixKernelAVX2(s, bswap)
}

// hash4 sets x, each lane's last four bytes | its first four <<32, to XXH3's
// hash of a key of 4 to 8 bytes whose length is in lens.
func (s *strAVX2) hash4(x, lens Register) {
	VPXOR(s.c(scKey4), x, x)
	a, b := YMM(), YMM()
	VPSLLQ(U8(49), x, a)
	VPSRLQ(U8(15), x, b)
	VPXOR(a, b, b)
	VPSLLQ(U8(24), x, a)
	VPXOR(a, b, b)
	VPSRLQ(U8(40), x, a)
	VPXOR(a, b, b)
	VPXOR(b, x, x)
	s.mulConst(x, s.c(scPrime), s.c(scPrimeHi))
	VPSRLQ(U8(35), x, a)
	VPADDQ(lens, a, a)
	VPXOR(a, x, x)
	s.mulConst(x, s.c(scPrime), s.c(scPrimeHi))
	VPSRLQ(U8(28), x, a)
	VPXOR(a, x, x)
}

// hash9 returns XXH3's hash of keys of 9 to 16 bytes whose first and last
// eight bytes are lo and hi (both overwritten) and whose lengths are lens.
func (s *strAVX2) hash9(lo, hi, lens Register, bswap Mem) Register {
	VPXOR(s.c(scKeyLo), lo, lo)
	VPXOR(s.c(scKeyHi), hi, hi)
	f := s.mulFold(lo, hi)
	VPSHUFB(bswap, lo, lo)
	VPADDQ(lo, f, f)
	VPADDQ(hi, f, f)
	VPADDQ(lens, f, f)
	s.avalanche(f)
	return f
}
