package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
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
	if gensEntry(v, "hasGens", "func(gens *uintptr, n int, live uint64, h uint64) bool",
		"reports whether every bit of the hash h is set in at least one of the",
		"n filters at gens (*blocked.Filter pointers, 0 < n <= 64) whose bit is set in live,",
		"as their one-key lookups would; the filters have the same k (8 or 16) and the",
		"same number of blocks (at least one).") {
		return
	}
	gens, n, live, h := GP64(), GP64(), GP64(), GP64()
	Load(Param("gens"), gens)
	Load(Param("n"), n)
	Load(Param("live"), live)
	Load(Param("h"), h)
	e := GP64()
	MOVQ(Mem{Base: gens}, e)
	l := filterFields()
	off := GP64() // the block's offset, the same in every generation
	MOVQ(h, off)
	SHRQ(U8(32), off)
	IMULQ(Mem{Base: e, Disp: l.nblocks}, off)
	SHRQ(U8(32), off)
	SHLQ(U8(6), off)
	// found gets bit s when slot s has every bit: the slots are tested
	// from the last, each shifting found left with its CF (ADCQ), then
	// found AND live says whether a live one has.
	found := GP64()
	XORQ(found, found)
	i := GP64()
	MOVQ(n, i)
	DECQ(i)
	branchK(e, "k16")
	for _, k := range []int{8, 16} {
		if k == 16 {
			Label("k16")
		}
		idx := oneIndexes(*v, k, h)
		loop := fmt.Sprintf("loop%d", k)
		Label(loop)
		MOVQ(Mem{Base: gens, Index: i, Scale: 8}, e)
		MOVQ(Mem{Base: e, Disp: l.blocks}, e)
		all := shiftedAnd(*v, Mem{Base: e, Index: off, Scale: 1}, idx)
		VPTEST(tables.ones, all) // CF = every lane has bit 0 set
		ADCQ(found, found)
		DECQ(i)
		JGE(LabelRef(loop))
		acc := GP8()
		TESTQ(live, found)
		SETNE(acc)
		MOVB(acc, retAddr())
		VZEROUPPER()
		RET()
	}
}

// gensEntry starts the function base of signature sig, documented by doc
// (its lines, the name before the first): with v nil the entry point,
// which jumps to baseAVX2 where cpu.Active is AVX2 or above and else
// tail-calls baseGo, a Go function of the same signature, and then
// reports true (the function is complete); else the version of level *v,
// whose body the caller emits.
func gensEntry(v *vecISA, base, sig string, doc ...string) bool {
	name := base
	how := "It jumps to " + base + "AVX2 where cpu.Active is AVX2 or above, else tail-calls " + base + "Go."
	if v != nil {
		name += v.name
		how = "It probes with " + v.name + " (cpu.Active at that level: " + base + " jumps here)."
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	doc[0] = name + " " + doc[0]
	doc[len(doc)-1] += " " + how
	Doc(doc...)
	if v != nil {
		return false
	}
	CMPQ(activeLevel(), U8(levelAVX2))
	JB(LabelRef("slow"))
	tailCall("·" + base + "AVX2(SB)")
	Label("slow")
	tailCall("·" + base + "Go(SB)")
	return true
}

// windowAhead is how many keys ahead hasGensAll prefetches.
const windowAhead = 6

// windowBatchKernel emits hasGensAll, Window.HasAll's batch lookup: with v
// nil its entry point, else its version of level *v. Per hash it makes the
// bit indexes and the block offset once (the generations have one
// geometry) and tests that block in every generation it is given, without
// a branch per generation, so each key's loads overlap; the g+1 passes of
// the batch kernel, one per generation, made both again for each.
func windowBatchKernel(v *vecISA) {
	if gensEntry(v, "hasGensAll", "func(gens *uintptr, n int, hs []uint64, out []bool) int",
		"sets out[i] to whether every bit of hs[i] is set in at least one of the",
		"n filters at gens (*blocked.Filter pointers, n > 0) and returns how many are; the",
		"filters have the same k (8 or 16) and number of blocks (at least one), and out",
		"is at least as long as hs.") {
		return
	}
	gens, n := GP64(), GP64()
	Load(Param("gens"), gens)
	Load(Param("n"), n)
	hs := Load(Param("hs").Base(), GP64())
	cnt := Load(Param("hs").Len(), GP64())
	out := Load(Param("out").Base(), GP64())
	l := filterFields()
	e := GP64()
	MOVQ(Mem{Base: gens}, e)
	nb := GP64()
	MOVQ(Mem{Base: e, Disp: l.nblocks}, nb)
	count, i := GP64(), GP64()
	XORQ(count, count)
	XORQ(i, i)
	branchK(e, "k16")
	for _, k := range []int{8, 16} {
		if k == 16 {
			Label("k16")
		}
		salts := saltRegs(*v, k, tables)
		ones := v.reg()
		vmovdqu(*v, tables.ones, ones)
		done := fmt.Sprintf("done%d", k)
		// Keys up to cnt-ahead also prefetch the block of the key ahead
		// of them in every generation, in the same loop over generations.
		npf := GP64()
		MOVQ(cnt, npf)
		SUBQ(U8(windowAhead), npf)
		for _, prefetch := range []bool{true, false} {
			key, gen, end := fmt.Sprintf("key%d_%v", k, prefetch), fmt.Sprintf("gen%d_%v", k, prefetch), fmt.Sprintf("end%d_%v", k, prefetch)
			lim := cnt
			if prefetch {
				lim = npf
			}
			Label(key)
			CMPQ(i, lim)
			JGE(LabelRef(end))
			idx := bitIndexes(*v, broadcastX(*v, hs, i, 0), salts)
			off := blockOffset(Mem{Base: hs, Index: i, Scale: 8}, nb, 6)
			var offp Register
			if prefetch {
				offp = blockOffset(Mem{Base: hs, Index: i, Scale: 8, Disp: 8 * windowAhead}, nb, 6)
			}
			acc, j := GP64(), GP64()
			XORQ(acc, acc)
			XORQ(j, j)
			Label(gen)
			p := GP64()
			MOVQ(Mem{Base: gens, Index: j, Scale: 8}, p)
			MOVQ(Mem{Base: p, Disp: l.blocks}, p)
			if prefetch {
				PREFETCHT0(Mem{Base: p, Index: offp, Scale: 1})
			}
			all := shiftedAnd(*v, Mem{Base: p, Index: off, Scale: 1}, idx)
			VPTEST(ones, all) // CF = every lane has bit 0 set
			ADCQ(Imm(0), acc)
			INCQ(j)
			CMPQ(j, n)
			JB(LabelRef(gen))
			r := GP8()
			TESTQ(acc, acc)
			SETNE(r)
			MOVB(r, Mem{Base: out, Index: i, Scale: 1})
			r64 := GP64()
			MOVBQZX(r, r64)
			ADDQ(r64, count)
			INCQ(i)
			JMP(LabelRef(key))
			Label(end)
		}
		Label(done)
		VZEROUPPER()
		Store(count, ReturnIndex(0))
		RET()
	}
}
