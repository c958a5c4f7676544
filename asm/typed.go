package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Typed one-key kernels (package bloom): Filter[K].Has and Add are each one
// call to hasTyped or addTyped, small enough for Go to inline into the
// caller whatever K is, so the generic method costs no Go frame of its own.
// The kernel reads the key's kind from the Filter[K], hashes the key as Hash
// does (integers widened to 64 bits, then HashUint64; strings and byte
// slices with the scalar XXH3 of typedstr.go, up to 240 bytes) and probes
// the engine's block itself, with the body of blocked's one-key kernels
// (single.go), so that the hash stays in a register. As there, the entry
// point (kernels_amd64.s) jumps to the AVX2 version (hasTypedAVX2 in
// kernels_avx2_amd64.s) at the AVX2 and AVX-512 levels, or runs the scalar
// one itself. Longer keys jump to
// hasString/addString and the zero Filter to hasSlow/addSlow, Go functions
// with the same signature; the jumps are tail calls, so the caller sees one
// call. PERF.md has the measurements. The layout of Filter[K] and
// blocked.Filter and the kind values come from their declarations
// (source.go).

// typedFields returns where the kernels find the fields of the typedFilter
// a bloom.Filter[K] holds: the engine (a *blocked.Filter) and the key's kind
// (a byte).
func typedFields() (l struct{ engine, kind int }) {
	off, size := offsetOf(modulePath, "typedFilter", "f")
	mustSize("bloom.typedFilter.f", size, 8)
	l.engine = off
	off, size = offsetOf(modulePath, "typedFilter", "kind")
	mustSize("bloom.typedFilter.kind", size, 1)
	l.kind = off
	return l
}

// kindOf returns the value of the root package's keyKind constant name.
func kindOf(name string) uint8 { return uint8(constInt(modulePath, name)) }

// typedKernels emits the typed kernels of level v, or with v nil the entry
// points and their scalar versions.
func typedKernels(v *vecISA) {
	tables = newFilterTables(false)
	g := typedGen{
		consts: qwordTable("typedConsts", typedConstWords[:]),
		secret: qwordTable("typedSecret", append(xxhKey[:], xxhKey128)),
	}
	g.kernel(v, "hasTyped", " bool", "hasString", "hasSlow", filterHasVecBody, filterHasScalarBody)
	g.kernel(v, "addTyped", "", "addString", "addSlow", filterAddVecBody, filterAddScalarBody)
	windowKernel(v) // in the same files, with the same tables
	windowBatchKernel(v)
}

// typedGen holds the typed kernels' tables.
type typedGen struct {
	consts Mem // typedConstWords
	secret Mem // XXH3's default secret, bytes 0-135
}

func (g typedGen) c(i int) Mem { return g.consts.Offset(8 * i) }

// narrowKinds are the integer kinds narrower than 64 bits, each with the
// load that widens it as bloom's intBits does (signed kinds sign-extended).
var narrowKinds = []struct {
	kind  string
	label string
	load  func(m Mem, h GPVirtual)
}{
	{"kindInt32", "int32", func(m Mem, h GPVirtual) { MOVLQSX(m, h) }},
	{"kindUint32", "uint32", func(m Mem, h GPVirtual) { MOVL(m, h.As32()) }},
	{"kindInt16", "int16", func(m Mem, h GPVirtual) { MOVWQSX(m, h) }},
	{"kindUint16", "uint16", func(m Mem, h GPVirtual) { MOVWLZX(m, h.As32()) }},
	{"kindInt8", "int8", func(m Mem, h GPVirtual) { MOVBQSX(m, h) }},
	{"kindUint8", "uint8", func(m Mem, h GPVirtual) { MOVBLZX(m, h.As32()) }},
}

// kernel emits one typed kernel, a lookup if it has a result, else an add:
// with v nil the entry point name, which jumps to the versions of the
// AVX-512 and AVX2 levels or probes with scalar, else the version of level
// *v, which probes with vec. The add sends a key of a Filter whose engine
// has no blocks to slow (the lookup answers false for k = 0 without reading
// them).
func (g typedGen) kernel(v *vecISA, name, result, str, slow string, vec func(v vecISA, k int, blk Mem, x GPVirtual), scalar func(k int, blk Mem, x GPVirtual)) {
	lookup := result != ""
	entry := name
	if v != nil {
		name += v.name
	}
	TEXT(name, NOSPLIT, "func(f *typedFilter, p *uint64)"+result)
	Pragma("noescape")
	does := "sets the bits of Hash(*p) in"
	if lookup {
		does = "reports whether every bit of Hash(*p) is set in"
	}
	how := "It jumps to " + entry + "AVX2 where cpu.Active is AVX2 or above, else probes with scalar code."
	if v != nil {
		how = "It probes with " + v.name + " (cpu.Active at that level: " + entry + " jumps here)."
	}
	Doc(name+" "+does+" the engine of f, the typedFilter of a Filter[K], p pointing to a key",
		"of type K, as the engine's one-key kernels do: it hashes integers and strings",
		"or byte slices of up to 240 bytes itself, and tail-calls "+str+" for longer",
		"keys and "+slow+" for the zero Filter. "+how)
	if v == nil {
		levelJumps(entry)
	}
	f, p := GP64(), GP64()
	Load(Param("f"), f)
	Load(Param("p"), p)
	kind := GP32()
	MOVBLZX(Mem{Base: f, Disp: typedFields().kind}, kind)
	h := GP64()
	// uint64 keys run straight through to the probe; the other kinds jump
	// back into the code laid out for them.
	CMPL(kind, U8(kindOf("kindUint64")))
	JNE(LabelRef("other"))
	Label("word")
	MOVQ(Mem{Base: p}, h)
	Label("mix")
	g.hashWord(h)

	Label("hashed")
	e := GP64()
	MOVQ(Mem{Base: f, Disp: typedFields().engine}, e)
	if !lookup {
		CMPQ(Mem{Base: e, Disp: filterFields().nblocks}, U8(0))
		JEQ(LabelRef("slow"))
	}
	blk := blockOf(e, h, 6, filterFields())
	if v != nil {
		filterOneBody(lookup, e, func(k int) { vec(*v, k, blk, h) })
	} else {
		filterOneBody(lookup, e, func(k int) { scalar(k, blk, h) })
	}

	Label("other")
	CMPL(kind, U8(kindOf("kindString")))
	JEQ(LabelRef("str"))
	CMPL(kind, U8(kindOf("kindInt64")))
	JEQ(LabelRef("word"))
	CMPL(kind, U8(kindOf("kindBytes")))
	JEQ(LabelRef("str"))
	for _, n := range narrowKinds {
		CMPL(kind, U8(kindOf(n.kind)))
		JEQ(LabelRef(n.label))
	}
	tailCall("·" + slow + "(SB)") // kindInvalid: the zero Filter
	for _, n := range narrowKinds {
		Label(n.label)
		n.load(Mem{Base: p}, h)
		JMP(LabelRef("mix"))
	}

	Label("str")
	g.hashString(p, h, "long", "hashed")
	Label("long")
	tailCall("·" + str + "(SB)")
	if !lookup {
		Label("slow")
		tailCall("·" + slow + "(SB)")
	}
}

// tailCall emits JMP sym, a jump to another function (avo's JMP only takes
// labels of the function being built): a terminal instruction, so avo's
// passes see no successor.
func tailCall(sym string) {
	Instruction(&ir.Instruction{Opcode: "JMP", Operands: []Op{LabelRef(sym)}, IsTerminal: true})
}

// hashWord sets h to HashUint64(h): XXH3's 4-8-byte path at length 8 (see
// hash.go), the halves of the key swapped. Its constants are immediates, as
// in Go's inlined HashUint64, not loads from typedConsts: the one-key loop
// is bound by its loads, and the three loads made Has 0.24 ns slower than
// HasHash(HashUint64(k)) (PERF.md, "Typed lookups").
func (g typedGen) hashWord(h GPVirtual) {
	s, m := GP64(), GP64()
	MOVQ(U64(typedConstWords[tcKey4]), s)
	ROLQ(U8(32), h)
	XORQ(s, h)
	MOVQ(U64(typedConstWords[tcRrmxmx]), m)
	g.rrmxmx(h, U8(8), m)
}

// rrmxmx applies XXH3's rrmxmx finalizer to h for a key of length n, with
// the multiplier mul (a register or typedConsts' word).
func (g typedGen) rrmxmx(h GPVirtual, n, mul Op) {
	a, b := GP64(), GP64()
	MOVQ(h, a)
	MOVQ(h, b)
	ROLQ(U8(49), a)
	ROLQ(U8(24), b)
	XORQ(a, h)
	XORQ(b, h)
	IMULQ(mul, h)
	MOVQ(h, a)
	SHRQ(U8(35), a)
	ADDQ(n, a)
	XORQ(a, h)
	IMULQ(mul, h)
	g.xorShift(h, 28)
}
