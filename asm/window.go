package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// Window's one-key lookup (package bloom, window.go): whether a hash is in
// any of a Window's live generations, blocked.Filters of one geometry. The
// kernel makes the hash's bit indexes once and tests the hash's block of
// every live generation with them, without a branch per generation (a
// present key is in any one of them), so the generations' loads overlap; five calls
// of the one-key kernel would each make the indexes again and branch on
// their answers. As the typed kernels do, the entry point jumps to the AVX2
// version at the AVX2 and AVX-512 levels, and below them tail-calls
// hasGensGo, a Go function with the same signature.

// windowKernel emits hasGens: with v nil its entry point, else its version
// of level *v.
func windowKernel(v *vecISA) {
	name := "hasGens"
	how := "It jumps to hasGensAVX2 where cpu.Active is AVX2 or above, else tail-calls hasGensGo."
	if v != nil {
		name += v.name
		how = "It probes with " + v.name + " (cpu.Active at that level: hasGens jumps here)."
	}
	TEXT(name, NOSPLIT, "func(gens *uintptr, n int, live uint64, h uint64) bool")
	Pragma("noescape")
	Doc(name+" reports whether every bit of the hash h is set in at least one of the",
		"n filters at gens (*blocked.Filter pointers, 0 < n <= 64) whose bit is set in live,",
		"as their one-key lookups would; the filters have the same k (8 or 16) and at",
		"least one block each. "+how)
	if v == nil {
		CMPQ(activeLevel(), U8(levelAVX2))
		JB(LabelRef("slow"))
		tailCall("·hasGensAVX2(SB)")
		Label("slow")
		tailCall("·hasGensGo(SB)")
		return
	}
	gens, n, live, h := GP64(), GP64(), GP64(), GP64()
	Load(Param("gens"), gens)
	Load(Param("n"), n)
	Load(Param("live"), live)
	Load(Param("h"), h)
	e := GP64()
	MOVQ(Mem{Base: gens}, e)
	acc := GP8()
	XORB(acc, acc)
	i := GP64()
	XORQ(i, i)
	branchK(e, "k16")
	for _, k := range []int{8, 16} {
		if k == 16 {
			Label("k16")
		}
		idx := oneIndexes(*v, k, h)
		loop := fmt.Sprintf("loop%d", k)
		Label(loop)
		MOVQ(Mem{Base: gens, Index: i, Scale: 8}, e)
		all := shiftedAnd(*v, blockOf(e, h, 6, filterFields()), idx)
		VPTEST(tables.ones, all) // CF = every lane has bit 0 set
		t, l := GP8(), GP8()
		SETCS(t)
		BTQ(i, live) // CF = the generation is live
		SETCS(l)
		ANDB(l, t)
		ORB(t, acc)
		INCQ(i)
		CMPQ(i, n)
		JB(LabelRef(loop))
		MOVB(acc, retAddr())
		VZEROUPPER()
		RET()
	}
}
