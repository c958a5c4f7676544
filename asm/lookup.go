package main

import (
	"fmt"
	"go/constant"
	"go/types"
	"log"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// One-key lookup on encoded bytes: blocked.LookupHash(b, h) is one call to
// filterLookupOne, and blocked.LookupHashFor(b, h, id, keys) one call to
// filterLookupKeyed, which Go inlines into the caller. Each does Reset's
// checks (internal/format's light check, LightHead and LightSize: the
// length, the head word of magic, version, variant and k, the incompatible
// flags, the number of blocks against MaxBlocks, the payload length and
// len(b)), and filterLookupKeyed also the key hash's and key family's its
// argument want asks for (a blocked.lookupWant), each a compare and a
// branch never taken on good bytes; then each probes the block of h at
// b[HeaderSize:] as filterHasOne does. A b that fails the checks is passed
// on, with a jump and the frame as it is, to lookupHashSlow (or
// lookupKeyedSlow), which has the same signature and returns the error: so
// the Go wrappers have one call, and inline. LookupHash has a kernel of its
// own so that it pays nothing for checks it does not make. The entry
// points (kernels_amd64.s) choose the version by cpu.Active as levelJumps
// does; each version does the checks itself, so that none reloads what
// another computed.

// lookupKernels are the two kernels' names and signatures: those of
// blocked.lookupHashSlow and blocked.lookupKeyedSlow, whose frames they
// jump to with.
var lookupKernels = []struct{ name, sig, slow string }{
	{"filterLookupOne", "func(b []byte, h uint64) (found bool, err error)", "lookupHashSlow"},
	{"filterLookupKeyed", "func(b []byte, h uint64, want lookupWant) (found bool, err error)", "lookupKeyedSlow"},
}

// encLayout is what the checks read from internal/format's declarations,
// the format's only definition (and the size of blocked's block).
type encLayout struct {
	header     int    // HeaderSize: the payload's offset
	blockShift uint8  // log2 of a Filter block's bytes
	maxShift   uint8  // log2 of MaxBlocks: 1 <= blocks <= MaxBlocks
	head       uint64 // the first word of a Filter encoding with k = 8
	kOff       int    // the byte of k in the first word
	blocks     int    // OffBlocks: uint64
	payload    int    // OffPayloadLen: uint64
	incompat   int    // OffIncompat: uint32
	known      uint32 // KnownIncompat
	hash       int    // OffHash: uint8
	compat     int    // OffCompat: uint32, the key family in its low bits
	keyMask    uint32 // CompatKeyMask: the key family's bits
}

var encCache *encLayout

// encoding returns the layout of a Filter encoding's header, from
// internal/format's declarations: the field offsets, the head word built
// from the magic, the format version and the Filter variant at their
// offsets (which must fill the word: the kernel compares it whole, as
// LightHead does).
func encoding() encLayout {
	if encCache != nil {
		return *encCache
	}
	c := func(name string) int { return constInt(formatPath, name) }
	l := encLayout{
		header:   c("HeaderSize"),
		kOff:     c("OffK"),
		blocks:   c("OffBlocks"),
		payload:  c("OffPayloadLen"),
		incompat: c("OffIncompat"),
		known:    uint32(c("KnownIncompat")),
		hash:     c("OffHash"),
		compat:   c("OffCompat"),
		keyMask:  uint32(c("CompatKeyMask")),
	}
	if n := l.keyMask + 1; l.keyMask&n != 0 || n != 2 && n != 4 {
		// The kernel reads the family from the flags' low byte and tests
		// its bit in famSets(n), n*n bits indexed with a scale of n.
		log.Fatalf("asm: %s.CompatKeyMask %#x is not 1 or 3", formatPath, l.keyMask)
	}
	tn, ok := lookup(blockedPath, "block").(*types.TypeName)
	if !ok {
		log.Fatalf("asm: %s.block is not a type", blockedPath)
	}
	l.blockShift = log2(fmt.Sprintf("the size of %s.block", blockedPath), uint64(sizes.Sizeof(tn.Type())))
	pinInt(blockedPath, false, func(q string) string { return "unsafe.Sizeof(" + q + "block{})" }, int(sizes.Sizeof(tn.Type())))
	l.maxShift = log2(formatPath+".MaxBlocks", uint64(c("MaxBlocks")))
	if uint(l.maxShift) > 64-uint(l.blockShift) || l.maxShift > 32 {
		// blocks<<blockShift must not wrap, and (h>>32)*blocks must fit.
		log.Fatalf("asm: MaxBlocks = 1<<%d is too large for the one-key lookup's checks", l.maxShift)
	}
	// The head word: each field's bytes at its offset, which together must
	// be bytes 0 to 7, each once.
	var filled uint64
	put := func(what string, v uint64, off, size int) {
		m := uint64(1)<<(8*size) - 1
		if off < 0 || off+size > 8 || filled&(m<<(8*off)) != 0 || v > m {
			log.Fatalf("asm: %s (%d bytes at %d) does not fit the head word", what, size, off)
		}
		filled |= m << (8 * off)
		l.head |= v << (8 * off)
	}
	magic := constString(formatPath, "Magic")
	var mw uint64
	for i := range len(magic) {
		mw |= uint64(magic[i]) << (8 * i)
	}
	put("Magic", mw, c("OffMagic"), len(magic))
	put("Version", uint64(c("Version")), c("OffVersion"), 2)
	put("Filter", uint64(c("Filter")), c("OffVariant"), 1)
	put("k", 8, l.kOff, 1)
	if filled != ^uint64(0) {
		log.Fatalf("asm: magic, version, variant and k leave bytes of the head word %#x unchecked", ^filled)
	}
	encCache = &l
	return l
}

// famSets returns the sets of the n key family values that the kernel
// accepts, n bits for each value w of lookupWant.keys: bit n*w+f is set
// when an encoding recording family f is read for want.keys = w, as
// lookupWant.check decides: f or w is 0 (unrecorded), or f = w.
func famSets(n uint32) uint32 {
	var s uint32
	for w := range n {
		for f := range n {
			if f == 0 || w == 0 || f == w {
				s |= 1 << (n*w + f)
			}
		}
	}
	return s
}

// wantAddr returns the memory operand of the field of the argument want.
func wantAddr(field string) Mem {
	r, err := Param("want").Field(field).Resolve()
	if err != nil {
		log.Fatalf("asm: want.%s: %v", field, err)
	}
	return r.Addr
}

// constString returns the string constant name of the package at path.
func constString(path, name string) string {
	c, ok := lookup(path, name).(*types.Const)
	if !ok || c.Val().Kind() != constant.String {
		log.Fatalf("asm: %s.%s is not a string constant", path, name)
	}
	pin(path, exported(name), func(q string) string { return q + name }, c.Val().ExactString())
	return constant.StringVal(c.Val())
}

// log2 returns n's base-2 logarithm, stopping the generator unless n is a
// power of 2.
func log2(what string, n uint64) uint8 {
	if n == 0 || n&(n-1) != 0 {
		log.Fatalf("asm: %s (%d) is not a power of 2", what, n)
	}
	return uint8(bits.TrailingZeros64(n))
}

// filterLookupDoc documents version name of the kernel of slow.
func filterLookupDoc(name, slow, how string) {
	what, checks := "LookupHash", "Reset's checks (of the length and the header, neither checksum)"
	if slow != lookupKernels[0].slow {
		what, checks = "LookupHashFor", "Reset's checks (of the length and the header, neither checksum) and has a key hash and key family want accepts"
	}
	Doc(name+" is "+what+how+". When b passes "+checks+",",
		"it returns whether every bit of h is set in the Filter encoded in b, and a nil error; otherwise it jumps to",
		slow+", which returns the error (so b escapes, as it does there).")
}

// filterLookupEntry emits filterLookupOne and filterLookupKeyed: the jump
// to the AVX2 version (at the AVX2 and AVX-512 levels), then the scalar
// version.
func filterLookupEntry() {
	for _, k := range lookupKernels {
		TEXT(k.name, NOSPLIT, k.sig)
		filterLookupDoc(k.name, k.slow, " on amd64: it jumps to "+k.name+"AVX2 where cpu.Active is AVX2 or above, else runs scalar code")
		levelJumps(k.name)
		filterLookupBody(k.slow, filterHasScalarBody)
	}
}

// filterLookupVec emits the two kernels' versions of v's level.
func filterLookupVec(v vecISA) {
	for _, k := range lookupKernels {
		name := k.name + v.name
		TEXT(name, NOSPLIT, k.sig)
		filterLookupDoc(name, k.slow, " with "+v.name+" (cpu.Active at that level: "+k.name+" jumps here)")
		filterLookupBody(k.slow, func(k int, blk Mem, x GPVirtual) { filterHasVecBody(v, k, blk, x) })
	}
}

// filterLookupBody emits the checks (the key hash's and family's too for
// lookupKeyedSlow's kernel), then body for the block of h and the
// encoding's k, or the jump to slow.
func filterLookupBody(slow string, body func(k int, blk Mem, x GPVirtual)) {
	l := encoding()
	// Each check is a compare (some with a memory operand) and a branch to
	// slow that is never taken on good bytes: fewer instructions than
	// or-ing the checks' words into one and testing it once as Reset does
	// (BenchmarkViewLookupPaired: lookup/held 1.34 then, 1.22 so at 16 KiB).
	p := Load(Param("b").Base(), GP64())
	n := Load(Param("b").Len(), GP64())
	// len(b) >= HeaderSize + one block (a length is never negative).
	CMPQ(n, U32(l.header+1<<l.blockShift))
	JB(LabelRef("slow"))
	nb := GP64()
	MOVQ(Mem{Base: p, Disp: l.blocks}, nb)
	// The block's address first, so that the probe's chain of latencies
	// (h, the multiply, the block's load) starts before the checks; the
	// block is read only once they pass.
	x := GP64()
	Load(Param("h"), x)
	blk := GP64()
	MOVQ(x, blk)
	SHRQ(U8(32), blk)
	IMULQ(nb, blk)
	SHRQ(U8(32), blk)
	SHLQ(U8(l.blockShift), blk)
	ADDQ(p, blk)
	// 1 <= nb <= MaxBlocks: SHRQ sets ZF by its result.
	t := GP64()
	LEAQ(Mem{Base: nb, Disp: -1}, t)
	SHRQ(U8(l.maxShift), t)
	JNE(LabelRef("slow"))
	SUBQ(U32(l.header), n) // the bytes after the header
	SHLQ(U8(l.blockShift), nb)
	CMPQ(nb, n) // the blocks fill them
	JNE(LabelRef("slow"))
	CMPQ(Mem{Base: p, Disp: l.payload}, n) // and the payload length says so
	JNE(LabelRef("slow"))
	TESTL(U32(^l.known), Mem{Base: p, Disp: l.incompat}) // no unknown incompatible flag
	JNE(LabelRef("slow"))
	if slow != lookupKernels[0].slow {
		// The key hash is want.id, and the key family f is one want.keys
		// w accepts (w one of the family values, else lookupKeyedSlow
		// says why): bit n*w+f of famSets, n family values.
		id := GP32()
		MOVBLZX(Mem{Base: p, Disp: l.hash}, id)
		CMPB(id.As8(), wantAddr("id"))
		JNE(LabelRef("slow"))
		fam, keys, set := GP32(), GP32(), GP32()
		MOVBLZX(Mem{Base: p, Disp: l.compat}, fam)
		ANDL(U8(l.keyMask), fam)
		MOVBLZX(wantAddr("keys"), keys)
		CMPL(keys, U8(l.keyMask))
		JA(LabelRef("slow"))
		LEAL(Mem{Base: fam, Index: keys, Scale: uint8(l.keyMask + 1)}, fam)
		MOVL(U32(famSets(l.keyMask+1)), set)
		BTL(fam, set)
		JCC(LabelRef("slow"))
	}
	// A nil error (stored before the last checks: the slow path writes
	// every result anyway).
	errAt := retAddr()
	errAt.Disp = (errAt.Disp + 8) &^ 7
	itab, data := errAt, errAt
	itab.Symbol.Name = "err_itable"
	data.Symbol.Name, data.Disp = "err_data", errAt.Disp+8
	MOVQ(U32(0), itab)
	MOVQ(U32(0), data)
	// The head word, k included: bit 4 of k's byte chooses between k = 8
	// and 16, and the word must then be the head of that k exactly.
	w0 := GP64()
	MOVQ(Mem{Base: p}, w0)
	BTQ(U8(8*l.kOff+bits.TrailingZeros8(16)), w0)
	JCS(LabelRef("k16"))
	head := GP64()
	MOVQ(U64(l.head), head)
	CMPQ(w0, head)
	JNE(LabelRef("slow"))
	body(8, Mem{Base: blk, Disp: l.header}, x)
	Label("k16")
	head = GP64()
	MOVQ(U64(l.head+(16-8)<<(8*l.kOff)), head)
	CMPQ(w0, head)
	JNE(LabelRef("slow"))
	body(16, Mem{Base: blk, Disp: l.header}, x)
	Label("slow")
	tailCall("·" + slow + "(SB)")
}
