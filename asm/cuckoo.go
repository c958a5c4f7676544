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
// group nearer, and stage 2 decodes and compares the current group. Each
// stage's loads wait on nothing computed in the same iteration, so the
// out-of-order core overlaps the groups' latencies.
//
// The stages hand the byte offsets (to the scalar loads of stage 1) and a
// semi-sorted bucket's code (to the scalar nibble loads of stage 2) through
// rings of slots on the stack, stored an iteration or more before they are
// loaded; the AVX-512 kernels keep everything else in registers (delay).
// The rings fit the frame of a NOSPLIT function: a stack check would need
// the goroutine's TLS, which -dynlink builds cannot link. On Zen 4 the
// kernels are bound by their loads (three a cycle, two of them vector):
// four a key for the bucket words and the nibbles, two for the byte
// offsets, half a key for the codes (stored as words, four to a load).
//
// The keys of a group sit in the 64-bit lanes of a vector:
//
//   - fingerprint fp = max(h & fpMask, 1), first bucket i1 = (h>>32)*nb>>32,
//     and i2 = (H(fp) - i1) mod nb with H(fp) = (fp*altMix>>32)*nb>>32; the
//     mod adds nb to a negative difference;
//   - each bucket's bit offset i*bucketBits gives the byte offset of the 8
//     bytes that hold it (loadWords: scalar loads, which beat VPGATHERQQ on
//     Zen 4, PERF.md) and a shift of 0 or 4 that puts the bucket at a known
//     bit of the word;
//   - the bucket becomes the four 16-bit lanes of its qword as in the Go code
//     (cuckoo.Filter.lanes16), compared with fp in every lane.

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
// groups ahead of stage 1, which runs ahead1 (at least 1) ahead of stage 2.
// The stages' rings have ringN slots (a power of two above the groups in
// flight), indexed by a register holding the slot number times unit (a
// power of two), so that a ring of slots of unit<<s bytes is addressed with
// scale 1<<s.
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
	load := func(d int) { st.load(slot(d)) }
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
		if d >= a0 {
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
	ifGroup(a1, name+"_drain_s1", func() { load(a1) })
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
	name, layout := cuckooName(semi, "AVX512")
	TEXT(name, NOSPLIT, cuckooSig)
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

// The AVX2 kernels' signature and the rows of their parameter block
// (cuckoo/dispatch_amd64.go, cuckooParams2): each a value broadcast to 32
// bytes (c2FPShuf excepted), read as a memory operand or, for shift counts,
// its low qword.
const cuckooSig2 = "func(data *byte, params *[19][4]uint64, tab *[4096]uint16, hs []uint64, out []bool) int"

const (
	c2NB         = iota
	c2BucketBits // bits per bucket
	c2FPMask
	c2One
	c2AltMix   // altMix (VPMULUDQ reads its low half)
	c2AltHi    // altMix >> 32
	c2Four     // 4
	c2Seven    // 7
	c2Q        // P - 4: a bucket word's left shift is Q + 4 - (bit offset & 4)
	c2P        // P: the bucket's first bit in the shifted word (a shift count)
	c2CodeMask // 2^12 - 1
	c2ShiftA   // right shift that puts slots 0 and 1 in lanes 0 and 1
	c2ShiftB   // right shift that puts slots 2 and 3 in lanes 2 and 3
	c2LowMask  // the low bits' place in each lane: top of lanes 0, 2, bottom of 1, 3
	c2NibMask  // the nibble's place: bottom of lanes 0, 2, above the low bits in 1, 3
	c2Spread   // VPMULLD multiplier: nibbles a, b of a dword's low byte to its halves
	c2FPShuf   // VPSHUFB control: the low 16 bits of each qword to its four lanes
	c2RotL     // 16 - low bits (a shift count)
	c2RotR     // low bits (a shift count)
)

// cuckooHas2 emits cuckooHasSemiAVX2 or cuckooHasPlainAVX2: the pipeline of
// the AVX-512 kernels for four keys a group in the 64-bit lanes of a ymm
// register, in Y0–Y15 and VEX encodings only. Four keys a group rather
// than eight keep an iteration short enough for the out-of-order window to
// hold more groups, and the pipeline within sixteen registers and a NOSPLIT
// frame: stage 0 hands stage 1 the byte offsets and the words' shifts, and
// stage 2 fp's lane pattern, through rings; only the shifted bucket words
// stay in registers.
//
//   - Stage 0: H(fp)'s 64-bit product fp*altMix (fp < 2^16) from two
//     VPMULUDQs by the halves of altMix; the mod is the unsigned minimum of
//     d and d+nb in the low 32 bits (VPMINUD; |d| < nb < 2^31, so a negative
//     d is above 2^31 there), which is all the next VPMULUDQ reads. fp =
//     max(fp, 1) is VPMAXUD against 1, copied to the four lanes by VPSHUFB.
//   - Without VPMULTISHIFTQB the lanes are laid out differently: each
//     bucket word is shifted left (VPSLLVQ, P minus the bucket's 0 or 4)
//     so that the bucket starts at bit P, where two right shifts (VPSRLQ)
//     put slots 0 and 1 at the top of lane 0 and the bottom of lane 1, and
//     slots 2 and 3 at the top of lane 2 and the bottom of lane 3, joined by
//     VPBLENDW. The nibbles go below the low bits in lanes 0 and 2 and above
//     them in lanes 1 and 3 (one VPMULLD by 1 + 2^(12+rest)), so that lanes
//     1 and 3 hold fp and lanes 0 and 2 fp rotated left by 16 - rest, the
//     pattern stage 0 builds (VPSLLW, VPSRLW, VPBLENDW). P, the least that
//     keeps both shifts right shifts, always leaves the bucket in the word.
//   - The codes, (word >> P) & (2^12 - 1), are narrowed to words by two
//     VPACKUSDW and stored with one store: two loads of four codes.
//   - A group's matches (VPCMPEQW, VPOR) become one bit a key by VPCMPEQQ
//     against zero and VMOVMSKPD, and four bools by a multiplication that
//     moves bit k to byte k (0x204081 = 1 + 2^7 + 2^14 + 2^21, whose
//     products by a 4-bit value do not overlap); a second multiplication
//     sums the bools into the top byte for the count. No BMI2 or POPCNT.
func cuckooHas2(semi bool) {
	name, layout := cuckooName(semi, "AVX2")
	TEXT(name, NOSPLIT, cuckooSig2)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to whether either bucket of hs[i] holds its", name),
		fmt.Sprintf("fingerprint, in a %s table of fingerprints of at most 16 bits, and", layout),
		"returns how many do. len(hs) must be a multiple of 4, len(out) = len(hs),",
		"nb < 2^31 and params as cuckooParams2 makes it. It uses AVX2 only.")
	data, g, tab, hs, n, out := cuckooArgs(semi)
	p := func(i int) Mem { return Mem{Base: g, Disp: 32 * i} }
	reg := func(i int) VecVirtual {
		y := YMM()
		VMOVDQU(p(i), y)
		return y
	}
	nbV, lowV, shA, shB := reg(c2NB), reg(c2LowMask), reg(c2ShiftA), reg(c2ShiftB)
	var nibV, mulV VecVirtual
	if semi {
		nibV, mulV = reg(c2NibMask), reg(c2Spread)
	}
	count := GP64()
	XORQ(count, count)

	st := ckPipe{keys: 4, ahead0: 2, ahead1: 1, ringN: 4, unit: 32}
	// Rings, slots indexed by the slot register: bucket b's four byte
	// offsets at 32b and their left shifts at 64+32b (128 bytes a slot,
	// scale 4); fp's lane pattern (32 bytes, scale 1); the codes (32 bytes,
	// scale 1). The shifted words go from stage 1 to stage 2 in delays.
	offs, fpbs := AllocLocal(128*st.ringN), AllocLocal(32*st.ringN)
	var codes Mem
	if semi {
		codes = AllocLocal(32 * st.ringN)
	}
	var words [2]*delay
	for b := range 2 {
		words[b] = newDelay(st.ahead1, YMM)
	}
	st.arith = func(at Mem, sl Register) {
		h := YMM()
		VMOVDQU(at, h)
		fp := YMM()
		VPAND(p(c2FPMask), h, fp)
		VPMAXUD(p(c2One), fp, fp) // a fingerprint of 0 is stored as 1
		i1 := YMM()
		VPSRLQ(U8(32), h, i1)
		VPMULUDQ(nbV, i1, i1)
		VPSRLQ(U8(32), i1, i1)
		lo, hf := YMM(), YMM()
		VPMULUDQ(p(c2AltMix), fp, lo)
		VPMULUDQ(p(c2AltHi), fp, hf)
		VPSRLQ(U8(32), lo, lo)
		VPADDQ(lo, hf, hf)
		VPMULUDQ(nbV, hf, hf)
		VPSRLQ(U8(32), hf, hf)
		d, e, i2 := YMM(), YMM(), YMM()
		VPSUBQ(i1, hf, d)
		VPADDQ(nbV, d, e)
		VPMINUD(e, d, i2)
		fpb, rot, t := YMM(), YMM(), YMM()
		VPSHUFB(p(c2FPShuf), fp, fpb) // fp in each 16-bit lane
		VPSLLW(p(c2RotL), fpb, rot)
		VPSRLW(p(c2RotR), fpb, t)
		VPOR(t, rot, rot)
		VPBLENDW(U8(0x55), rot, fpb, fpb) // lanes 0 and 2 rotated
		VMOVDQU(fpb, fpbs.Idx(sl, 1))
		for b, i := range [2]VecVirtual{i1, i2} {
			bo := YMM()
			VPMULUDQ(p(c2BucketBits), i, bo)
			off := YMM()
			VPSRLQ(U8(3), bo, off)
			VMOVDQU(off, offs.Idx(sl, 4).Offset(32*b))
			VPANDN(p(c2Four), bo, bo) // 4 - the bucket's first bit in its word
			VPADDQ(p(c2Q), bo, bo)
			VMOVDQU(bo, offs.Idx(sl, 4).Offset(64+32*b))
		}
	}
	st.load = func(sl Register) {
		var c [2]VecVirtual
		for b := range 2 {
			w := loadWords2(data, offs.Idx(sl, 4).Offset(32*b))
			VPSLLVQ(offs.Idx(sl, 4).Offset(64+32*b), w, words[b].in()) // the bucket at bit P
			if semi {
				c[b] = YMM()
				VPSRLQ(p(c2P), words[b].in(), c[b])
				VPAND(p(c2CodeMask), c[b], c[b])
			}
		}
		if semi {
			// Dwords c0, 0, c1, 0 | c2, 0, c3, 0 of each bucket to the
			// words c0, c1, c0', c1' | c2, c3, c2', c3'.
			VPACKUSDW(c[1], c[0], c[0])
			VPACKUSDW(c[0], c[0], c[0])
			VMOVDQU(c[0], codes.Idx(sl, 1))
		}
	}
	st.finish = func(sl Register, o Mem) {
		var m [2]VecVirtual
		for b := range 2 {
			w, xa := words[b].out(), YMM()
			xb := YMM()
			VPSRLQ(shA.AsX(), w, xa)
			VPSRLQ(shB.AsX(), w, xb)
			VPBLENDW(U8(0xcc), xb, xa, xa) // slots 2 and 3 from xb
			VPAND(lowV, xa, xa)
			if semi {
				nd := loadNibbles2(tab, codes.Idx(sl, 1), b)
				VPMOVZXBD(nd.AsX(), nd) // the nibbles of key k: 0 and 1 in dword 2k, 2 and 3 in 2k+1
				VPMULLD(mulV, nd, nd)
				VPAND(nibV, nd, nd)
				VPOR(nd, xa, xa)
			}
			VPCMPEQW(fpbs.Idx(sl, 1), xa, xa)
			m[b] = xa
		}
		zero := YMM()
		VPXOR(zero, zero, zero)
		VPOR(m[1], m[0], m[0])
		VPCMPEQQ(zero, m[0], m[0]) // all ones where no lane matched
		bits, t := GP32(), GP32()
		VMOVMSKPD(m[0], bits)
		XORL(U8(15), bits)
		IMUL3L(U32(0x204081), bits, bits)
		ANDL(U32(0x01010101), bits)
		MOVL(bits, o)
		IMUL3L(U32(0x01010101), bits, t)
		SHRL(U8(24), t)
		ADDQ(t.As64(), count)
	}
	st.shift = func() {
		for b := range 2 {
			words[b].shift(func(a, b Op) { VMOVDQA(a, b) })
		}
	}
	cuckooLoop(name, hs, n, out, st)
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}

// loadWords2 returns the 8-byte words at data+idx[j] for the 4 offsets idx
// at at, in the lanes of a ymm register (VPBROADCASTQ or VMOVQ, VPINSRQ,
// VINSERTI128; the broadcast writes the whole register, see loadWords).
func loadWords2(data Register, at Mem) VecVirtual {
	y := YMM()
	var x [2]VecVirtual
	for q := range x {
		r0, r1 := GP64(), GP64()
		MOVQ(at.Offset(16*q), r0)
		MOVQ(at.Offset(16*q+8), r1)
		lo := Mem{Base: data, Index: r0, Scale: 1}
		if q == 0 {
			x[q] = y.AsX().(VecVirtual)
			VPBROADCASTQ(lo, y)
		} else {
			x[q] = XMM()
			VMOVQ(lo, x[q])
		}
		VPINSRQ(U8(1), Mem{Base: data, Index: r1, Scale: 1}, x[q], x[q])
	}
	VINSERTI128(U8(1), x[1], y, y)
	return y
}

// loadNibbles2 returns, in the low 8 bytes of a ymm register, the 16-bit
// entries of tab at the four codes of bucket b stored by cuckooHas2 at at
// (words 2b and 2b+1 of the qwords at 0 and 16), each loaded on its own.
func loadNibbles2(tab Register, at Mem, b int) VecVirtual {
	y := YMM()
	x := y.AsX().(VecVirtual)
	for q := range 2 {
		w := GP64()
		MOVQ(at.Offset(16*q), w)
		if b == 1 {
			SHRQ(U8(32), w)
		}
		for j := range 2 {
			r := GP64()
			if j == 0 {
				MOVWLZX(w.As16(), r.As32())
			} else {
				MOVL(w.As32(), r.As32())
				SHRL(U8(16), r.As32())
			}
			m := Mem{Base: tab, Index: r, Scale: 2}
			if q == 0 && j == 0 {
				VPBROADCASTW(m, y)
			} else {
				VPINSRW(U8(2*q+j), m, x, x)
			}
		}
	}
	return y
}

// cuckooName returns the name of the lookup kernel for suffix (the level)
// and the layout, and the layout's name for its doc comment.
func cuckooName(semi bool, suffix string) (name, layout string) {
	if semi {
		return "cuckooHasSemi" + suffix, "semi-sorted"
	}
	return "cuckooHasPlain" + suffix, "plain"
}

// cuckooArgs loads the arguments every lookup kernel takes, in this order:
// the table, the parameter block, the nibble table (semi-sorted only, else
// nil), the hashes' base and length and the answers' base.
func cuckooArgs(semi bool) (data, g, tab, hs, n, out Register) {
	data = Load(Param("data"), GP64())
	g = Load(Param("params"), GP64())
	if semi {
		tab = Load(Param("tab"), GP64())
	}
	hs = Load(Param("hs").Base(), GP64())
	n = Load(Param("hs").Len(), GP64())
	out = Load(Param("out").Base(), GP64())
	return
}
