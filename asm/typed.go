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
// (single.go), so that the hash stays in a register. Longer keys jump to
// hasString/addString and the zero Filter to hasSlow/addSlow, Go functions
// with the same signature; the jumps are tail calls, so the caller sees one
// call. PERF.md has the measurements. bloom's typed_layout_amd64.go checks
// the layout of Filter[K] and the kind values; blocked/dispatch_amd64.go
// checks the offsets of blocked.Filter that the probe reads.

// Filter[K]{f *blocked.Filter; kind keyKind} and the keyKind values.
const (
	offEngine  = 0
	offKind    = 8
	kindString = 1
	kindBytes  = 2
	kindInt8   = 3
	kindInt16  = 4
	kindInt32  = 5
	kindInt64  = 6
	kindUint8  = 7
	kindUint16 = 8
	kindUint32 = 9
	kindUint64 = 10
)

func typedKernels() {
	tables = newFilterTables(false)
	g := typedGen{
		consts: qwordTable("typedConsts", typedConstWords[:]),
		secret: qwordTable("typedSecret", append(xxhKey[:], xxhKey128)),
	}
	g.kernel("hasTyped", " bool", "hasString", "hasSlow", filterHasVecBody, filterHasScalarBody)
	g.kernel("addTyped", "", "addString", "addSlow", filterAddVecBody, filterAddScalarBody)
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
	kind  int
	label string
	load  func(m Mem, h GPVirtual)
}{
	{kindInt32, "int32", func(m Mem, h GPVirtual) { MOVLQSX(m, h) }},
	{kindUint32, "uint32", func(m Mem, h GPVirtual) { MOVL(m, h.As32()) }},
	{kindInt16, "int16", func(m Mem, h GPVirtual) { MOVWQSX(m, h) }},
	{kindUint16, "uint16", func(m Mem, h GPVirtual) { MOVWLZX(m, h.As32()) }},
	{kindInt8, "int8", func(m Mem, h GPVirtual) { MOVBQSX(m, h) }},
	{kindUint8, "uint8", func(m Mem, h GPVirtual) { MOVBLZX(m, h.As32()) }},
}

// kernel emits one typed kernel, a lookup if it has a result, else an add,
// with the probe bodies vec and scalar of single.go. The add sends a key of
// a Filter whose engine has no blocks to slow (the lookup answers false for
// k = 0 without reading them).
func (g typedGen) kernel(name, result, str, slow string, vec func(v vecISA, k int, blk Mem, x GPVirtual), scalar func(k int, blk Mem, x GPVirtual)) {
	lookup := result != ""
	TEXT(name, NOSPLIT, "func(f *[2]uint64, p *uint64)"+result)
	Pragma("noescape")
	does := "sets the bits of Hash(*p) in"
	if lookup {
		does = "reports whether every bit of Hash(*p) is set in"
	}
	Doc(name+" "+does+" the engine of the *Filter[K] f, p pointing to a key",
		"of type K, as the engine's one-key kernels do: it hashes integers and strings",
		"or byte slices of up to 240 bytes itself, and tail-calls "+str+" for longer",
		"keys and "+slow+" for the zero Filter.")
	f, p := GP64(), GP64()
	Load(Param("f"), f)
	Load(Param("p"), p)
	kind := GP32()
	MOVBLZX(Mem{Base: f, Disp: offKind}, kind)
	h := GP64()
	// uint64 keys run straight through to the probe; the other kinds jump
	// back into the code laid out for them.
	CMPL(kind, U8(kindUint64))
	JNE(LabelRef("other"))
	Label("word")
	MOVQ(Mem{Base: p}, h)
	Label("mix")
	g.hashWord(h)

	Label("hashed")
	e := GP64()
	MOVQ(Mem{Base: f, Disp: offEngine}, e)
	if !lookup {
		CMPQ(Mem{Base: e, Disp: offNblocks}, U8(0))
		JEQ(LabelRef("slow"))
	}
	filterOneBody(lookup, blockOf(e, h, 6), h, e, vec, scalar)

	Label("other")
	CMPL(kind, U8(kindString))
	JEQ(LabelRef("str"))
	CMPL(kind, U8(kindInt64))
	JEQ(LabelRef("word"))
	CMPL(kind, U8(kindBytes))
	JEQ(LabelRef("str"))
	for _, n := range narrowKinds {
		CMPL(kind, U8(n.kind))
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
// hash.go), the halves of the key swapped.
func (g typedGen) hashWord(h GPVirtual) {
	ROLQ(U8(32), h)
	XORQ(g.c(tcKey4), h)
	g.rrmxmx(h, U8(8))
}

// rrmxmx applies XXH3's rrmxmx finalizer to h for a key of length n.
func (g typedGen) rrmxmx(h GPVirtual, n Op) {
	a, b := GP64(), GP64()
	MOVQ(h, a)
	MOVQ(h, b)
	ROLQ(U8(49), a)
	ROLQ(U8(24), b)
	XORQ(a, h)
	XORQ(b, h)
	IMULQ(g.c(tcRrmxmx), h)
	MOVQ(h, a)
	SHRQ(U8(35), a)
	ADDQ(n, a)
	XORQ(a, h)
	IMULQ(g.c(tcRrmxmx), h)
	g.xorShift(h, 28)
}
