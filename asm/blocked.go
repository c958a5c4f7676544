package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// blockedBase emits package blocked's kernels_amd64.s: the one-key entry
// points, each of which jumps to the version of cpu.Active's level
// (kernels_avx2_amd64.s, kernels_avx512_amd64.s) or runs its scalar version,
// which every amd64 processor has.
func blockedBase() {
	filterOneEntry("filterHasOne", " bool", "reports whether every bit of h is set in", filterHasScalarBody)
	filterOneEntry("filterAddOne", "", "sets the bits of h in", filterAddScalarBody)
	splitHasOneEntry()
	splitAddOneEntry()
	filterLookupEntry()
}

// filterOneEntry emits the one-key Filter entry point name: the jump to the
// AVX2 version (at the AVX2 and AVX-512 levels), then the scalar version.
func filterOneEntry(name, result, does string, scalar func(k int, blk Mem, x GPVirtual)) {
	TEXT(name, NOSPLIT, fmt.Sprintf(filterOneSig, result))
	Pragma("noescape")
	lookup := result != ""
	filterOneDoc(name, does, ": it jumps to "+name+"AVX2 where cpu.Active is AVX2 or above, else runs scalar code", lookup)
	levelJumps(name)
	blk, x, f := oneKeyArgs("f", 6, filterFields())
	filterOneBody(lookup, f, func(k int) { scalar(k, blk, x) })
}

// splitHasOneEntry emits splitHasOne: the jump to splitHasOneAVX2, then the
// scalar version.
func splitHasOneEntry() {
	name := "splitHasOne"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, " bool"))
	Pragma("noescape")
	splitOneDoc(name, "reports whether every bit of h is set", ": it jumps to splitHasOneAVX2 when cpu.Active allows, else runs scalar code")
	levelJumps(name)
	blk, x, _ := oneKeyArgs("s", 5, splitFields())
	salts := splitSalts()
	n := GP32()
	XORL(n, n)
	for j := 0; j < 8; j++ {
		w := GP32()
		MOVL(blk.Offset(4*j), w)
		BTL(scalarIndex(x, salts[j], 27), w) // index mod 32
		ADCL(U8(0), n)
	}
	CMPL(n, U8(8))
	SETEQ(retAddr())
	RET()
}

// splitAddOneEntry emits splitAddOne: the jump to splitAddOneAVX2, then the
// scalar version.
func splitAddOneEntry() {
	name := "splitAddOne"
	TEXT(name, NOSPLIT, fmt.Sprintf(splitOneSig, ""))
	Pragma("noescape")
	splitOneDoc(name, "sets the bits of h", ": it jumps to splitAddOneAVX2 when cpu.Active allows, else runs scalar code")
	levelJumps(name)
	blk, x, _ := oneKeyArgs("s", 5, splitFields())
	salts := splitSalts()
	for j := 0; j < 8; j++ {
		w := GP32()
		MOVL(blk.Offset(4*j), w)
		BTSL(scalarIndex(x, salts[j], 27), w)
		MOVL(w, blk.Offset(4*j))
	}
	RET()
}
