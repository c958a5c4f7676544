package main

import (
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The root package hashes a 64-bit integer key x as XXH3-64 of its 8-byte
// little-endian encoding (bloom.HashUint64):
//
//	h := rotl(x, 32) ^ secret
//	h ^= rotl(h, 49) ^ rotl(h, 24)
//	h *= prime; h ^= h>>35 + 8
//	h *= prime; h ^= h>>28
//
// AVX-512 has 64-bit lane multiplies (VPMULLQ, DQ) and rotates (VPROLQ), so
// the kernel hashes eight keys per zmm. The first two lines become three
// independent rotates of x and one constant, since rotates distribute over
// XOR: h = rotl(x,32) ^ rotl(x,17) ^ rotl(x,56) ^ (s ^ rotl(s,49) ^ rotl(s,24)).
const (
	xxhSecret = 0x1cad21f72c81017c ^ 0xdb979083e96dd4de
	xxhPrime  = 0x9fb21c651e98df25
)

// hashUnroll is how many zmm registers of keys one loop iteration hashes.
const hashUnroll = 2

// xxhFolded is the constant of the folded first step.
var xxhFolded = uint64(xxhSecret) ^ bits.RotateLeft64(xxhSecret, 49) ^ bits.RotateLeft64(xxhSecret, 24)

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
