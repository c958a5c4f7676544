package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

// The mixed-length kernel, hashStrMixAVX2, hashes groups of four keys of any
// lengths: each lane takes its own class's formula, so that a batch of mixed
// lengths needs no sort by class. Per group it
//
//   - computes XXH3's 17-128-byte formula for every lane, running round r
//     (the 16-byte pairs at 16r from the start and 16(r+1) from the end) only
//     if some lane of the group is longer than 32r, and masking round r's
//     sum off in the lanes not longer than 32r;
//   - if some lane is of at most 16 bytes, computes the 4-8 and 9-16-byte
//     formulas for every lane too and blends each lane's own into the result;
//   - flags the lanes of fewer than 4 or more than 128 bytes, whose hashes it
//     leaves to the caller (a bit per lane, a byte per group).
//
// Every load stays inside its key: a lane whose key is too short for a load
// (a round past its end, an 8-byte word of a key of fewer than 8 bytes)
// loads from strZero instead, and that load's result is masked off or
// blended away. The addresses are computed four lanes at a time in a ymm
// (VPBLENDVB of the key's address and strZero's by a length compare), stored
// to the frame and loaded from there by each lane.

// loadX returns a new ymm register whose xmm view ins writes (see
// strLanes.load).
func loadX(ins func(x Op) (*ir.Instruction, error)) VecVirtual {
	return lanes256.load(func(x VecVirtual) (*ir.Instruction, error) { return ins(x.AsX()) })
}

// mixPrefetch is how many groups ahead hashStrMixAVX2 prefetches the
// keys' first and last bytes (keys scattered on the heap miss the caches).
const mixPrefetch = 8

func mixKernelAVX2(s *strAVX2, bswap Mem) {
	zero := qwordTable("strZero", make([]uint64, 8)) // 64 bytes: the last round's front load reads 48-63

	const name = "hashStrMixAVX2"
	TEXT(name, NOSPLIT, "func(dst []uint64, keys *string, flags *uint8)")
	Pragma("noescape")
	Doc(name+" sets dst[i] to the XXH3-64 hash of the i-th of the len(dst) keys",
		"whose string headers start at keys, whatever their lengths, 4 keys per",
		"register; len(dst) is a multiple of 4. Bit j of flags[g] is set if key 4g+j",
		"has fewer than 4 or more than 128 bytes: its dst is not its hash, and the",
		"caller hashes it. flags has len(dst)/4 bytes.")
	dst, cnt, kp, fp := GP64(), GP64(), GP64(), GP64()
	Load(Param("dst").Base(), dst)
	Load(Param("dst").Len(), cnt)
	Load(Param("keys"), kp)
	Load(Param("flags"), fp)
	z := GP64()
	LEAQ(zero, z)
	SHLQ(U8(3), cnt)
	ADDQ(dst, cnt) // the end of dst

	gt := func(l Register, c Mem) VecVirtual {
		m := YMM()
		VPCMPGTQ(c, l, m)
		return m
	}
	mask := func(m Register) GPVirtual {
		g := GP32()
		VMOVMSKPD(m, g)
		return g
	}
	var lens Register

	Label(name + "_loop")
	CMPQ(dst, cnt)
	JAE(LabelRef(name + "_done"))

	Comment(fmt.Sprintf("Prefetch the keys of the group %d ahead, if the batch has it.", mixPrefetch))
	{
		t := GP64()
		LEAQ(Mem{Base: dst, Disp: 32 * mixPrefetch}, t)
		CMPQ(t, cnt)
		JAE(LabelRef(name + "_lens"))
		prefetchKeys(kp, mixPrefetch, 4)
	}
	Label(name + "_lens")
	Comment("The group's lengths.")
	a := loadX(func(x Op) (*ir.Instruction, error) { return x86.VMOVDQU(Mem{Base: kp}, x) })
	VINSERTI128(U8(1), Mem{Base: kp, Disp: 32}, a.AsY(), a.AsY())
	b := loadX(func(x Op) (*ir.Instruction, error) { return x86.VMOVDQU(Mem{Base: kp, Disp: 16}, x) })
	VINSERTI128(U8(1), Mem{Base: kp, Disp: 48}, b.AsY(), b.AsY())
	lens = a.AsY()
	VPUNPCKHQDQ(b.AsY(), lens, lens)

	Comment("Lanes of fewer than 4 or more than 128 bytes are the caller's.")
	fl := mask(gt(lens, s.c(scThree)))
	XORL(U8(15), fl)
	ORL(mask(gt(lens, s.c(scMax))), fl)
	MOVB(fl.As8(), Mem{Base: fp})

	Comment("17-128 bytes: round r if a lane is longer than 32r.")
	acc, hi := YMM(), YMM()
	VPMULUDQ(s.c(scP1), lens, acc)
	VPMULUDQ(s.c(scP1Hi), lens, hi)
	VPSLLQ(U8(32), hi, hi)
	VPADDQ(hi, acc, acc)
	long := mask(gt(lens, s.c(scSixteen)))
	TESTL(long, long)
	JZ(LabelRef(name + "_short"))
	uses := []int{scSixteen, scThirtyTwo, scSixtyFour, scNinetySix}
	for r := range 4 {
		var live VecVirtual
		if r > 0 {
			live = gt(lens, s.c(uses[r]))
			m := mask(live)
			TESTL(m, m)
			JZ(LabelRef(name + "_aval"))
		}
		Comment(fmt.Sprintf("Round %d.", r))
		v := lanes256.pairsBy(2, func(j int) []Mem {
			base, off := safeAddr(kp, z, j, 16*(r+1))
			return []Mem{{Base: base, Disp: 16 * r}, {Base: base, Index: off, Scale: 1}}
		})
		var sum Register
		for side := range 2 {
			x, y := v[2*side], v[2*side+1]
			VPXOR(s.key(32*r+16*side), x, x)
			VPXOR(s.key(32*r+16*side+8), y, y)
			f := s.mulFold(x, y)
			if sum == nil {
				sum = f
			} else {
				VPADDQ(f, sum, sum)
			}
		}
		if r > 0 {
			VPAND(live, sum, sum)
		}
		VPADDQ(sum, acc, acc)
	}
	Label(name + "_aval")
	s.avalanche(acc)

	Label(name + "_short")
	CMPL(long, U8(15))
	JE(LabelRef(name + "_store"))
	Comment("Up to 16 bytes: the 4-8 and 9-16-byte formulas, blended in by length.")
	var los, his, halves []VecVirtual
	for j := range 4 {
		a8, o8 := safeAddr(kp, z, j, 8)
		a4, o4 := safeAddr(kp, z, j, 4)
		b8, b4 := Mem{Base: a8, Index: o8, Scale: 1}, Mem{Base: a4, Index: o4, Scale: 1}
		if j%2 == 0 {
			los = append(los, loadX(func(x Op) (*ir.Instruction, error) { return x86.VMOVQ(Mem{Base: a8}, x) }))
			his = append(his, loadX(func(x Op) (*ir.Instruction, error) { return x86.VMOVQ(b8, x) }))
			h := loadX(func(x Op) (*ir.Instruction, error) { return x86.VMOVD(b4, x) })
			VPINSRD(U8(1), Mem{Base: a4}, h.AsX(), h.AsX())
			halves = append(halves, h)
		} else {
			k := j / 2
			VPINSRQ(U8(1), Mem{Base: a8}, los[k].AsX(), los[k].AsX())
			VPINSRQ(U8(1), b8, his[k].AsX(), his[k].AsX())
			VPINSRD(U8(2), b4, halves[k].AsX(), halves[k].AsX())
			VPINSRD(U8(3), Mem{Base: a4}, halves[k].AsX(), halves[k].AsX())
		}
	}
	lo, hw, half := lanes256.widen(los), lanes256.widen(his), lanes256.widen(halves)
	h9 := s.hash9(lo, hw, lens, bswap)
	s.hash4(half, lens)
	VPBLENDVB(gt(lens, s.c(scEight)), h9, half, half)
	VPBLENDVB(gt(lens, s.c(scSixteen)), acc, half, acc)

	Label(name + "_store")
	VMOVDQU(acc, Mem{Base: dst})
	ADDQ(U8(32), dst)
	ADDQ(U8(64), kp)
	INCQ(fp)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// pairsBy is pairs with each lane's na addresses from addr(j), which may
// emit the scalar code computing them.
func (s *strLanes) pairsBy(na int, addr func(j int) []Mem) []Register {
	if s.w != 4 {
		panic(fmt.Sprint("pairsBy: width ", s.w))
	}
	var halves [2][]VecVirtual
	for h := range 2 {
		parts := make([]VecVirtual, na)
		for k := range 2 {
			for a, m := range addr(h + 2*k) {
				if k == 0 {
					parts[a] = s.load(func(x VecVirtual) (*ir.Instruction, error) { return s.movdqu(m, x.AsX()) })
				} else {
					VINSERTI128(U8(1), m, parts[a].AsY(), parts[a].AsY())
				}
			}
		}
		halves[h] = parts
	}
	var out []Register
	for a := range na {
		lo, hi := s.vec(), s.vec()
		VPUNPCKLQDQ(halves[1][a].AsY(), halves[0][a].AsY(), lo)
		VPUNPCKHQDQ(halves[1][a].AsY(), halves[0][a].AsY(), hi)
		out = append(out, lo, hi)
	}
	return out
}

// safeAddr returns, for lane j of the group whose headers are at kp, the
// address of its key and its length less k if the key has at least k bytes,
// and z and 0 otherwise: the loads of k bytes at base and at base+off stay
// inside the key or in strZero. (Selected with masks, not CMOV, which the
// kernel table does not know.)
func safeAddr(kp, z GPVirtual, j, k int) (base, off GPVirtual) {
	base, off = GP64(), GP64()
	v := GP64()
	MOVQ(Mem{Base: kp, Disp: 16*j + 8}, off)
	SUBQ(U8(k), off)
	MOVQ(off, v)
	NOTQ(v)
	SARQ(U8(63), v) // all ones if the key has at least k bytes
	ANDQ(v, off)
	MOVQ(Mem{Base: kp, Disp: 16 * j}, base)
	XORQ(z, base)
	ANDQ(v, base)
	XORQ(z, base)
	return base, off
}

// prefetchKeys prefetches the first and last bytes of the keys of the
// group of w whose headers are ahead groups after kp (which must exist).
func prefetchKeys(kp GPVirtual, ahead, w int) {
	for j := range w {
		p, n := GP64(), GP64()
		MOVQ(Mem{Base: kp, Disp: 16*w*ahead + 16*j}, p)
		MOVQ(Mem{Base: kp, Disp: 16*w*ahead + 16*j + 8}, n)
		PREFETCHT0(Mem{Base: p})
		PREFETCHT0(Mem{Base: p, Index: n, Scale: 1, Disp: -1})
	}
}
