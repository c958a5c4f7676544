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
// (hashStringsSIMD in hash.go) runs them on runs of keys of one class, the
// mixed-length kernel (hashmix.go) elsewhere, copies byte slices' headers
// into that form, and hashes the classes left to Go: empty keys, 1-3 bytes
// and more than 128. Each kernel prefetches the first and last bytes of the
// keys 32 ahead, which keys in their own allocations miss in the caches.
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

// AVX2 has no 64-bit multiplies, rotates or broadcast operands: the
// multiplies are built from VPMULUDQ, the rotates from shifts, and constants
// are tables of four copies. Four keys per ymm.

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
	ahead := 4 * mixPrefetch / w // groups: the same number of keys ahead at every width
	Comment(fmt.Sprintf("Prefetch the keys of the group %d ahead, if the batch has it.", ahead))
	t := GP64()
	LEAQ(Mem{Base: k.i, Disp: w * ahead}, t)
	CMPQ(t, k.n)
	JAE(LabelRef(name + "_check"))
	prefetchKeys(k.kp, ahead, w)
	Label(name + "_check")
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
