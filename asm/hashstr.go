package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The string kernels hash a batch of strings or byte slices with XXH3-64
// (seed 0), one key per 64-bit lane. They take the keys' headers: a pointer
// and a length at the start of each, stride bytes apart (16 for strings, 24
// for slices), and gather each lane's pointer and length from them.
//
// XXH3 reads a key of up to 128 bytes only at offsets its length fixes: 4-8
// bytes, the first and last 4; 9-16, the first and last 8; 17-128, 16-byte
// pairs from both ends, one more pair from each end per 32 bytes. Every lane
// gathers those words from its own key under a mask that holds only the lanes
// of that length class, so no lane reads outside its key and a class no lane
// of a group has costs one branch. Empty keys hash to a constant. The kernels
// leave keys of 1-3 bytes (whose bytes no gather reaches without reading past
// them) and keys of more than 128 bytes to the caller, and return non-zero
// when a batch held any.

// The words of XXH3's default secret at byte offsets 0, 8, ..., 120 (the
// specification's kSecret), which keys of up to 128 bytes use.
var xxhKey = [16]uint64{
	0xbe4ba423396cfeb8, 0x1cad21f72c81017c, 0xdb979083e96dd4de, 0x1f67b3b7a4a44072,
	0x78e5c0cc4ee679cb, 0x2172ffcc7dd05a82, 0x8e2443f7744608b8, 0x4c263a81e69035e0,
	0xcb00c391bb52283c, 0xa32e531b8b65d088, 0x4ef90da297486471, 0xd8acdea946ef1938,
	0x3f349ce33f76faa8, 0x1d4f0bc7c7bbdcf9, 0x3159b4cd4be0518a, 0x647378d9c97e9fc8,
}

const (
	xxhPrime64_1  = 0x9e3779b185ebca87
	xxhAvalMul    = 0x165667919e3779f9 // XXH3's avalanche multiplier
	xxhEmpty      = 0x2d06800538d394c2 // XXH3-64 of no bytes
	strKey4to8    = 0x1cad21f72c81017c ^ 0xdb979083e96dd4de
	strKey9to16lo = 0x1f67b3b7a4a44072 ^ 0x78e5c0cc4ee679cb
	strKey9to16hi = 0x2172ffcc7dd05a82 ^ 0x8e2443f7744608b8
	strLow32      = 0xffffffff
)

// strConsts are the scalar constants of both kernels, at these indexes.
const (
	scEmpty = iota
	scKey4
	scKeyLo
	scKeyHi
	scPrime
	scAval
	scP1
	scLow32
	scThree
	scEight
	scSixteen
	scMax // 128
	scThirtyTwo
	scSixtyFour
	scNinetySix
	scZero
	scCount
)

var strConstWords = [scCount]uint64{
	xxhEmpty, strKey4to8, strKey9to16lo, strKey9to16hi, xxhPrime, xxhAvalMul, xxhPrime64_1,
	strLow32, 3, 8, 16, 128, 32, 64, 96, 0,
}

// bswapIndexes is the VPSHUFB table reversing the bytes of each qword of a
// 32-byte lane (repeated for zmm).
func bswapIndexes(n int) []uint64 {
	ws := make([]uint64, n)
	for q := range ws {
		for j := 0; j < 8; j++ {
			ws[q] |= uint64(8*(q%2)+7-j) << (8 * j)
		}
	}
	return ws
}

func stringKernels() {
	hashStringsAVX512()
	hashStringsAVX2()
}

// strAVX512 holds the AVX-512 kernel's registers and tables.
type strAVX512 struct {
	consts, keys Mem
	zero         GPVirtual // base register of the gathers: lane addresses are whole pointers
}

func (s *strAVX512) c(i int) Mem { return s.consts.Offset(8 * i) }

// gather returns the qwords at idx+disp of the lanes in k (zero elsewhere).
func (s *strAVX512) gather(idx VecVirtual, disp int, k OpmaskVirtual) VecVirtual {
	x, kt := ZMM(), K()
	KMOVB(k, kt) // the gather clears its mask
	VPXORQ(x, x, x)
	VPGATHERQQ(Mem{Base: s.zero, Index: idx, Scale: 1, Disp: disp}, kt, x)
	return x
}

// gather32 returns the dwords at idx+disp of the lanes in k, zero-extended.
func (s *strAVX512) gather32(idx VecVirtual, disp int, k OpmaskVirtual) VecVirtual {
	y, kt := YMM(), K()
	KMOVB(k, kt)
	VPXORD(y, y, y)
	VPGATHERQD(Mem{Base: s.zero, Index: idx, Scale: 1, Disp: disp}, kt, y)
	x := ZMM()
	VPMOVZXDQ(y, x)
	return x
}

// mulFold returns, per lane, the high and low halves of the 128-bit product
// a*b XORed: four 32x32->64 VPMULUDQ.
func (s *strAVX512) mulFold(a, b VecVirtual) VecVirtual {
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

// avalanche applies XXH3's avalanche to h in place.
func (s *strAVX512) avalanche(h VecVirtual) {
	t := ZMM()
	VPSRLQ(U8(37), h, t)
	VPXORQ(t, h, h)
	VPMULLQ_BCST(s.c(scAval), h, h)
	VPSRLQ(U8(32), h, t)
	VPXORQ(t, h, h)
}

func hashStringsAVX512() {
	s := &strAVX512{
		consts: qwordTable("strConsts", strConstWords[:]),
		keys:   qwordTable("strSecret", xxhKey[:]),
	}
	bswap := qwordTable("strBswap", bswapIndexes(8))
	laneIdx := qwordTable("strLanes", []uint64{0, 1, 2, 3, 4, 5, 6, 7})
	tails := GLOBL("strTailMasks", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(i, U8(1<<i-1))
	}

	TEXT("hashStringsAVX512", NOSPLIT, "func(dst []uint64, keys *string, stride uintptr) int")
	Pragma("noescape")
	Doc("hashStringsAVX512 sets dst[i] to the XXH3-64 hash of the i-th key, for the",
		"len(dst) keys whose headers (a pointer, then a length) start at keys,",
		"stride bytes apart, eight keys per zmm register. It leaves dst[i] of keys",
		"of 1 to 3 bytes and of more than 128 bytes to the caller, and returns",
		"non-zero when there were such keys. It uses AVX-512 F and DQ.")
	dst := Load(Param("dst").Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	kp := Load(Param("keys"), GP64())
	stride := Load(Param("stride"), GP64())
	s.zero = GP64()
	XORQ(s.zero, s.zero)
	left := GP64()
	XORQ(left, left)
	evens := qwordTable("strEvens", []uint64{0, 2, 4, 6, 8, 10, 12, 14})
	odds := qwordTable("strOdds", []uint64{1, 3, 5, 7, 9, 11, 13, 15})
	lanes := ZMM()
	VPBROADCASTQ(stride, lanes)
	VPMULLQ(laneIdx, lanes, lanes) // the header offsets of the eight lanes
	SHLQ(U8(3), stride)            // bytes of headers per group
	i := GP64()
	XORQ(i, i)

	Label("str_loop")
	CMPQ(i, n)
	JAE(LabelRef("str_done"))
	kv := K()
	rest := GP64()
	MOVQ(n, rest)
	SUBQ(i, rest)
	CMPQ(rest, U8(8))
	JAE(LabelRef("str_full"))
	tbl := GP64()
	LEAQ(tails, tbl)
	KMOVB(Mem{Base: tbl, Index: rest, Scale: 1}, kv)
	JMP(LabelRef("str_group"))
	Label("str_full")
	KXNORB(kv, kv, kv)
	ptrs, lens := ZMM(), ZMM()
	CMPQ(stride, U8(8*16))
	JNE(LabelRef("str_group"))
	Comment("Eight string headers: two loads, split into pointers and lengths.")
	VMOVDQU64(Mem{Base: kp}, ptrs)
	VMOVDQU64(Mem{Base: kp, Disp: 64}, lens)
	ie, io := ZMM(), ZMM()
	VMOVDQU64(evens, ie)
	VMOVDQU64(odds, io)
	VPERMI2Q(lens, ptrs, ie) // qwords 0, 2, ..., 14 of the two
	VPERMI2Q(lens, ptrs, io)
	VMOVDQA64(ie, ptrs)
	VMOVDQA64(io, lens)
	JMP(LabelRef("str_headers"))

	Label("str_group")
	kt := K()
	KMOVB(kv, kt)
	VPXORQ(ptrs, ptrs, ptrs)
	VPGATHERQQ(Mem{Base: kp, Index: lanes, Scale: 1}, kt, ptrs)
	KMOVB(kv, kt)
	VPXORQ(lens, lens, lens)
	VPGATHERQQ(Mem{Base: kp, Index: lanes, Scale: 1, Disp: 8}, kt, lens)
	Label("str_headers")
	end := ZMM()
	VPADDQ(lens, ptrs, end)

	Comment("Length classes, within the batch: 0, 1-3, 4-8, 9-16, 17-128, longer.")
	nz, gt3, gt8, gt16, gt128 := K(), K(), K(), K(), K()
	VPCMPUQ_BCST(U8(4), s.c(scZero), lens, kv, nz)   // predicate 4: not equal
	VPCMPUQ_BCST(U8(6), s.c(scThree), lens, kv, gt3) // predicate 6: greater
	VPCMPUQ_BCST(U8(6), s.c(scMax), lens, kv, gt128)
	KANDNB(nz, gt3, nz) // 1-3 bytes
	KORB(gt128, nz, nz)
	t := GP32()
	KMOVB(nz, t)
	ORL(t, left.As32())
	VPCMPUQ_BCST(U8(6), s.c(scEight), lens, kv, gt8)
	c48 := gt3
	KANDNB(gt3, gt8, c48) // gt3 &^ gt8
	VPCMPUQ_BCST(U8(6), s.c(scSixteen), lens, kv, gt16)
	c916 := gt8
	KANDNB(gt8, gt16, c916)
	c17 := gt16
	KANDNB(gt16, gt128, c17)
	res := ZMM()
	VPBROADCASTQ(s.c(scEmpty), res)

	Comment("4-8 bytes: rrmxmx of the first and last four bytes.")
	KTESTB(c48, c48)
	JZ(LabelRef("str_no4"))
	{
		x := s.gather32(ptrs, 0, c48)
		y := s.gather32(end, -4, c48)
		VPSLLQ(U8(32), x, x)
		VPTERNLOGQ_BCST(U8(0x96), s.c(scKey4), y, x) // first<<32 | last, XOR the key (the halves do not overlap)
		a, b := ZMM(), ZMM()
		VPROLQ(U8(49), x, a)
		VPROLQ(U8(24), x, b)
		VPTERNLOGQ(U8(0x96), b, a, x)
		VPMULLQ_BCST(s.c(scPrime), x, x)
		VPSRLQ(U8(35), x, a)
		VPADDQ(lens, a, a)
		VPXORQ(a, x, x)
		VPMULLQ_BCST(s.c(scPrime), x, x)
		VPSRLQ(U8(28), x, a)
		VPXORQ(a, x, x)
		VMOVDQA64(x, c48, res)
	}
	Label("str_no4")

	Comment("9-16 bytes: the first and last eight, folded with one 64x64->128 multiply.")
	KTESTB(c916, c916)
	JZ(LabelRef("str_no9"))
	{
		lo := s.gather(ptrs, 0, c916)
		hi := s.gather(end, -8, c916)
		VPXORQ_BCST(s.c(scKeyLo), lo, lo)
		VPXORQ_BCST(s.c(scKeyHi), hi, hi)
		f := s.mulFold(lo, hi)
		VPSHUFB(bswap, lo, lo)
		VPADDQ(lo, f, f)
		VPADDQ(hi, f, f)
		VPADDQ(lens, f, f)
		s.avalanche(f)
		VMOVDQA64(f, c916, res)
	}
	Label("str_no9")

	Comment("17-128 bytes: one pair of 16-byte words from each end per 32 bytes.")
	KTESTB(c17, c17)
	JZ(LabelRef("str_store"))
	{
		acc := ZMM()
		VPMULLQ_BCST(s.c(scP1), lens, acc)
		m, above32 := c17, K()
		above := []int{0, scThirtyTwo, scSixtyFour, scNinetySix}
		for r := 0; r < 4; r++ {
			if r > 0 {
				m = above32
				VPCMPUQ_BCST(U8(6), s.c(above[r]), lens, c17, m)
				KTESTB(m, m)
				JZ(LabelRef("str_fold17"))
			}
			for side := 0; side < 2; side++ {
				base, disp := ptrs, 16*r
				if side == 1 {
					base, disp = end, -16*(r+1)
				}
				a := s.gather(base, disp, m)
				b := s.gather(base, disp+8, m)
				VPXORQ_BCST(s.keys.Offset(32*r+16*side), a, a)
				VPXORQ_BCST(s.keys.Offset(32*r+16*side+8), b, b)
				VPADDQ(s.mulFold(a, b), acc, m, acc)
			}
		}
		Label("str_fold17")
		s.avalanche(acc)
		VMOVDQA64(acc, c17, res)
	}

	Label("str_store")
	VMOVDQU64(res, kv, Mem{Base: dst, Index: i, Scale: 8})
	ADDQ(U8(8), i)
	ADDQ(stride, kp)
	JMP(LabelRef("str_loop"))

	Label("str_done")
	Store(left, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// AVX2 has no mask registers, 64-bit multiplies or rotates: the class masks
// are vectors of all-ones lanes (which the gathers take as their masks), the
// multiplies are built from VPMULUDQ and the rotates from shifts. Four keys
// per ymm; the caller hashes the last 0 to 3.

// strAVX2 holds the AVX2 kernel's tables; each constant is four copies, so
// that it is a ymm memory operand.
type strAVX2 struct {
	consts Mem
	keys   Mem
	zero   GPVirtual
}

func (s *strAVX2) c(i int) Mem { return s.consts.Offset(32 * i) }

// key returns the secret word at byte offset off, four copies.
func (s *strAVX2) key(off int) Mem { return s.keys.Offset(4 * off) }

func (s *strAVX2) gather(idx VecVirtual, disp int, m VecVirtual) VecVirtual {
	x, mt := YMM(), YMM()
	VMOVDQA(m, mt) // the gather clears its mask
	VPXOR(x, x, x)
	VPGATHERQQ(mt, Mem{Base: s.zero, Index: idx, Scale: 1, Disp: disp}, x)
	return x
}

// gather32 takes m32, the mask narrowed to four dwords.
func (s *strAVX2) gather32(idx VecVirtual, disp int, m32 VecVirtual) VecVirtual {
	x, mt := XMM(), XMM()
	VMOVDQA(m32, mt)
	VPXOR(x, x, x)
	VPGATHERQD(mt, Mem{Base: s.zero, Index: idx, Scale: 1, Disp: disp}, x)
	y := YMM()
	VPMOVZXDQ(x, y)
	return y
}

// mulConst sets h *= the constant at c (mod 2^64) with three VPMULUDQ; hiC
// holds the constant shifted right 32.
func (s *strAVX2) mulConst(h VecVirtual, c, hiC Mem) {
	lo, hi, cross := YMM(), YMM(), YMM()
	VPMULUDQ(c, h, lo)
	VPMULUDQ(hiC, h, cross)
	VPSRLQ(U8(32), h, hi)
	VPMULUDQ(c, hi, hi)
	VPADDQ(cross, hi, hi)
	VPSLLQ(U8(32), hi, hi)
	VPADDQ(lo, hi, h)
}

func (s *strAVX2) mulFold(a, b VecVirtual) VecVirtual {
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

func (s *strAVX2) avalanche(h VecVirtual) {
	t := YMM()
	VPSRLQ(U8(37), h, t)
	VPXOR(t, h, h)
	s.mulConst(h, s.c(scAval), s.c(scAvalHi))
	VPSRLQ(U8(32), h, t)
	VPXOR(t, h, h)
}

// Extra AVX2 constants, after the shared ones.
const (
	scAvalHi = scCount + iota
	scPrimeHi
	scP1Hi
	scCountAVX2
)

// quad repeats each word four times.
func quad(ws []uint64) []uint64 {
	var out []uint64
	for _, w := range ws {
		out = append(out, w, w, w, w)
	}
	return out
}

func hashStringsAVX2() {
	words := append(strConstWords[:], xxhAvalMul>>32, xxhPrime>>32, xxhPrime64_1>>32)
	s := &strAVX2{
		consts: qwordTable("strConstsAVX2", quad(words)),
		keys:   qwordTable("strSecretAVX2", quad(xxhKey[:])),
	}
	bswap := qwordTable("strBswapAVX2", bswapIndexes(4))
	laneIdx := qwordTable("strLanesAVX2", []uint64{0, 1, 2, 3})

	TEXT("hashStringsAVX2", NOSPLIT, "func(dst []uint64, keys *string, stride uintptr) int")
	Pragma("noescape")
	Doc("hashStringsAVX2 is hashStringsAVX512 with four keys per ymm register;",
		"len(dst) must be a multiple of 4.")
	dst := Load(Param("dst").Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	kp := Load(Param("keys"), GP64())
	stride := Load(Param("stride"), GP64())
	s.zero = GP64()
	XORQ(s.zero, s.zero)
	left := GP64()
	XORQ(left, left)
	lanes := YMM()
	MOVQ(stride, lanes.AsX())
	VPBROADCASTQ(lanes.AsX(), lanes)
	VPMULUDQ(laneIdx, lanes, lanes)
	SHLQ(U8(2), stride)
	i := GP64()
	XORQ(i, i)

	Label("str2_loop")
	CMPQ(i, n)
	JAE(LabelRef("str2_done"))
	all := YMM()
	VPCMPEQQ(all, all, all)
	ptrs := YMM()
	mt := YMM()
	VMOVDQA(all, mt)
	VPXOR(ptrs, ptrs, ptrs)
	VPGATHERQQ(mt, Mem{Base: kp, Index: lanes, Scale: 1}, ptrs)
	lens := YMM()
	VPXOR(lens, lens, lens)
	VPGATHERQQ(all, Mem{Base: kp, Index: lanes, Scale: 1, Disp: 8}, lens)
	end := YMM()
	VPADDQ(lens, ptrs, end)

	Comment("Length classes: 0, 1-3, 4-8, 9-16, 17-128, longer.")
	gt3, gt8, gt16, gt128 := YMM(), YMM(), YMM(), YMM()
	VPCMPGTQ(s.c(scThree), lens, gt3)
	VPCMPGTQ(s.c(scEight), lens, gt8)
	VPCMPGTQ(s.c(scSixteen), lens, gt16)
	VPCMPGTQ(s.c(scMax), lens, gt128)
	nz := YMM()
	VPCMPGTQ(s.c(scZero), lens, nz)
	VPANDN(nz, gt3, nz) // 1-3 bytes
	VPOR(gt128, nz, nz)
	t := GP32()
	VMOVMSKPD(nz, t)
	ORL(t, left.As32())
	c48, c916, c17 := gt3, gt8, gt16
	VPANDN(gt3, gt8, c48) // gt3 &^ gt8
	VPANDN(gt8, gt16, c916)
	VPANDN(gt16, gt128, c17)
	res := YMM()
	VPBROADCASTQ(s.c(scEmpty), res)

	Comment("4-8 bytes.")
	VPTEST(c48, c48)
	JZ(LabelRef("str2_no4"))
	{
		m32, hx := XMM(), XMM()
		VEXTRACTI128(U8(1), c48, hx)
		VSHUFPS(U8(0x88), hx, c48.AsX(), m32)
		x := s.gather32(ptrs, 0, m32)
		y := s.gather32(end, -4, m32)
		VPSLLQ(U8(32), x, x)
		VPXOR(y, x, x)
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
		VPBLENDVB(c48, x, res, res)
	}
	Label("str2_no4")

	Comment("9-16 bytes.")
	VPTEST(c916, c916)
	JZ(LabelRef("str2_no9"))
	{
		lo := s.gather(ptrs, 0, c916)
		hi := s.gather(end, -8, c916)
		VPXOR(s.c(scKeyLo), lo, lo)
		VPXOR(s.c(scKeyHi), hi, hi)
		f := s.mulFold(lo, hi)
		VPSHUFB(bswap, lo, lo)
		VPADDQ(lo, f, f)
		VPADDQ(hi, f, f)
		VPADDQ(lens, f, f)
		s.avalanche(f)
		VPBLENDVB(c916, f, res, res)
	}
	Label("str2_no9")

	Comment("17-128 bytes.")
	VPTEST(c17, c17)
	JZ(LabelRef("str2_store"))
	{
		acc, hi := YMM(), YMM()
		VPMULUDQ(s.c(scP1), lens, acc)
		VPMULUDQ(s.c(scP1Hi), lens, hi)
		VPSLLQ(U8(32), hi, hi)
		VPADDQ(hi, acc, acc)
		m := c17
		above := []int{0, scThirtyTwo, scSixtyFour, scNinetySix}
		for r := 0; r < 4; r++ {
			if r > 0 {
				m = YMM()
				VPCMPGTQ(s.c(above[r]), lens, m)
				VPAND(c17, m, m)
				VPTEST(m, m)
				JZ(LabelRef("str2_fold17"))
			}
			for side := 0; side < 2; side++ {
				base, disp := ptrs, 16*r
				if side == 1 {
					base, disp = end, -16*(r+1)
				}
				a := s.gather(base, disp, m)
				b := s.gather(base, disp+8, m)
				VPXOR(s.key(32*r+16*side), a, a)
				VPXOR(s.key(32*r+16*side+8), b, b)
				f := s.mulFold(a, b)
				VPAND(m, f, f)
				VPADDQ(f, acc, acc)
			}
		}
		Label("str2_fold17")
		s.avalanche(acc)
		VPBLENDVB(c17, acc, res, res)
	}

	Label("str2_store")
	VMOVDQU(res, Mem{Base: dst, Index: i, Scale: 8})
	ADDQ(U8(4), i)
	ADDQ(stride, kp)
	JMP(LabelRef("str2_loop"))

	Label("str2_done")
	Store(left, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
