package main

import (
	"fmt"
	"log"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

// The string kernels hash a batch of strings or byte slices of one XXH3
// length class with XXH3-64 (seed 0), one key per 64-bit lane. They take
// string headers (a pointer, then a length) 16 bytes apart; the caller
// (hashStrings in hash.go) sorts a batch's keys by class and copies the
// headers of other batches into that form, and hashes the classes left to Go:
// empty keys, 1-3 bytes and more than 128.
//
// XXH3 reads a key of up to 128 bytes only at offsets its length fixes: 4-8
// bytes, the first and last 4; 9-16, the first and last 8; 17-128, 16-byte
// pairs from both ends, one more pair from each end per 32 bytes. Each lane
// loads those words from its own key with scalar-addressed loads (an 8-byte
// MOVQ or 4-byte MOVD, or a 16-byte VMOVDQU for 17-128, whose pairs are
// adjacent and never run past a key of 17 bytes or more), and shuffles put
// them lane-major: the loads of lanes 0, 2, 4, 6 fill one register and those of
// 1, 3, 5, 7 another, so that VPUNPCKLQDQ and VPUNPCKHQDQ give the lanes in
// order. All lanes of a call are of one class, so no lane is masked.

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

// AVX2 has no 64-bit multiplies, rotates or broadcast operands: the
// multiplies are built from VPMULUDQ, the rotates from shifts, and constants
// are tables of four copies. Four keys per ymm.

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

// laneAddr returns the address of a lane's load from its key's pointer p and
// length l.
type laneAddr func(p, l GPPhysical) Mem

// front returns the address off bytes from a key's start.
func front(off int) laneAddr { return func(p, l GPPhysical) Mem { return Mem{Base: p, Disp: off} } }

// back returns the address off bytes before a key's end.
func back(off int) laneAddr {
	return func(p, l GPPhysical) Mem { return Mem{Base: p, Index: l, Scale: 1, Disp: -off} }
}

// loadHeader loads lane j's pointer and length from the headers at kp into
// R10 and R11, which hold them only until the next lane's.
func loadHeader(kp GPVirtual, j int) (p, l GPPhysical) {
	p, l = R10, R11
	MOVQ(Mem{Base: kp, Disp: 16 * j}, p)
	MOVQ(Mem{Base: kp, Disp: 16*j + 8}, l)
	return p, l
}

// strLanes describes a kernel's width and its EVEX or VEX instructions.
type strLanes struct {
	w      int
	vec    func() VecVirtual
	ins128 func(i, m, x, x1 Op) // VINSERTI64X2 or VINSERTI128
	movdqu func(m, x Op) (*ir.Instruction, error)
}

// load returns a new vector register whose xmm view the load ins (VMOVQ,
// VMOVD or a 16-byte move of avo's x86 package, into x's xmm view) writes.
// A VEX or EVEX write to an xmm register zeroes the rest of the register,
// but avo's liveness counts only the xmm part as written and would keep the
// rest live around the whole loop (and its allocator then fails or spends a
// register on it); so the instruction is emitted with the whole register as
// its output, and needs no zeroing VPXOR before it.
func (s *strLanes) load(ins func(x VecVirtual) (*ir.Instruction, error)) VecVirtual {
	x := s.vec()
	i, err := ins(x)
	if err != nil {
		log.Fatal(err)
	}
	i.Outputs = []Op{x}
	Instruction(i)
	return x
}

// pairs loads, for each lane, the 16 bytes at each of addrs and returns them
// lane-major: for each address the vector of first qwords, then of second.
// Even lanes fill one register and odd lanes another; VPUNPCKLQDQ and
// VPUNPCKHQDQ of the two give the lanes in order.
func (s *strLanes) pairs(kp GPVirtual, addrs ...laneAddr) []Register {
	var halves [2][]Register
	for h := range 2 {
		parts := make([][]VecVirtual, len(addrs)) // per address, one xmm per two lanes
		for k := 0; k < s.w/2; k++ {
			p, l := loadHeader(kp, h+2*k)
			for a, addr := range addrs {
				if k%2 == 0 {
					m := addr(p, l)
					x := s.load(func(x VecVirtual) (*ir.Instruction, error) { return s.movdqu(m, x.AsX()) })
					parts[a] = append(parts[a], x)
				} else {
					x := parts[a][k/2]
					s.ins128(U8(1), addr(p, l), x.AsY(), x.AsY())
				}
			}
		}
		for a := range addrs {
			halves[h] = append(halves[h], s.join(parts[a]))
		}
	}
	var out []Register
	for a := range addrs {
		lo, hi := s.vec(), s.vec()
		VPUNPCKLQDQ(halves[1][a], halves[0][a], lo)
		VPUNPCKHQDQ(halves[1][a], halves[0][a], hi)
		out = append(out, lo, hi)
	}
	return out
}

// join returns the ymm registers of ys (one for AVX2, two for AVX-512) as
// one vector.
func (s *strLanes) join(ys []VecVirtual) Register {
	if s.w == 4 {
		return ys[0].AsY()
	}
	VINSERTI64X4(U8(1), ys[1].AsY(), ys[0].AsZ(), ys[0].AsZ())
	return ys[0].AsZ()
}

// words loads, for each lane, the 8 bytes at lo and at hi and returns them
// as two vectors, lanes in order: lanes 2k and 2k+1 share an xmm.
func (s *strLanes) words(kp GPVirtual, lo, hi laneAddr) (Register, Register) {
	var los, his []VecVirtual
	for j := 0; j < s.w; j += 2 {
		p, l := loadHeader(kp, j)
		a := s.load(func(x VecVirtual) (*ir.Instruction, error) { return x86.VMOVQ(lo(p, l), x.AsX()) })
		b := s.load(func(x VecVirtual) (*ir.Instruction, error) { return x86.VMOVQ(hi(p, l), x.AsX()) })
		p, l = loadHeader(kp, j+1)
		VPINSRQ(U8(1), lo(p, l), a.AsX(), a.AsX())
		VPINSRQ(U8(1), hi(p, l), b.AsX(), b.AsX())
		los, his = append(los, a), append(his, b)
	}
	return s.widen(los), s.widen(his)
}

// halfWords loads, for each lane, the 4 bytes at its key's end-4 and start as
// one qword (last | first<<32), lanes in order.
func (s *strLanes) halfWords(kp GPVirtual) Register {
	var xs []VecVirtual
	last, first := back(4), front(0)
	for j := 0; j < s.w; j += 2 {
		p, l := loadHeader(kp, j)
		x := s.load(func(x VecVirtual) (*ir.Instruction, error) { return x86.VMOVD(last(p, l), x.AsX()) })
		VPINSRD(U8(1), first(p, l), x.AsX(), x.AsX())
		p, l = loadHeader(kp, j+1)
		VPINSRD(U8(2), last(p, l), x.AsX(), x.AsX())
		VPINSRD(U8(3), first(p, l), x.AsX(), x.AsX())
		xs = append(xs, x)
	}
	return s.widen(xs)
}

// widen puts the xmm registers xs (two lanes each) into one vector.
func (s *strLanes) widen(xs []VecVirtual) Register {
	var ys []VecVirtual
	for k := 0; k < len(xs); k += 2 {
		s.ins128(U8(1), xs[k+1].AsX(), xs[k].AsY(), xs[k].AsY())
		ys = append(ys, xs[k])
	}
	return s.join(ys)
}

var lanes512 = &strLanes{
	w: 8, vec: ZMM,
	ins128: func(i, m, x, x1 Op) { VINSERTI64X2(i, m, x, x1) },
	movdqu: func(m, x Op) (*ir.Instruction, error) { return x86.VMOVDQU64(m, x) },
}

var lanes256 = &strLanes{
	w: 4, vec: YMM,
	ins128: func(i, m, x, x1 Op) { VINSERTI128(i, m, x, x1) },
	movdqu: func(m, x Op) (*ir.Instruction, error) { return x86.VMOVDQU(m, x) },
}

// strKernel is one class's kernel: it loads the arguments and loops over
// the groups of w keys, storing each group's hashes.
type strKernel struct {
	dst, n, kp, i GPVirtual
	lens          Register // the group's key lengths
}

// strCheck is a level's class check: it returns the lengths of the group of
// w keys whose headers are at kp and jumps to out if one is outside
// [lo, hi]. setup runs once before the loop.
type strCheck struct {
	setup func(lo, hi int)
	check func(kp GPVirtual, out LabelRef) Register
}

// strKernelFunc emits the kernel name, whose body returns the hashes of the
// group of w keys whose headers are at k.kp. Before each group it checks
// the group's lengths against the class, [lo, hi]: the kernel returns how
// many keys it hashed, all of dst or the keys before the first group with a
// key of another class, so that the caller needs no pass over the lengths.
// (One function per class: avo's register allocator failed on one function
// holding every class's loop.)
func strKernelFunc(name string, w int, doc []string, chk strCheck, lo, hi int, body func(k *strKernel) Register) {
	TEXT(name, NOSPLIT, "func(dst []uint64, keys *string) int")
	Pragma("noescape")
	Doc(doc...)
	k := &strKernel{}
	k.dst, k.n, k.kp, k.i = GP64(), GP64(), GP64(), GP64()
	Load(Param("dst").Base(), k.dst)
	Load(Param("dst").Len(), k.n)
	Load(Param("keys"), k.kp)
	chk.setup(lo, hi)
	XORQ(k.i, k.i)
	Label(name + "_loop")
	CMPQ(k.i, k.n)
	JAE(LabelRef(name + "_done"))
	if w == 4 {
		Comment(fmt.Sprintf("Prefetch the keys of the group %d ahead, if the batch has it.", mixPrefetch))
		t := GP64()
		LEAQ(Mem{Base: k.i, Disp: 4 * mixPrefetch}, t)
		CMPQ(t, k.n)
		JAE(LabelRef(name + "_check"))
		prefetchKeys(k.kp, mixPrefetch)
		Label(name + "_check")
	}
	k.lens = chk.check(k.kp, LabelRef(name+"_done"))
	res := body(k)
	if w == 8 {
		VMOVDQU64(res, Mem{Base: k.dst, Index: k.i, Scale: 8})
	} else {
		VMOVDQU(res, Mem{Base: k.dst, Index: k.i, Scale: 8})
	}
	ADDQ(U8(w), k.i)
	ADDQ(U32(16*w), k.kp)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	Store(k.i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// classBounds are each class's shortest and longest key.
var classBounds = [][2]int{{4, 8}, {9, 16}, {17, 32}, {33, 64}, {65, 96}, {97, 128}}

// classNames are the kernels' name suffixes, one per class: 4-8, 9-16, then
// 17-32, 33-64, 65-96 and 97-128 bytes.
var classNames = []string{"4", "9", "17", "33", "65", "97"}

// classDoc documents the kernel of a class.
func classDoc(name string, w int, class int) []string {
	what := []string{"4 to 8", "9 to 16", "17 to 32", "33 to 64", "65 to 96", "97 to 128"}[class]
	return []string{
		fmt.Sprintf("%s sets dst[i] to the XXH3-64 hash of the i-th of the len(dst)", name),
		fmt.Sprintf("keys whose string headers start at keys, %d keys per register;", w),
		fmt.Sprintf("len(dst) is a multiple of %d. It returns how many keys it hashed: all, or", w),
		fmt.Sprintf("those before the first group of %d with a key not of %s bytes.", w, what),
	}
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
