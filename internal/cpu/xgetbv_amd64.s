//go:build amd64 && !purego

#include "textflag.h"

// func xgetbv0() uint64
// Requires: OSXSAVE
TEXT ·xgetbv0(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	SHLQ $32, DX
	MOVL AX, AX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET
