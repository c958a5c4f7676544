//go:build !purego

#include "textflag.h"

// NEON batch kernels of SplitBlock, the Parquet split block filter. The Go
// declarations and the length checks are in splitblock_arch_arm64.go; these
// loops trust that len(out) == len(hs) > 0, that blocks is not empty and
// that 0 <= npf <= len(hs)-pf.
//
// One key per iteration: the block (32 bytes, eight little-endian uint32
// words) is at blocks + 32*((h>>32)*len(blocks) >> 32), computed as
// UMULH(h &^ 0xffffffff, len(blocks)); it is loaded into V0 = (w0..w3) and
// V1 = (w4..w7). x = uint32(h) is broadcast, multiplied by the Parquet salts
// (V16, V17), shifted right by 27, and USHL of a vector of ones by those
// positions gives the masks 1<<p in each 32-bit lane (USHL reads the low
// byte of each lane, here the whole position). A lookup is true iff no mask
// bit is missing from the words; an add ORs the masks in and stores the
// block back before the next key, so keys sharing a block are handled in
// order. For the first npf keys the loop also prefetches the block of the
// key pf places ahead.
//
// Go's assembler has no vector MUL, USHL, BIC or UQXTN: they are encoded by
// hand (register numbers are plain integers 0-31), each checked with
// `go tool objdump` on an arm64 test binary. R18 (platform), R26-R30 are
// not used.

// MUL Vd.4S, Vn.4S, Vm.4S
#define VMUL4S(m, n, d) WORD $(0x4EA09C00 | (m)<<16 | (n)<<5 | (d))
// USHL Vd.4S, Vn.4S, Vm.4S
#define VUSHL4S(m, n, d) WORD $(0x6EA04400 | (m)<<16 | (n)<<5 | (d))
// BIC Vd.16B, Vn.16B, Vm.16B (d = n AND NOT m)
#define VBIC16B(m, n, d) WORD $(0x4E601C00 | (m)<<16 | (n)<<5 | (d))
// UQXTN Vd.4H, Vn.4S (saturating narrow: a non-zero lane stays non-zero)
#define VUQXTN4H(n, d) WORD $(0x2E614800 | (n)<<5 | (d))

// LOADARGS: R0 = blocks, R1 = len(blocks), R2 = hs, R3 = len(hs),
// R10 = pf, V16-V17 = salts, V20 = 1 in every 32-bit lane.
#define LOADARGS \
	MOVD blocks_base+0(FP), R0              \
	MOVD blocks_len+8(FP), R1               \
	MOVD hs_base+24(FP), R2                 \
	MOVD hs_len+32(FP), R3                  \
	MOVD $·splitSalt(SB), R6                \
	VLD1 (R6), [V16.S4, V17.S4]             \
	MOVW $1, R6                             \
	VDUP R6, V20.S4

// PREFETCH(hint) prefetches the block of the hash R10 keys ahead of R2.
#define PREFETCH(hint) \
	MOVD  (R2)(R10<<3), R12             \
	AND   $0xffffffff00000000, R12, R12 \
	UMULH R1, R12, R12                  \
	ADD   R12<<5, R0, R12               \
	PRFM  (R12), hint

// NEXTKEY loads the next hash, its block's address into R7, the block into
// V0-V1, and sets the masks in V11 (words 0-3) and V12 (words 4-7).
#define NEXTKEY \
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

// TEST writes 1 to *R4++ if every mask bit is set in the block, else 0, and
// adds it to R5.
#define TEST \
	VBIC16B(0, 11, 11)             \
	VBIC16B(1, 12, 12)             \
	VORR V12.B16, V11.B16, V11.B16 \
	VUQXTN4H(11, 11)               \
	FMOVD F11, R8                  \
	CMP   $0, R8                   \
	CSET  EQ, R8                   \
	MOVB.P R8, 1(R4)               \
	ADD   R8, R5, R5

// SET ORs the masks into the block and stores it back.
#define SET \
	VORR V11.B16, V0.B16, V0.B16 \
	VORR V12.B16, V1.B16, V1.B16 \
	VST1 [V0.S4, V1.S4], (R7)

// func splitHasNEON(blocks []splitBlock, hs []uint64, out []bool, pf int, npf int) int
TEXT ·splitHasNEON(SB), NOSPLIT, $0-96
	LOADARGS
	MOVD out_base+48(FP), R4
	MOVD pf+72(FP), R10
	MOVD npf+80(FP), R11
	MOVD ZR, R5
	CBZ  R11, tail
	SUB  R11, R3, R3 // keys left for the loop without prefetch

prefetching:
	PREFETCH(PLDL1KEEP)
	NEXTKEY
	TEST
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	NEXTKEY
	TEST
	SUBS $1, R3, R3
	BNE  loop

done:
	MOVD R5, ret+88(FP)
	RET

// func splitAddNEON(blocks []splitBlock, hs []uint64, pf int, npf int)
TEXT ·splitAddNEON(SB), NOSPLIT, $0-64
	LOADARGS
	MOVD pf+48(FP), R10
	MOVD npf+56(FP), R11
	CBZ  R11, tail
	SUB  R11, R3, R3

prefetching:
	PREFETCH(PSTL1KEEP)
	NEXTKEY
	SET
	SUBS $1, R11, R11
	BNE  prefetching

tail:
	CBZ R3, done

loop:
	NEXTKEY
	SET
	SUBS $1, R3, R3
	BNE  loop

done:
	RET
