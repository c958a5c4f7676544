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
