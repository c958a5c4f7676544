package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The cuckoo filter's batch lookups (package cuckoo) for fingerprints of at
// most 16 bits run a software pipeline over groups of keys (ckPipe): in one
// iteration, stage 0 hashes a group a few groups ahead (its fingerprints
// and the byte offsets of its two buckets), stage 1 loads the buckets of a
// group nearer, and stage 2 decodes and compares the current group. Each stage's loads wait on nothing computed in the same
// iteration, so the out-of-order core overlaps the groups' latencies.
//
// The stages hand the byte offsets (to the scalar loads of stage 1) and a
// semi-sorted bucket's code (to the scalar nibble loads of stage 2) through
// rings of slots on the stack, stored an iteration or more before they are
// loaded; the AVX-512 kernels keep everything else in registers (delay).
// The rings fit the frame of a NOSPLIT function: a stack check would need
// the goroutine's TLS, which -dynlink builds cannot link. On Zen 4 the kernels
// are bound by their loads (three a cycle, two of them vector): four a key
// for the bucket words and the nibbles, two for the byte offsets, half a
// key for the codes (stored as words, four to a load).
//
// The keys of a group sit in the 64-bit lanes of a vector:
//
//   - fingerprint fp = max(h & fpMask, 1), first bucket i1 = (h>>32)*nb>>32,
//     and i2 = (H(fp) - i1) mod nb with H(fp) = (fp*altMix>>32)*nb>>32; the
//     mod adds nb to a negative difference;
//   - each bucket's bit offset i*bucketBits gives the byte offset of the 8
//     bytes that hold it (loadWords: scalar loads, which beat VPGATHERQQ on
//     Zen 4, PERF.md) and a shift of 0 or 4 that puts the bucket at bit 0;
//   - the bucket becomes the four 16-bit lanes of its qword as in the Go code
//     (cuckoo.Filter.lanes16), compared with fp in every lane.
func cuckooKernels() {
	cuckooHas(true)
	cuckooHas(false)
	cuckooHas2(true)
	cuckooHas2(false)
}

// delay is a chain of registers that carries a value from the iteration
// that computes it to a later one: in is written, out read, and shift
// moves each register to the next at the end of an iteration (vector
// register moves are renames on Zen 4).
type delay struct{ regs []VecVirtual }

func newDelay(iterations int, mk func() VecVirtual) *delay {
	d := &delay{}
	for range iterations + 1 {
		d.regs = append(d.regs, mk())
	}
	return d
}

func (d *delay) in() VecVirtual  { return d.regs[0] }
func (d *delay) out() VecVirtual { return d.regs[len(d.regs)-1] }
func (d *delay) shift(mov func(a, b Op)) {
	for i := len(d.regs) - 1; i > 0; i-- {
		mov(d.regs[i-1], d.regs[i])
	}
}

// ckPipe is one kernel's pipeline: groups of keys keys; stage 0 runs ahead0
// groups ahead of stage 1, which runs ahead1 ahead of stage 2 (0: stage 2
// loads the buckets itself, and load is nil). The stages' rings have ringN
// slots (a power of two above the groups in flight), indexed by a register
// holding the slot number times unit (a power of two), so that a ring of
// slots of unit<<s bytes is addressed with scale 1<<s.
//
// arith reads the group's hashes at h and fills its slots; load loads the
// slots' buckets and stores what stage 2 needs; finish compares, stores the
// answers at out and adds them to the count; shift moves the kernel's
// delays at the end of an iteration.
type ckPipe struct {
	keys           int
	ahead0, ahead1 int
	ringN, unit    int
	arith          func(h Mem, slot Register)
	load           func(slot Register)
	finish         func(slot Register, out Mem)
	shift          func()
}

// cuckooLoop emits the pipeline over the n keys at hs, n a multiple of
// st.keys: the first groups' stages 0 and 1, then the main loop while
// every stage has a group, then the last groups' stages 1 and 2.
func cuckooLoop(name string, hs, n, out Register, st ckPipe) {
	k := st.keys
	mask := U32(st.unit*st.ringN - 1)
	g := GP64() // the first key of stage 2's group
	XORQ(g, g)
	sg := GP64() // its slot number times unit
	XORQ(sg, sg)
	// slot returns the slot register of the group d groups after g's.
	slot := func(d int) Register {
		if d == 0 {
			return sg
		}
		t := GP64()
		LEAQ(Mem{Base: sg, Disp: d * st.unit}, t)
		ANDQ(mask, t)
		return t
	}
	keys := func(d int) Mem { return Mem{Base: hs, Index: g, Scale: 8, Disp: 8 * k * d} }
	// ifGroup emits body if the group d groups after g's exists.
	ifGroup := func(d int, label string, body func()) {
		t := GP64()
		LEAQ(Mem{Base: g, Disp: d * k}, t)
		CMPQ(t, n)
		JAE(LabelRef(label))
		body()
		Label(label)
	}
	load := func(d int) {
		if st.load != nil {
			st.load(slot(d))
		}
	}
	next := func() {
		st.shift()
		ADDQ(U8(k), g)
		ADDQ(U32(st.unit), sg)
		ANDQ(mask, sg)
	}
	a0, a1 := st.ahead0, st.ahead1
	Comment("Fill the pipeline.")
	for d := range a0 + a1 {
		ifGroup(d, fmt.Sprintf("%s_fill%d", name, d), func() { st.arith(keys(d), slot(d)) })
		if d >= a0 && st.load != nil {
			d1 := d - a0
			ifGroup(d1, fmt.Sprintf("%s_load%d", name, d1), func() { load(d1) })
		}
		st.shift()
	}
	Comment("Every stage has a group.")
	full := GP64() // keys whose group is followed by a0+a1 more
	MOVQ(n, full)
	SUBQ(U8(k*(a0+a1)), full)
	JB(LabelRef(name + "_drain"))
	Label(name + "_loop")
	CMPQ(g, full)
	JAE(LabelRef(name + "_drain"))
	st.arith(keys(a0+a1), slot(a0+a1))
	load(a1)
	st.finish(sg, Mem{Base: out, Index: g, Scale: 1})
	next()
	JMP(LabelRef(name + "_loop"))
	Comment("The last groups: stages 1 and 2.")
	Label(name + "_drain")
	CMPQ(g, n)
	JAE(LabelRef(name + "_done"))
	if st.load != nil {
		ifGroup(a1, name+"_drain_s1", func() { load(a1) })
	}
	st.finish(sg, Mem{Base: out, Index: g, Scale: 1})
	next()
	JMP(LabelRef(name + "_drain"))
	Label(name + "_done")
}

// The AVX-512 kernels' signature and the indexes of the words of their
// parameter block (cuckoo/dispatch_amd64.go, cuckooParams).
const cuckooSig = "func(data *byte, params *[12]uint64, tab *[4096]uint16, hs []uint64, out []bool) int"

const (
	cpNB         = iota
	cpBucketBits // bits per bucket
	cpFPMask
	cpLowMask   // a slot's bits below its nibble (plain: all its bits) in each 16-bit lane
	cpNibMask   // the nibble's bits above them in each lane (semi-sorted)
	cpCtrl      // VPMULTISHIFTQB control: lane j takes the 16 bits at slot j's low bits
	cpSpread    // VPMULLD multiplier: nibbles a, b of a dword's low byte to its 16-bit halves
	cpAltMix    // the multiplier of H(fp)
	cpLanes16Lo // 1 in each 16-bit lane
	cpCodeMask  // 2^12 - 1
	cpSeven
	cpOne
)

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
	name := "cuckooHasPlainAVX512"
	layout := "plain"
	if semi {
		name, layout = "cuckooHasSemiAVX512", "semi-sorted"
	}
	TEXT(name, NOSPLIT, cuckooSig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to whether either bucket of hs[i] holds its", name),
		fmt.Sprintf("fingerprint, in a %s table of fingerprints of at most 16 bits, and", layout),
		"returns how many do. len(hs) must be a multiple of 8, len(out) = len(hs),",
		"nb < 2^31 and params as cuckooParams makes it. It uses BMI2 (PEXTL, PDEPQ),",
		"POPCNT and AVX-512 VBMI (VPMULTISHIFTQB) besides AVX-512 F, DQ and BW.")
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
	nbV, bbV, fmV, lowV := bc(cpNB), bc(cpBucketBits), bc(cpFPMask), bc(cpLowMask)
	ctlV, altV, loV, sevenV, oneV := bc(cpCtrl), bc(cpAltMix), bc(cpLanes16Lo), bc(cpSeven), bc(cpOne)
	var nibV, mulV, codeV VecVirtual
	var bx [4]Register // BEXTRQ controls: 16 bits from bit 16j
	if semi {
		nibV, mulV, codeV = bc(cpNibMask), bc(cpSpread), bc(cpCodeMask)
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

// The AVX2 batch lookups (cuckooHasSemiAVX2, cuckooHasPlainAVX2) follow the
// layout of the earlier AVX-512 ones four keys a group in the 64-bit lanes
// of a ymm register, in Y0–Y15 and VEX encodings only. Their parameter
// block holds each word of cuckooParams16 broadcast to 32 bytes
// (cuckooParams2), so that every
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

// Rows of the AVX2 parameter block (cuckooParams2): the words of
// cuckooParams16, then altMix >> 32 and 1.
const (
	c2NB = iota
	c2BucketBits
	c2FPMask
	c2Lane0
	c2Lane1
	c2Lane2
	c2Lane3
	c2Shift1
	c2Shift2
	c2Shift3
	c2Rest
	c2CodeShift
	c2AltMix
	c2Lanes16Lo
	c2CodeMask
	c2Four
	c2AltHi // altMix >> 32
	c2One   // 1
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
		VPAND(p(c2FPMask), h, fp)
		VPMAXUD(p(c2One), fp, fp) // a fingerprint of 0 is stored as 1
		i1 := YMM()
		VPSRLQ(U8(32), h, i1)
		VPMULUDQ(p(c2NB), i1, i1)
		VPSRLQ(U8(32), i1, i1)
		lo, hf := YMM(), YMM()
		VPMULUDQ(p(c2AltMix), fp, lo)
		VPMULUDQ(p(c2AltHi), fp, hf)
		VPSRLQ(U8(32), lo, lo)
		VPADDQ(lo, hf, hf)
		VPMULUDQ(p(c2NB), hf, hf)
		VPSRLQ(U8(32), hf, hf)
		d, neg := YMM(), YMM()
		VPSUBQ(i1, hf, d)
		VPSRAD(U8(31), d, neg)
		VPAND(p(c2NB), neg, neg)
		i2 := YMM()
		VPADDQ(neg, d, i2)
		fpb = YMM()
		VPSHUFLW(U8(0), fp, fpb) // fp in each 16-bit lane
		VPSHUFHW(U8(0), fpb, fpb)
		for b, i := range [2]VecVirtual{i1, i2} {
			off := YMM()
			VPMULUDQ(p(c2BucketBits), i, off)
			idx := YMM()
			VPSRLQ(U8(3), off, idx)
			shift[b] = YMM()
			VPAND(p(c2Four), off, shift[b])
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
			VPAND(p(c2CodeMask), w, code)
			nib := loadNibbles2(tab, code, nibBuf.Offset(32*b))
			VPMOVZXBW(nib, lanes)
			VPSLLW(p(c2Rest), lanes, lanes)
			VPSRLQ(U8(12), w, w)
			t := YMM()
			VPAND(p(c2Lane0), w, t)
			VPOR(t, lanes, lanes)
		} else {
			VPAND(p(c2Lane0), w, lanes)
		}
		for j := 1; j < 4; j++ {
			t := YMM()
			VPSLLQ(p(c2Shift1+j-1), w, t)
			VPAND(p(c2Lane0+j), t, t)
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
