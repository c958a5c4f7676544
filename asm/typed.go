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
// The kernel reads the key's kind from the Filter[K] and, for 64-bit integer
// keys, hashes the key (HashUint64) and jumps to blocked's one-key kernel
// with the engine and the hash in place of its own two arguments; string
// keys jump to hasString/addString and every other kind (and the zero
// Filter) to hasSlow/addSlow, Go functions with the same signature. The
// jumps are tail calls: the caller sees one call. PERF.md has the
// measurements. bloom's typed.go checks the layout and the kind values.

// Filter[K]{f *blocked.Filter; kind keyKind} and the keyKind values.
const (
	offEngine  = 0
	offKind    = 8
	kindString = 1
	kindInt64  = 6
	kindUint64 = 10
)

// blockedSym names a function of package blocked for the assembler.
func blockedSym(name string) string {
	return "github·com∕simdbloom∕bloom∕blocked·" + name + "(SB)"
}

func typedKernels() {
	typedOne("hasTyped", " bool", "filterHasOne", "hasString", "hasSlow", false)
	typedOne("addTyped", "", "filterAddOne", "addString", "addSlow", true)
}

// typedOne emits one typed kernel. needBlocks sends a word key of a Filter
// whose engine has no blocks to slow (the add kernel needs blocks; the
// lookup kernel answers false for k = 0 without reading them).
func typedOne(name, result, kernel, str, slow string, needBlocks bool) {
	TEXT(name, NOSPLIT, "func(f *[2]uint64, p *uint64)"+result)
	Pragma("noescape")
	Doc(name+" runs "+kernel+" on HashUint64(*p) and the engine of the *Filter[K] f",
		"when K is a 64-bit integer kind, else tail-calls "+str+" (strings) or "+slow+".")
	f := Load(Param("f"), GP64())
	kind := GP32()
	MOVBLZX(Mem{Base: f, Disp: offKind}, kind)
	CMPL(kind, U8(kindUint64))
	JEQ(LabelRef("word"))
	CMPL(kind, U8(kindInt64))
	JEQ(LabelRef("word"))
	CMPL(kind, U8(kindString))
	JEQ(LabelRef("str"))
	tailCall("·" + slow + "(SB)")
	Label("str")
	tailCall("·" + str + "(SB)")

	Label("word")
	e := GP64()
	MOVQ(Mem{Base: f, Disp: offEngine}, e)
	if needBlocks {
		CMPQ(Mem{Base: e, Disp: offNblocks}, U8(0))
		JEQ(LabelRef("slow"))
	}
	p := Load(Param("p"), GP64())
	h := GP64()
	MOVQ(Mem{Base: p}, h)
	hashWord(h)
	Store(e, Param("f"))
	Store(h, Param("p"))
	tailCall(blockedSym(kernel))
	if needBlocks {
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

// hashWord sets h to HashUint64(h): XXH3's 8-byte path (see hash.go).
func hashWord(h GPVirtual) {
	ROLQ(U8(32), h)
	s := GP64()
	MOVQ(U64(0x1cad21f72c81017c^0xdb979083e96dd4de), s)
	XORQ(s, h)
	a, b := GP64(), GP64()
	MOVQ(h, a)
	MOVQ(h, b)
	ROLQ(U8(49), a)
	ROLQ(U8(24), b)
	XORQ(a, h)
	XORQ(b, h)
	prime := GP64()
	MOVQ(U64(0x9fb21c651e98df25), prime)
	IMULQ(prime, h)
	MOVQ(h, a)
	SHRQ(U8(35), a)
	ADDQ(U8(8), a)
	XORQ(a, h)
	IMULQ(prime, h)
	MOVQ(h, a)
	SHRQ(U8(28), a)
	XORQ(a, h)
}
