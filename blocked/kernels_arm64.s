//go:build !purego

#include "textflag.h"

// NEON batch kernels of Filter (k = 8 and k = 16) and SplitBlock,
// hand-written: avo cannot target arm64. Their Go declarations are in
// kernels_arm64.go, and dispatch_arm64.go checks every length before calling
// them. The salts are the Go arrays salt and splitSalt (salts.go), loaded by
// symbol. They take the arguments of the amd64 kernels of the same names
// (blocks points at the first of nblocks blocks). The Filter loops trust
// that len(out) == len(hs) > 0 and that nblocks > 0.
//
// One key per iteration:
//   - block address: blocks + 64*((h>>32)*nblocks >> 32), computed as
//     UMULH(h &^ 0xffffffff, nblocks) (the same value: the low half of h
//     is cleared, so the 128-bit product is (h>>32)*n << 32);
//   - the block is loaded de-interleaved with LD2: V0 = (w0, w2),
//     V1 = (w1, w3), V2 = (w4, w6), V3 = (w5, w7);
//   - x = uint32(h) is broadcast to four 32-bit lanes and multiplied by
//     salts 0-3 and 4-7: Y = (y0, y1, y2, y3) with yi = x*salt[i];
//   - USHL takes its shift count from the low byte of each 64-bit lane, so
//     the positions need no widening: USHR.4S #26 of Y leaves p0 and p2 in
//     the low bytes of its two 64-bit lanes (matching V0), and USHR.2D #58
//     of Y leaves p1 and p3 (matching V1);
//   - USHL of a vector of ones by those counts gives the masks 1<<p, in the
//     layout of the loaded words. A lookup ORs (mask AND NOT word) over the
//     line and answers true iff that is zero; an add ORs the masks into the
//     words and stores the line back before the next key is loaded, so keys
//     of one batch that share a block are handled in order.
//
// Go's assembler has no vector MUL, USHL, BIC or UQXTN: they are encoded by
// hand below (register numbers are plain integers 0-31). Each encoding was
// checked with `go tool objdump` on an arm64 test binary.
//
// In filters larger than the last-level cache the Go side asks for
// software prefetch: for the first npf keys the loop also prefetches the
// block of the key pf places ahead (npf <= len(hs)-pf, so that hash exists).
//
// Registers: R18 (platform), R26-R29 and R30 are not used. V16-V19 hold the
// salts, V20 holds 1 in both 64-bit lanes.

// MUL Vd.4S, Vn.4S, Vm.4S
#define VMUL4S(m, n, d) WORD $(0x4EA09C00 | (m)<<16 | (n)<<5 | (d))
// USHL Vd.2D, Vn.2D, Vm.2D
#define VUSHL2D(m, n, d) WORD $(0x6EE04400 | (m)<<16 | (n)<<5 | (d))
// BIC Vd.16B, Vn.16B, Vm.16B (d = n AND NOT m)
#define VBIC16B(m, n, d) WORD $(0x4E601C00 | (m)<<16 | (n)<<5 | (d))
// UQXTN Vd.2S, Vn.2D (saturating narrow: a non-zero lane stays non-zero)
#define VUQXTN2S(n, d) WORD $(0x2EA14800 | (n)<<5 | (d))

// LOADARGS reads the arguments common to every kernel and the constants:
// R0 = blocks, R1 = nblocks, R2 = hs, R3 = len(hs), V16-V19 = salts,
// V20 = (1, 1).
#define LOADARGS \
	MOVD blocks+0(FP), R0      \
	MOVD nblocks+8(FP), R1     \
	MOVD hs_base+16(FP), R2    \
	MOVD hs_len+24(FP), R3     \
	MOVD $·salt(SB), R6        \
	VLD1 (R6), [V16.S4, V17.S4, V18.S4, V19.S4] \
	MOVD $1, R6                \
	VDUP R6, V20.D2

// NEXTKEY loads the next hash into R6, the addresses of the two halves of
// its block into R7 and R9, broadcasts the hash's low half to V4 and loads
// the block into V0-V3.
#define NEXTKEY \
	MOVD.P 8(R2), R6                  \
	AND    $0xffffffff00000000, R6, R7 \
	UMULH  R1, R7, R7                 \
	ADD    R7<<6, R0, R7              \
	ADD    $32, R7, R9                \
	VDUP   R6, V4.S4                  \
	VLD2   (R7), [V0.D2, V1.D2]       \
	VLD2   (R9), [V2.D2, V3.D2]

// MASKS8 sets V11-V14 to the masks of words (0,2), (1,3), (4,6), (5,7).
#define MASKS8 \
	VMUL4S(16, 4, 5)            /* V5 = x*salt[0..3] */ \
	VMUL4S(17, 4, 6)            /* V6 = x*salt[4..7] */ \
	VUSHR $26, V5.S4, V7.S4     /* p0, p2 in the low bytes */ \
	VUSHR $58, V5.D2, V8.D2     /* p1, p3 */ \
	VUSHR $26, V6.S4, V9.S4     /* p4, p6 */ \
	VUSHR $58, V6.D2, V10.D2    /* p5, p7 */ \
	VUSHL2D(7, 20, 11)          /* V11 = 1<<(p0, p2) */ \
	VUSHL2D(8, 20, 12)          /* V12 = 1<<(p1, p3) */ \
	VUSHL2D(9, 20, 13)          /* V13 = 1<<(p4, p6) */ \
	VUSHL2D(10, 20, 14) /* V14 = 1<<(p5, p7) */

// MASKS16 is MASKS8 plus the second bit of every word (salts 8-15).
#define MASKS16 \
	MASKS8                      \
	VMUL4S(18, 4, 5)            /* V5 = x*salt[8..11] */ \
	VMUL4S(19, 4, 6)            /* V6 = x*salt[12..15] */ \
	VUSHR $26, V5.S4, V7.S4     \
	VUSHR $58, V5.D2, V8.D2     \
	VUSHR $26, V6.S4, V9.S4     \
	VUSHR $58, V6.D2, V10.D2    \
	VUSHL2D(7, 20, 21)          \
	VUSHL2D(8, 20, 22)          \
	VUSHL2D(9, 20, 23)          \
	VUSHL2D(10, 20, 24)         \
	VORR V21.B16, V11.B16, V11.B16 \
	VORR V22.B16, V12.B16, V12.B16 \
	VORR V23.B16, V13.B16, V13.B16 \
	VORR V24.B16, V14.B16, V14.B16

// TEST stores in R8 1 if every mask bit is set in the block, else 0, writes
// it to *R4++ and adds it to R5.
#define TEST \
	VBIC16B(0, 11, 11)             /* mask bits missing from the words */ \
	VBIC16B(1, 12, 12)             \
	VBIC16B(2, 13, 13)             \
	VBIC16B(3, 14, 14)             \
	VORR V12.B16, V11.B16, V11.B16 \
	VORR V14.B16, V13.B16, V13.B16 \
	VORR V13.B16, V11.B16, V11.B16 \
	VUQXTN2S(11, 11)               \
	FMOVD F11, R8                  \
	CMP   $0, R8                   \
	CSET  EQ, R8                   \
	MOVB.P R8, 1(R4)               \
	ADD   R8, R5, R5

// PREFETCH(hint) prefetches the block of the hash R10 keys ahead of R2.
#define PREFETCH(hint) \
	MOVD  (R2)(R10<<3), R12             \
	AND   $0xffffffff00000000, R12, R12 \
	UMULH R1, R12, R12                  \
	ADD   R12<<6, R0, R12               \
	PRFM  (R12), hint

// SET ORs the masks into the block and stores it back.
#define SET \
	VORR V11.B16, V0.B16, V0.B16 \
	VORR V12.B16, V1.B16, V1.B16 \
	VORR V13.B16, V2.B16, V2.B16 \
	VORR V14.B16, V3.B16, V3.B16 \
	VST2 [V0.D2, V1.D2], (R7)    \
	VST2 [V2.D2, V3.D2], (R9)

// The lookups (Filter k = 8 and 16, Counting) test bits with TBL instead:
// llvm-mca (bench/mca, PERF.md) finds the loop above bound by the vector
// pipes, and TBL needs about half the vector instructions. For each key:
//   - the block is loaded in byte order into V0-V3 (LD1, no de-interleave);
//   - Y = x*salt as above; two UZP2 keep the top byte of every product,
//     b = y>>24, one byte a salt in salt order (lane i tests word i mod 8);
//   - the byte of the block holding position p = b>>2 of word i is
//     8i + p>>3 = 8i + b>>5: USHR and ADD of the lane offsets (V21) give the
//     TBL indexes, and one four-register TBL gathers those bytes;
//   - the bit within it is p&7: USHL of a vector of byte ones (V23) by
//     (b>>2)&7 (AND with V22) gives 1<<(p&7), and BIC leaves the bits that
//     are missing; the key is present iff none is.
// Counting reads counter j = b>>4 of word i, the nibble j&1 of byte
// 8i + j>>1 = 8i + b>>5 (the same index): a one-register TBL of the table
// V24 (0x0f for even j, 0xf0 for odd) gives the nibble's mask, and the key
// is present iff no AND of mask and byte is zero.
// The k = 8 and Counting loops compute 16 lanes of which the upper 8 repeat
// the lower (UZP2 of a register with itself) and read only the lower 8.

// USHL Vd.16B, Vn.16B, Vm.16B
#define VUSHL16B(m, n, d) WORD $(0x6E204400 | (m)<<16 | (n)<<5 | (d))
// UQXTN Vd.8B, Vn.8H
#define VUQXTN8B(n, d) WORD $(0x2E214800 | (n)<<5 | (d))

// TBLCONSTS sets V21 = the byte offsets of words 0-7 (twice), V22 = 7 and
// V23 = 1 in every byte, V24 = the Counting nibble masks, V25 = 0.
#define TBLCONSTS \
	MOVD $0x3830282018100800, R6 \
	VDUP R6, V21.D2              \
	MOVD $0x0707070707070707, R6 \
	VDUP R6, V22.D2              \
	MOVD $0x0101010101010101, R6 \
	VDUP R6, V23.D2              \
	MOVD $0xf00ff00ff00ff00f, R6 \
	VDUP R6, V24.D2              \
	VEOR V25.B16, V25.B16, V25.B16

// TNEXTKEY loads the next hash into R6, its block's address into R7, the
// block into V0-V3, and V5, V6 = x*salt[0..3], x*salt[4..7].
#define TNEXTKEY \
	MOVD.P 8(R2), R6                  \
	AND    $0xffffffff00000000, R6, R7 \
	UMULH  R1, R7, R7                 \
	ADD    R7<<6, R0, R7              \
	VDUP   R6, V4.S4                  \
	VLD1   (R7), [V0.B16, V1.B16, V2.B16, V3.B16] \
	VMUL4S(16, 4, 5)                  \
	VMUL4S(17, 4, 6)

// TBYTES8 sets V7 to the top bytes of the 8 products, twice.
#define TBYTES8 \
	VUZP2 V6.H8, V5.H8, V7.H8 \
	VUZP2 V7.B16, V7.B16, V7.B16

// TBYTES16 sets V7 to the top bytes of the 16 products (salts 8-15 too).
#define TBYTES16 \
	VMUL4S(18, 4, 12)           \
	VMUL4S(19, 4, 13)           \
	VUZP2 V6.H8, V5.H8, V7.H8   \
	VUZP2 V13.H8, V12.H8, V14.H8 \
	VUZP2 V14.B16, V7.B16, V7.B16

// TMISSING sets V10 to the bits of V7's positions missing from the block.
#define TMISSING \
	VUSHR $5, V7.B16, V9.B16       \
	VADD  V21.B16, V9.B16, V9.B16  \
	VUSHR $2, V7.B16, V8.B16       \
	VAND  V22.B16, V8.B16, V8.B16  \
	VUSHL16B(8, 23, 10)            \
	VTBL  V9.B16, [V0.B16, V1.B16, V2.B16, V3.B16], V11.B16 \
	VBIC16B(11, 10, 10)

// TANSWER writes 1 to *R4++ if the low 64 bits of V10 are zero, else 0, and
// adds it to R5.
#define TANSWER \
	FMOVD  F10, R8  \
	CMP    $0, R8   \
	CSET   EQ, R8   \
	MOVB.P R8, 1(R4) \
	ADD    R8, R5, R5

// TLOOKUP(bytes, reduce) is one key's whole lookup.
#define TLOOKUP(bytes, reduce) \
	TNEXTKEY \
	bytes    \
	TMISSING \
	reduce   \
	TANSWER

#define NOREDUCE
#define REDUCE16 VUQXTN8B(10, 10)

// func filterHas8NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int
// Requires: ASIMD
TEXT ·filterHas8NEON(SB), NOSPLIT, $0-88
	LOADARGS
	TBLCONSTS
	MOVD out_base+40(FP), R4
	MOVD pf+64(FP), R10
	MOVD npf+72(FP), R11
	MOVD ZR, R5
	CBZ  R11, tail
	SUB  R11, R3, R3 // keys left for the loop without prefetch

prefetching:
	PREFETCH(PLDL1KEEP)
	TLOOKUP(TBYTES8, NOREDUCE)
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	TLOOKUP(TBYTES8, NOREDUCE)
	SUBS $1, R3, R3
	BNE  loop

done:
	MOVD R5, ret+80(FP)
	RET

// func filterHas16NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int
// Requires: ASIMD
TEXT ·filterHas16NEON(SB), NOSPLIT, $0-88
	LOADARGS
	TBLCONSTS
	MOVD out_base+40(FP), R4
	MOVD pf+64(FP), R10
	MOVD npf+72(FP), R11
	MOVD ZR, R5
	CBZ  R11, tail
	SUB  R11, R3, R3 // keys left for the loop without prefetch

prefetching:
	PREFETCH(PLDL1KEEP)
	TLOOKUP(TBYTES16, REDUCE16)
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	TLOOKUP(TBYTES16, REDUCE16)
	SUBS $1, R3, R3
	BNE  loop

done:
	MOVD R5, ret+80(FP)
	RET

// func filterAdd8NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, pf int, npf int)
// Requires: ASIMD
TEXT ·filterAdd8NEON(SB), NOSPLIT, $0-56
	LOADARGS
	MOVD pf+40(FP), R10
	MOVD npf+48(FP), R11
	CBZ  R11, tail
	SUB  R11, R3, R3

prefetching:
	PREFETCH(PSTL1KEEP)
	NEXTKEY
	MASKS8
	SET
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	NEXTKEY
	MASKS8
	SET
	SUBS $1, R3, R3
	BNE  loop

done:
	RET

// func filterAdd16NEON(blocks *[8]uint64, nblocks uint64, hs []uint64, pf int, npf int)
// Requires: ASIMD
TEXT ·filterAdd16NEON(SB), NOSPLIT, $0-56
	LOADARGS
	MOVD pf+40(FP), R10
	MOVD npf+48(FP), R11
	CBZ  R11, tail
	SUB  R11, R3, R3

prefetching:
	PREFETCH(PSTL1KEEP)
	NEXTKEY
	MASKS16
	SET
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	NEXTKEY
	MASKS16
	SET
	SUBS $1, R3, R3
	BNE  loop

done:
	RET

// NEON batch kernels of SplitBlock, the Parquet split block filter. The
// macros of this part are named SPLIT_*; VMUL4S and VBIC16B are the ones
// above. These loops trust that len(out) == len(hs) > 0, that nblocks > 0 and
// that 0 <= npf <= len(hs)-pf.
//
// One key per iteration: the block (32 bytes, eight little-endian uint32
// words) is at blocks + 32*((h>>32)*nblocks >> 32), computed as
// UMULH(h &^ 0xffffffff, nblocks); it is loaded into V0 = (w0..w3) and
// V1 = (w4..w7). x = uint32(h) is broadcast, multiplied by the Parquet salts
// (V16, V17), shifted right by 27, and USHL of a vector of ones by those
// positions gives the masks 1<<p in each 32-bit lane (USHL reads the low
// byte of each lane, here the whole position). A lookup is true iff no mask
// bit is missing from the words; an add ORs the masks in and stores the
// block back before the next key, so keys sharing a block are handled in
// order. For the first npf keys the loop also prefetches the block of the
// key pf places ahead.
//
// USHL (32-bit lanes) and UQXTN (to 16-bit lanes) are encoded by hand as
// above, each checked with `go tool objdump` on an arm64 test binary.
// R18 (platform), R26-R30 are not used.

// USHL Vd.4S, Vn.4S, Vm.4S
#define VUSHL4S(m, n, d) WORD $(0x6EA04400 | (m)<<16 | (n)<<5 | (d))
// UQXTN Vd.4H, Vn.4S (saturating narrow: a non-zero lane stays non-zero)
#define VUQXTN4H(n, d) WORD $(0x2E614800 | (n)<<5 | (d))

// SPLIT_LOADARGS: R0 = blocks, R1 = nblocks, R2 = hs, R3 = len(hs),
// R10 = pf, V16-V17 = salts, V20 = 1 in every 32-bit lane.
#define SPLIT_LOADARGS \
	MOVD blocks+0(FP), R0                   \
	MOVD nblocks+8(FP), R1                  \
	MOVD hs_base+16(FP), R2                 \
	MOVD hs_len+24(FP), R3                  \
	MOVD $·splitSalt(SB), R6                \
	VLD1 (R6), [V16.S4, V17.S4]             \
	MOVW $1, R6                             \
	VDUP R6, V20.S4

// SPLIT_PREFETCH(hint) prefetches the block of the hash R10 keys ahead of R2.
#define SPLIT_PREFETCH(hint) \
	MOVD  (R2)(R10<<3), R12             \
	AND   $0xffffffff00000000, R12, R12 \
	UMULH R1, R12, R12                  \
	ADD   R12<<5, R0, R12               \
	PRFM  (R12), hint

// SPLIT_NEXTKEY loads the next hash, its block's address into R7, the block into
// V0-V1, and sets the masks in V11 (words 0-3) and V12 (words 4-7).
#define SPLIT_NEXTKEY \
	MOVD.P 8(R2), R6                   \
	AND    $0xffffffff00000000, R6, R7 \
	UMULH  R1, R7, R7                  \
	ADD    R7<<5, R0, R7               \
	VDUP   R6, V4.S4                   \
	VLD1   (R7), [V0.S4, V1.S4]        \
	VMUL4S(16, 4, 5)                   \
	VMUL4S(17, 4, 6)                   \
	VUSHR  $27, V5.S4, V5.S4           \
	VUSHR  $27, V6.S4, V6.S4           \
	VUSHL4S(5, 20, 11)                 \
	VUSHL4S(6, 20, 12)

// SPLIT_TEST writes 1 to *R4++ if every mask bit is set in the block, else 0, and
// adds it to R5.
#define SPLIT_TEST \
	VBIC16B(0, 11, 11)             \
	VBIC16B(1, 12, 12)             \
	VORR V12.B16, V11.B16, V11.B16 \
	VUQXTN4H(11, 11)               \
	FMOVD F11, R8                  \
	CMP   $0, R8                   \
	CSET  EQ, R8                   \
	MOVB.P R8, 1(R4)               \
	ADD   R8, R5, R5

// SPLIT_SET ORs the masks into the block and stores it back.
#define SPLIT_SET \
	VORR V11.B16, V0.B16, V0.B16 \
	VORR V12.B16, V1.B16, V1.B16 \
	VST1 [V0.S4, V1.S4], (R7)

// func splitHasNEON(blocks *[8]uint32, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int
// Requires: ASIMD
TEXT ·splitHasNEON(SB), NOSPLIT, $0-88
	SPLIT_LOADARGS
	MOVD out_base+40(FP), R4
	MOVD pf+64(FP), R10
	MOVD npf+72(FP), R11
	MOVD ZR, R5
	CBZ  R11, tail
	SUB  R11, R3, R3 // keys left for the loop without prefetch

prefetching:
	SPLIT_PREFETCH(PLDL1KEEP)
	SPLIT_NEXTKEY
	SPLIT_TEST
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	SPLIT_NEXTKEY
	SPLIT_TEST
	SUBS $1, R3, R3
	BNE  loop

done:
	MOVD R5, ret+80(FP)
	RET

// func splitAddNEON(blocks *[8]uint32, nblocks uint64, hs []uint64, pf int, npf int)
// Requires: ASIMD
TEXT ·splitAddNEON(SB), NOSPLIT, $0-56
	SPLIT_LOADARGS
	MOVD pf+40(FP), R10
	MOVD npf+48(FP), R11
	CBZ  R11, tail
	SUB  R11, R3, R3

prefetching:
	SPLIT_PREFETCH(PSTL1KEEP)
	SPLIT_NEXTKEY
	SPLIT_SET
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	SPLIT_NEXTKEY
	SPLIT_SET
	SUBS $1, R3, R3
	BNE  loop

done:
	RET

// NEON batch lookup of Counting, with the TBL test described above the
// Filter lookups. It trusts that len(out) == len(hs) > 0, that nblocks > 0
// and that 0 <= npf <= len(hs)-pf.

// CMISSING sets V10 to 0xff in the lanes (of 8) whose counter is zero.
#define CMISSING \
	VUSHR $5, V7.B16, V9.B16        \
	VADD  V21.B16, V9.B16, V9.B16   \
	VUSHR $4, V7.B16, V8.B16        \
	VTBL  V8.B16, [V24.B16], V10.B16 \
	VTBL  V9.B16, [V0.B16, V1.B16, V2.B16, V3.B16], V11.B16 \
	VAND  V11.B16, V10.B16, V10.B16 \
	VCMEQ V25.B16, V10.B16, V10.B16

// func countingHasNEON(blocks *[8]uint64, nblocks uint64, hs []uint64, out []bool, pf int, npf int) int
// Requires: ASIMD
TEXT ·countingHasNEON(SB), NOSPLIT, $0-88
	LOADARGS
	TBLCONSTS
	MOVD out_base+40(FP), R4
	MOVD pf+64(FP), R10
	MOVD npf+72(FP), R11
	MOVD ZR, R5
	CBZ  R11, tail
	SUB  R11, R3, R3 // keys left for the loop without prefetch

prefetching:
	PREFETCH(PLDL1KEEP)
	TNEXTKEY
	TBYTES8
	CMISSING
	TANSWER
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	TNEXTKEY
	TBYTES8
	CMISSING
	TANSWER
	SUBS $1, R3, R3
	BNE  loop

done:
	MOVD R5, ret+80(FP)
	RET

// NEON batch add of Counting. It trusts that len(hs) > 0, that nblocks > 0
// and that 0 <= npf <= len(hs)-pf.
//
// One key per iteration, in order: the key's block (found as for Filter) is
// loaded in word order, V0-V3 = (w0, w1) ... (w6, w7), its 8 counters are
// stepped in 64-bit lanes, and the block is stored back before the next key
// is loaded, so keys of one batch that share a block see each other's
// increments, as in the pure-Go loop. Counter j = y>>28 of word i
// (y = x*salt[i]) is the nibble at bit c = 4j = (y & 0xf0000000)>>26:
//   - the salts are kept permuted, V26 = salts (0, 2, 1, 3) and
//     V27 = (4, 6, 5, 7), so that after the multiply and the AND with V21,
//     USHR.4S #26 leaves c0 and c1 in the low bytes of the two 64-bit lanes
//     (matching V0 = (w0, w1)) and USHR.2D #58 leaves c2 and c3 (matching V1);
//   - USHL of V22 (15 in each 64-bit lane) by c gives the nibble's mask M,
//     and BIC leaves n = M AND NOT w, which is zero iff the counter is 15;
//   - CMTST turns n into all ones where the counter is below 15, and USHL of
//     that by c gives -(1<<c) there and 0 at a saturated counter, which SUB
//     takes from the word: the counter steps by one, never carrying into
//     its neighbour, or stays at 15.
//
// USHL and BIC are the hand-encoded macros above; CMTST and SUB are encoded
// below (CSTEP takes register numbers), each checked with `go tool objdump`.

// CMTST Vd.2D, Vn.2D, Vm.2D (all ones where n AND m is not zero)
#define VCMTST2D(m, n, d) WORD $(0x4EE08C00 | (m)<<16 | (n)<<5 | (d))

// CSTEP(w, c, t) steps the counter at bit c (low byte of each lane of Vc) of
// both words of Vw, using Vt.
#define CSTEP(w, c, t) \
	VUSHL2D(c, 22, t)  /* M = 15<<c */ \
	VBIC16B(w, t, t)   /* n = M AND NOT w */ \
	VCMTST2D(t, t, t)  /* all ones iff the counter is below 15 */ \
	VUSHL2D(c, t, t)   /* -(1<<c), or 0 */ \
	WORD $(0x6EE08400 | (t)<<16 | (w)<<5 | (w)) /* SUB Vw.2D, Vw.2D, Vt.2D */

// CINC loads the next key's block, steps its 8 counters and stores it back.
#define CINC \
	MOVD.P 8(R2), R6                   \
	AND    $0xffffffff00000000, R6, R7 \
	UMULH  R1, R7, R7                  \
	ADD    R7<<6, R0, R7               \
	VDUP   R6, V4.S4                   \
	VLD1   (R7), [V0.D2, V1.D2, V2.D2, V3.D2] \
	VMUL4S(26, 4, 5)                   \
	VMUL4S(27, 4, 6)                   \
	VAND   V21.B16, V5.B16, V5.B16     \
	VAND   V21.B16, V6.B16, V6.B16     \
	VUSHR  $26, V5.S4, V7.S4           /* c0, c1 */ \
	VUSHR  $58, V5.D2, V8.D2           /* c2, c3 */ \
	VUSHR  $26, V6.S4, V9.S4           /* c4, c5 */ \
	VUSHR  $58, V6.D2, V10.D2          /* c6, c7 */ \
	CSTEP(0, 7, 11)                    \
	CSTEP(1, 8, 12)                    \
	CSTEP(2, 9, 13)                    \
	CSTEP(3, 10, 14)                   \
	VST1   [V0.D2, V1.D2, V2.D2, V3.D2], (R7)

// func countingAddNEON(blocks *[8]uint64, nblocks uint64, hs []uint64, pf int, npf int)
// Requires: ASIMD
TEXT ·countingAddNEON(SB), NOSPLIT, $0-56
	LOADARGS
	VUZP1 V16.S4, V16.S4, V8.S4 // salts 0, 2, 0, 2
	VUZP2 V16.S4, V16.S4, V9.S4 // 1, 3, 1, 3
	VZIP1 V9.D2, V8.D2, V26.D2  // 0, 2, 1, 3
	VUZP1 V17.S4, V17.S4, V8.S4
	VUZP2 V17.S4, V17.S4, V9.S4
	VZIP1 V9.D2, V8.D2, V27.D2  // 4, 6, 5, 7
	MOVW  $0xf0000000, R6
	VDUP  R6, V21.S4
	MOVD  $15, R6
	VDUP  R6, V22.D2
	MOVD  pf+40(FP), R10
	MOVD  npf+48(FP), R11
	CBZ   R11, tail
	SUB   R11, R3, R3

prefetching:
	PREFETCH(PSTL1KEEP)
	CINC
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	CINC
	SUBS $1, R3, R3
	BNE  loop

done:
	RET
