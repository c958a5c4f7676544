//go:build !purego

#include "textflag.h"

// NEON batch lookups of the cuckoo filter, fingerprints of at most 16 bits,
// hand-written (avo cannot target arm64). Their Go declarations are in
// kernels_arm64.go; dispatch_arm64.go checks every length and builds the
// parameter block (neonParams) they read:
//
//   word 0-3   nb, bucket bits, fingerprint mask, altMix (scalars)
//   word 4-5   V16: TBL indexes of the slots' windows
//   word 6-7   V17: the windows' shift counts (negative: right shifts)
//   word 8-9   V18: the mask of a slot's low bits in each 16-bit lane
//   word 10-11 V19: rest (f-4) in each 16-bit lane (semi-sorted)
//   word 12-13 V20: TBL indexes of the second bucket's windows (wide)
//
// One key an iteration, both of its buckets in one q register:
//   - fp = h & fpMask, 0 made 1 (CINC); i1 = UMULH(h &^ 0xffffffff, nb)
//     (the upper half of h times nb, over 2^32); H(fp) = UMULH(fp*altMix
//     &^ 0xffffffff, nb) the same way; i2 = H(fp) - i1, plus nb if that
//     borrowed (SUBS, CSEL): the Go code's arithmetic, exact for any nb up
//     to 2^32;
//   - each bucket's bit offset o = i*bucketBits (UMULL: i < 2^32) gives its
//     8 bytes at data + o>>3, shifted right by o&4 (scalar LDR, LSR); the
//     two words go to the two halves of a q register (FMOVD, VMOV) and fp
//     to its eight 16-bit lanes (DUP);
//   - a semi-sorted bucket's code (its low 12 bits) indexes nibbleBytes,
//     the 4 nibbles as bytes; both entries are loaded into one d register
//     (FMOVS, LD1 to lane 1), widened to 16-bit lanes (UXTL) and shifted
//     left by rest (USHL): the top bits of the 8 slots;
//   - slot j's low bits start at bit p_j of its word (12 + j*rest
//     semi-sorted, j*f plain). One TBL gathers, into 16-bit lane j (first
//     bucket lanes 0-3, second 4-7), the two bytes from byte p_j>>3, and
//     USHL by -(p_j&7) moves the slot to the lane's low bits. That holds the
//     whole slot when (p_j&7) + width <= 16 for every j, which is every f but
//     15 semi-sorted and 11, 13, 14 and 15 plain; those take the "wide"
//     kernels, whose two TBLs gather 32-bit windows of four bytes (one
//     register a bucket), shifted in 32-bit lanes (USHL) and narrowed to
//     16-bit lanes (UZP1);
//   - BIT inserts the masked low bits under the nibbles (AND for plain), CMEQ
//     compares the 8 lanes with fp, XTN narrows the answer to 64 bits and
//     one FMOVD, CMP and CSET make the bool.
// The loop is software-pipelined by one key: each iteration fetches the
// next key's words, nibbles and fp (the scalar part, into V5-V7) and
// compares the current key's (V0, V1, V3), so that the vector part does
// not wait on the loads of its own key. The scalar arithmetic (UMULH, MUL)
// and the transfers to vector registers were chosen by llvm-mca
// (internal/mca, PERF.md).
//
// Go's assembler has no vector USHL or XTN: they are encoded by hand below
// (register numbers are plain integers 0-31), each checked with llvm-objdump
// on an arm64 test binary.
//
// Registers: R0 data, R1 nb, R2 hs, R3 keys left, R4 out, R5 count,
// R6-R14 scratch, R19 fpMask, R20 altMix, R21 bucket bits, R22 nibbleBytes.
// R18 (platform) and R23-R30 are not used.

// USHL Vd.8H, Vn.8H, Vm.8H
#define VUSHL8H(m, n, d) WORD $(0x6E604400 | (m)<<16 | (n)<<5 | (d))
// USHL Vd.4S, Vn.4S, Vm.4S
#define VUSHL4S(m, n, d) WORD $(0x6EA04400 | (m)<<16 | (n)<<5 | (d))
// XTN Vd.8B, Vn.8H
#define VXTN8B(n, d) WORD $(0x0E212800 | (n)<<5 | (d))

// LOADARGS reads the arguments and the parameter block (see above).
#define LOADARGS \
	MOVD data+0(FP), R0         \
	MOVD params+8(FP), R6       \
	MOVD tab+16(FP), R22        \
	MOVD hs_base+24(FP), R2     \
	MOVD hs_len+32(FP), R3      \
	MOVD out_base+48(FP), R4    \
	LDP  0(R6), (R1, R21)       \
	LDP  16(R6), (R19, R20)     \
	ADD  $32, R6, R6            \
	VLD1.P 64(R6), [V16.B16, V17.B16, V18.B16, V19.B16] \
	VLD1 (R6), [V20.B16]        \
	MOVD ZR, R5

// BUCKETS loads the next hash, broadcasts its fingerprint to V7's 16-bit
// lanes and leaves its two buckets' words, shifted to their first bit, in
// R11 and R12 and in the two halves of V5.
#define BUCKETS \
	MOVD.P 8(R2), R6                   \
	AND    R19, R6, R7                 \
	CMP    $0, R7                      \
	CINC   EQ, R7, R7                  /* fp */ \
	AND    $0xffffffff00000000, R6, R8 \
	UMULH  R1, R8, R8                  /* i1 */ \
	MUL    R20, R7, R9                 \
	AND    $0xffffffff00000000, R9, R9 \
	UMULH  R1, R9, R9                  /* H(fp) */ \
	SUBS   R8, R9, R10                 \
	ADD    R1, R10, R11                \
	CSEL   LO, R11, R10, R10           /* i2 */ \
	UMULL  R21, R8, R8                 /* bit offsets */ \
	UMULL  R21, R10, R10               \
	LSR    $3, R8, R11                 \
	LSR    $3, R10, R12                \
	MOVD   (R0)(R11), R11              \
	MOVD   (R0)(R12), R12              \
	AND    $4, R8, R8                  \
	AND    $4, R10, R10                \
	LSR    R8, R11, R11                \
	LSR    R10, R12, R12               \
	FMOVD  R11, F5                     \
	VMOV   R12, V5.D[1]                \
	VDUP   R7, V7.H8

// NIBLOAD loads nibbleBytes of both codes into the low half of V6.
#define NIBLOAD \
	AND   $0xfff, R11, R13        \
	AND   $0xfff, R12, R14        \
	ADD   R13<<2, R22, R13        \
	ADD   R14<<2, R22, R14        \
	FMOVS (R13), F6               \
	VLD1  (R14), V6.S[1]

// NEXT hands the fetched key to the vector part: V0 = its words, V3 = fp
// in every lane (and NEXTSEMI V1 = its nibble bytes).
#define NEXT \
	VMOV V5.B16, V0.B16 \
	VMOV V7.B16, V3.B16

#define NEXTSEMI \
	NEXT \
	VMOV V6.B16, V1.B16

// NIBBLES sets V1 to the top bits of the 8 slots: the nibble bytes
// widened to 16-bit lanes and shifted left by rest.
#define NIBBLES \
	VUXTL V1.B8, V1.H8 \
	VUSHL8H(19, 1, 1)

// NARROW sets V2 to the 8 slots' low bits (and bits above them) in 16-bit
// lanes: one TBL of 2-byte windows, one USHL.
#define NARROW \
	VTBL V16.B16, [V0.B16], V2.B16 \
	VUSHL8H(17, 2, 2)

// WIDE is NARROW with 4-byte windows, for the widths where a slot can
// straddle 3 bytes: a TBL and a USHL of 32-bit lanes per bucket, narrowed
// into one register by UZP1.
#define WIDE \
	VTBL V16.B16, [V0.B16], V2.B16 \
	VTBL V20.B16, [V0.B16], V4.B16 \
	VUSHL4S(17, 2, 2)              \
	VUSHL4S(17, 4, 4)              \
	VUZP1 V4.H8, V2.H8, V2.H8

// SEMI sets V1 to the 8 slots: the nibbles of V1 over the masked low bits of V2.
#define SEMI VBIT V18.B16, V2.B16, V1.B16

// PLAIN sets V1 to the 8 slots: the masked windows of V2.
#define PLAIN VAND V18.B16, V2.B16, V1.B16

// ANSWER writes 1 to *R4++ if some lane of V1 equals fp (V3), else 0, and
// adds it to R5.
#define ANSWER \
	VCMEQ  V3.H8, V1.H8, V1.H8 \
	VXTN8B(1, 1)               \
	FMOVD  F1, R8              \
	CMP    $0, R8              \
	CSET   NE, R8              \
	MOVB.P R8, 1(R4)           \
	ADD    R8, R5, R5

// func cuckooHasSemiNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int
// Requires: ASIMD
TEXT ·cuckooHasSemiNEON(SB), NOSPLIT, $0-80
	LOADARGS
	CBZ R3, done
	BUCKETS
	NIBLOAD

loop:
	NEXTSEMI
	SUBS $1, R3, R3
	BEQ  last
	BUCKETS
	NIBLOAD
	NIBBLES
	NARROW
	SEMI
	ANSWER
	B    loop

last:
	NIBBLES
	NARROW
	SEMI
	ANSWER

done:
	MOVD R5, ret+72(FP)
	RET

// func cuckooHasSemiWideNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int
// Requires: ASIMD
TEXT ·cuckooHasSemiWideNEON(SB), NOSPLIT, $0-80
	LOADARGS
	CBZ R3, done
	BUCKETS
	NIBLOAD

loop:
	NEXTSEMI
	SUBS $1, R3, R3
	BEQ  last
	BUCKETS
	NIBLOAD
	NIBBLES
	WIDE
	SEMI
	ANSWER
	B    loop

last:
	NIBBLES
	WIDE
	SEMI
	ANSWER

done:
	MOVD R5, ret+72(FP)
	RET

// func cuckooHasPlainNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int
// Requires: ASIMD
TEXT ·cuckooHasPlainNEON(SB), NOSPLIT, $0-80
	LOADARGS
	CBZ R3, done
	BUCKETS

loop:
	NEXT
	SUBS $1, R3, R3
	BEQ  last
	BUCKETS
	NARROW
	PLAIN
	ANSWER
	B    loop

last:
	NARROW
	PLAIN
	ANSWER

done:
	MOVD R5, ret+72(FP)
	RET

// func cuckooHasPlainWideNEON(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int
// Requires: ASIMD
TEXT ·cuckooHasPlainWideNEON(SB), NOSPLIT, $0-80
	LOADARGS
	CBZ R3, done
	BUCKETS

loop:
	NEXT
	SUBS $1, R3, R3
	BEQ  last
	BUCKETS
	WIDE
	PLAIN
	ANSWER
	B    loop

last:
	WIDE
	PLAIN
	ANSWER

done:
	MOVD R5, ret+72(FP)
	RET
