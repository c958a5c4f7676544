package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The typed kernels hash one string or byte slice (its header: a pointer,
// then a length) with scalar XXH3-64, seed 0, in XXH3's short classes:
// empty, 1-3 bytes, 4-8, 9-16, 17-128 and 129-240. Each class reads only
// inside the key, at offsets its length fixes. The 64x64->128-bit multiplies
// are MULQ (in every amd64 processor; it leaves the product in DX:AX).

// xxhKey128 is the word at byte 128 of XXH3's default secret, after xxhKey:
// the 129-240-byte class reads up to byte 135.
const xxhKey128 = 0xc3ebd33483acc5ea

// typedConstWords are the typed kernels' scalar constants, at these indexes.
const (
	tcKey4   = iota // the 4-8-byte class's secret (two words XORed)
	tcRrmxmx        // rrmxmx's multiplier
	tcKeyLo         // the 9-16-byte class's secrets
	tcKeyHi
	tcP1       // PRIME64_1, times the length for 17-240 bytes
	tcAval     // XXH3's avalanche multiplier
	tcPrime642 // PRIME64_2 and PRIME64_3, the 1-3-byte class's avalanche
	tcPrime643
	tcCount
)

var typedConstWords = [tcCount]uint64{
	strKey4to8, xxhPrime, strKey9to16lo, strKey9to16hi, xxhPrime64_1, xxhAvalMul,
	0xc2b2ae3d27d4eb4f, 0x165667b19e3779f9,
}

// key1to3 is the 1-3-byte class's secret: the first two 32-bit words of the
// secret XORed.
const key1to3 = 0xbe4ba423 ^ 0x396cfeb8

// hashString sets h to XXH3-64 of the string whose header is at hp and jumps
// to done; it jumps to long, h unset, for keys longer than 240 bytes.
func (g typedGen) hashString(hp, h GPVirtual, long, done string) {
	s, n := GP64(), GP64()
	MOVQ(Mem{Base: hp}, s)
	MOVQ(Mem{Base: hp, Disp: 8}, n)
	// back(d) is the byte d of the key's end (d < 0).
	back := func(d int) Mem { return Mem{Base: s, Index: n, Scale: 1, Disp: d} }
	CMPQ(n, U8(16))
	JA(LabelRef("s17"))
	CMPQ(n, U8(8))
	JA(LabelRef("s9"))
	CMPQ(n, U8(3))
	JA(LabelRef("s4"))
	TESTQ(n, n)
	JEQ(LabelRef("s0"))

	// 1-3 bytes: the first, middle and last byte and the length in one
	// 32-bit word, XORed with the secret, then XXH64's avalanche (whose
	// first step, x ^= x>>33, does nothing to a 32-bit x).
	t := GP64()
	MOVBLZX(Mem{Base: s}, h.As32())
	SHLL(U8(16), h.As32())
	MOVBLZX(back(-1), t.As32())
	ORL(t.As32(), h.As32())
	MOVQ(n, t)
	SHRQ(U8(1), t)
	MOVBLZX(Mem{Base: s, Index: t, Scale: 1}, t.As32())
	SHLL(U8(24), t.As32())
	ORL(t.As32(), h.As32())
	MOVL(n.As32(), t.As32())
	SHLL(U8(8), t.As32())
	ORL(t.As32(), h.As32())
	XORL(U32(key1to3), h.As32())
	IMULQ(g.c(tcPrime642), h)
	g.xorShift(h, 29)
	IMULQ(g.c(tcPrime643), h)
	g.xorShift(h, 32)
	JMP(LabelRef(done))

	Label("s0")
	MOVQ(U64(xxhEmpty), h)
	JMP(LabelRef(done))

	// 4-8 bytes: the first and last 4 (the first on top), XORed with the
	// secret, then rrmxmx.
	Label("s4")
	MOVL(Mem{Base: s}, h.As32())
	MOVL(back(-4), t.As32())
	SHLQ(U8(32), h)
	ADDQ(t, h)
	XORQ(g.c(tcKey4), h)
	g.rrmxmx(h, n, g.c(tcRrmxmx))
	JMP(LabelRef(done))

	// 9-16 bytes: the first and last 8, each XORed with its secret, and
	// their folded 128-bit product.
	Label("s9")
	lo, hi := GP64(), GP64()
	MOVQ(Mem{Base: s}, lo)
	XORQ(g.c(tcKeyLo), lo)
	MOVQ(back(-8), hi)
	XORQ(g.c(tcKeyHi), hi)
	MOVQ(lo, RAX)
	MULQ(hi)
	XORQ(RDX, RAX)
	BSWAPQ(lo)
	LEAQ(Mem{Base: n, Index: lo, Scale: 1}, h)
	ADDQ(hi, h)
	ADDQ(RAX, h)
	g.avalanche(h)
	JMP(LabelRef(done))

	// 17-128 bytes: 16-byte pairs from both ends, one more pair from each
	// end per 32 bytes, each mixed with its 16 bytes of the secret.
	Label("s17")
	CMPQ(n, U32(128))
	JA(LabelRef("s129"))
	MOVQ(n, h)
	IMULQ(g.c(tcP1), h)
	for r := 0; r < 4; r++ {
		if r > 0 {
			CMPQ(n, U8(32*r))
			JBE(LabelRef("s17end"))
		}
		g.mix16(h, Mem{Base: s, Disp: 16 * r}, g.secret.Offset(32*r))
		g.mix16(h, back(-16*r-16), g.secret.Offset(32*r+16))
	}
	Label("s17end")
	g.avalanche(h)
	JMP(LabelRef(done))

	// 129-240 bytes: the first eight 16-byte groups, avalanche, the groups
	// after them with the secret from byte 3 on, and the last 16 bytes.
	Label("s129")
	CMPQ(n, U32(240))
	JA(LabelRef(long))
	MOVQ(n, h)
	IMULQ(g.c(tcP1), h)
	for r := 0; r < 8; r++ {
		g.mix16(h, Mem{Base: s, Disp: 16 * r}, g.secret.Offset(16*r))
	}
	g.avalanche(h)
	q, end, k := GP64(), GP64(), GP64()
	MOVQ(n, end)
	ANDQ(I8(-16), end)
	ADDQ(s, end) // the end of the last whole group
	LEAQ(Mem{Base: s, Disp: 128}, q)
	LEAQ(g.secret.Offset(3), k)
	Label("s129loop")
	CMPQ(q, end)
	JAE(LabelRef("s129last"))
	g.mix16(h, Mem{Base: q}, Mem{Base: k})
	ADDQ(U8(16), q)
	ADDQ(U8(16), k)
	JMP(LabelRef("s129loop"))
	Label("s129last")
	g.mix16(h, back(-16), g.secret.Offset(119))
	g.avalanche(h)
	JMP(LabelRef(done))
}

// mix16 adds to h XXH3's mix of the 16 bytes at m with the 16 bytes of the
// secret at k: the folded 128-bit product of their two halves, each XORed.
func (g typedGen) mix16(h GPVirtual, m, k Mem) {
	t := GP64()
	MOVQ(m, RAX)
	XORQ(k, RAX)
	MOVQ(m.Offset(8), t)
	XORQ(k.Offset(8), t)
	MULQ(t)
	XORQ(RDX, RAX)
	ADDQ(RAX, h)
}

// avalanche applies XXH3's avalanche to h.
func (g typedGen) avalanche(h GPVirtual) {
	g.xorShift(h, 37)
	IMULQ(g.c(tcAval), h)
	g.xorShift(h, 32)
}

// xorShift sets h ^= h >> s.
func (g typedGen) xorShift(h GPVirtual, s uint8) {
	t := GP64()
	MOVQ(h, t)
	SHRQ(U8(s), t)
	XORQ(t, h)
}
