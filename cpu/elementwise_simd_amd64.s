#include "textflag.h"

// AVX kernels for float block ops (elementwise_simd_amd64.go). Each does
// one IEEE operation per element, exactly as the Go loops do (no FMA, no
// reassociation), so results are the same bits with or without them.
// n is a positive multiple of 8 float32 or 4 float64 (one vector); dst may
// be the very memory of an operand.
//
// max and min keep XLA's semantics bit for bit: max(a, b) is a when
// a >= b or a is NaN, else b (min: a <= b); so NaN propagates from either
// side and ties, +0 against -0 included, return the first operand. Each
// vector is a >= b (ordered compare) OR a unordered with itself, then a
// blend picking a where the mask is set.
//
// The integer kernels (AVX2, wrapping like Go's arithmetic) take n a
// positive multiple of 8 int32 or 4 int64.

DATA signF32<>+0(SB)/4, $0x80000000
GLOBL signF32<>(SB), RODATA|NOPTR, $4
DATA signF64<>+0(SB)/8, $0x8000000000000000
GLOBL signF64<>(SB), RODATA|NOPTR, $8

// func addF32AVX(dst, x, y *float32, n int)
TEXT ·addF32AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
addF32AVXloop2:
	LEAQ 16(AX), BX
	CMPQ BX, CX
	JGT addF32AVXone
	VMOVUPS 0(SI)(AX*4), Y0
	VADDPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
	VMOVUPS 32(SI)(AX*4), Y4
	VADDPS 32(DX)(AX*4), Y4, Y4
	VMOVUPS Y4, 32(DI)(AX*4)
	MOVQ BX, AX
	JMP addF32AVXloop2
addF32AVXone:
	CMPQ AX, CX
	JGE addF32AVXdone
	VMOVUPS 0(SI)(AX*4), Y0
	VADDPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
addF32AVXdone:
	VZEROUPPER
	RET

// func subF32AVX(dst, x, y *float32, n int)
TEXT ·subF32AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
subF32AVXloop2:
	LEAQ 16(AX), BX
	CMPQ BX, CX
	JGT subF32AVXone
	VMOVUPS 0(SI)(AX*4), Y0
	VSUBPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
	VMOVUPS 32(SI)(AX*4), Y4
	VSUBPS 32(DX)(AX*4), Y4, Y4
	VMOVUPS Y4, 32(DI)(AX*4)
	MOVQ BX, AX
	JMP subF32AVXloop2
subF32AVXone:
	CMPQ AX, CX
	JGE subF32AVXdone
	VMOVUPS 0(SI)(AX*4), Y0
	VSUBPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
subF32AVXdone:
	VZEROUPPER
	RET

// func mulF32AVX(dst, x, y *float32, n int)
TEXT ·mulF32AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
mulF32AVXloop2:
	LEAQ 16(AX), BX
	CMPQ BX, CX
	JGT mulF32AVXone
	VMOVUPS 0(SI)(AX*4), Y0
	VMULPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
	VMOVUPS 32(SI)(AX*4), Y4
	VMULPS 32(DX)(AX*4), Y4, Y4
	VMOVUPS Y4, 32(DI)(AX*4)
	MOVQ BX, AX
	JMP mulF32AVXloop2
mulF32AVXone:
	CMPQ AX, CX
	JGE mulF32AVXdone
	VMOVUPS 0(SI)(AX*4), Y0
	VMULPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
mulF32AVXdone:
	VZEROUPPER
	RET

// func divF32AVX(dst, x, y *float32, n int)
TEXT ·divF32AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
divF32AVXloop2:
	LEAQ 16(AX), BX
	CMPQ BX, CX
	JGT divF32AVXone
	VMOVUPS 0(SI)(AX*4), Y0
	VDIVPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
	VMOVUPS 32(SI)(AX*4), Y4
	VDIVPS 32(DX)(AX*4), Y4, Y4
	VMOVUPS Y4, 32(DI)(AX*4)
	MOVQ BX, AX
	JMP divF32AVXloop2
divF32AVXone:
	CMPQ AX, CX
	JGE divF32AVXdone
	VMOVUPS 0(SI)(AX*4), Y0
	VDIVPS 0(DX)(AX*4), Y0, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
divF32AVXdone:
	VZEROUPPER
	RET

// func maxF32AVX(dst, x, y *float32, n int)
TEXT ·maxF32AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
maxF32AVXloop2:
	LEAQ 16(AX), BX
	CMPQ BX, CX
	JGT maxF32AVXone
	VMOVUPS 0(SI)(AX*4), Y0
	VMOVUPS 0(DX)(AX*4), Y1
	VCMPPS $0x1d, Y1, Y0, Y2
	VCMPPS $3, Y0, Y0, Y3
	VORPS Y3, Y2, Y2
	VBLENDVPS Y2, Y0, Y1, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
	VMOVUPS 32(SI)(AX*4), Y4
	VMOVUPS 32(DX)(AX*4), Y5
	VCMPPS $0x1d, Y5, Y4, Y6
	VCMPPS $3, Y4, Y4, Y7
	VORPS Y7, Y6, Y6
	VBLENDVPS Y6, Y4, Y5, Y4
	VMOVUPS Y4, 32(DI)(AX*4)
	MOVQ BX, AX
	JMP maxF32AVXloop2
maxF32AVXone:
	CMPQ AX, CX
	JGE maxF32AVXdone
	VMOVUPS 0(SI)(AX*4), Y0
	VMOVUPS 0(DX)(AX*4), Y1
	VCMPPS $0x1d, Y1, Y0, Y2
	VCMPPS $3, Y0, Y0, Y3
	VORPS Y3, Y2, Y2
	VBLENDVPS Y2, Y0, Y1, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
maxF32AVXdone:
	VZEROUPPER
	RET

// func minF32AVX(dst, x, y *float32, n int)
TEXT ·minF32AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
minF32AVXloop2:
	LEAQ 16(AX), BX
	CMPQ BX, CX
	JGT minF32AVXone
	VMOVUPS 0(SI)(AX*4), Y0
	VMOVUPS 0(DX)(AX*4), Y1
	VCMPPS $0x12, Y1, Y0, Y2
	VCMPPS $3, Y0, Y0, Y3
	VORPS Y3, Y2, Y2
	VBLENDVPS Y2, Y0, Y1, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
	VMOVUPS 32(SI)(AX*4), Y4
	VMOVUPS 32(DX)(AX*4), Y5
	VCMPPS $0x12, Y5, Y4, Y6
	VCMPPS $3, Y4, Y4, Y7
	VORPS Y7, Y6, Y6
	VBLENDVPS Y6, Y4, Y5, Y4
	VMOVUPS Y4, 32(DI)(AX*4)
	MOVQ BX, AX
	JMP minF32AVXloop2
minF32AVXone:
	CMPQ AX, CX
	JGE minF32AVXdone
	VMOVUPS 0(SI)(AX*4), Y0
	VMOVUPS 0(DX)(AX*4), Y1
	VCMPPS $0x12, Y1, Y0, Y2
	VCMPPS $3, Y0, Y0, Y3
	VORPS Y3, Y2, Y2
	VBLENDVPS Y2, Y0, Y1, Y0
	VMOVUPS Y0, 0(DI)(AX*4)
minF32AVXdone:
	VZEROUPPER
	RET

// func negF32AVX(dst, x *float32, n int)
TEXT ·negF32AVX(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	VBROADCASTSS signF32<>(SB), Y7
negF32AVXloop:
	VMOVUPS (SI)(AX*4), Y0
	VXORPS Y7, Y0, Y0
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT negF32AVXloop
	VZEROUPPER
	RET

// func squareF32AVX(dst, x *float32, n int)
TEXT ·squareF32AVX(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
squareF32AVXloop:
	VMOVUPS (SI)(AX*4), Y0
	VMULPS Y0, Y0, Y0
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT squareF32AVXloop
	VZEROUPPER
	RET

// func addF64AVX(dst, x, y *float64, n int)
TEXT ·addF64AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
addF64AVXloop2:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT addF64AVXone
	VMOVUPD 0(SI)(AX*8), Y0
	VADDPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
	VMOVUPD 32(SI)(AX*8), Y4
	VADDPD 32(DX)(AX*8), Y4, Y4
	VMOVUPD Y4, 32(DI)(AX*8)
	MOVQ BX, AX
	JMP addF64AVXloop2
addF64AVXone:
	CMPQ AX, CX
	JGE addF64AVXdone
	VMOVUPD 0(SI)(AX*8), Y0
	VADDPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
addF64AVXdone:
	VZEROUPPER
	RET

// func subF64AVX(dst, x, y *float64, n int)
TEXT ·subF64AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
subF64AVXloop2:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT subF64AVXone
	VMOVUPD 0(SI)(AX*8), Y0
	VSUBPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
	VMOVUPD 32(SI)(AX*8), Y4
	VSUBPD 32(DX)(AX*8), Y4, Y4
	VMOVUPD Y4, 32(DI)(AX*8)
	MOVQ BX, AX
	JMP subF64AVXloop2
subF64AVXone:
	CMPQ AX, CX
	JGE subF64AVXdone
	VMOVUPD 0(SI)(AX*8), Y0
	VSUBPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
subF64AVXdone:
	VZEROUPPER
	RET

// func mulF64AVX(dst, x, y *float64, n int)
TEXT ·mulF64AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
mulF64AVXloop2:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT mulF64AVXone
	VMOVUPD 0(SI)(AX*8), Y0
	VMULPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
	VMOVUPD 32(SI)(AX*8), Y4
	VMULPD 32(DX)(AX*8), Y4, Y4
	VMOVUPD Y4, 32(DI)(AX*8)
	MOVQ BX, AX
	JMP mulF64AVXloop2
mulF64AVXone:
	CMPQ AX, CX
	JGE mulF64AVXdone
	VMOVUPD 0(SI)(AX*8), Y0
	VMULPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
mulF64AVXdone:
	VZEROUPPER
	RET

// func divF64AVX(dst, x, y *float64, n int)
TEXT ·divF64AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
divF64AVXloop2:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT divF64AVXone
	VMOVUPD 0(SI)(AX*8), Y0
	VDIVPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
	VMOVUPD 32(SI)(AX*8), Y4
	VDIVPD 32(DX)(AX*8), Y4, Y4
	VMOVUPD Y4, 32(DI)(AX*8)
	MOVQ BX, AX
	JMP divF64AVXloop2
divF64AVXone:
	CMPQ AX, CX
	JGE divF64AVXdone
	VMOVUPD 0(SI)(AX*8), Y0
	VDIVPD 0(DX)(AX*8), Y0, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
divF64AVXdone:
	VZEROUPPER
	RET

// func maxF64AVX(dst, x, y *float64, n int)
TEXT ·maxF64AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
maxF64AVXloop2:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT maxF64AVXone
	VMOVUPD 0(SI)(AX*8), Y0
	VMOVUPD 0(DX)(AX*8), Y1
	VCMPPD $0x1d, Y1, Y0, Y2
	VCMPPD $3, Y0, Y0, Y3
	VORPD Y3, Y2, Y2
	VBLENDVPD Y2, Y0, Y1, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
	VMOVUPD 32(SI)(AX*8), Y4
	VMOVUPD 32(DX)(AX*8), Y5
	VCMPPD $0x1d, Y5, Y4, Y6
	VCMPPD $3, Y4, Y4, Y7
	VORPD Y7, Y6, Y6
	VBLENDVPD Y6, Y4, Y5, Y4
	VMOVUPD Y4, 32(DI)(AX*8)
	MOVQ BX, AX
	JMP maxF64AVXloop2
maxF64AVXone:
	CMPQ AX, CX
	JGE maxF64AVXdone
	VMOVUPD 0(SI)(AX*8), Y0
	VMOVUPD 0(DX)(AX*8), Y1
	VCMPPD $0x1d, Y1, Y0, Y2
	VCMPPD $3, Y0, Y0, Y3
	VORPD Y3, Y2, Y2
	VBLENDVPD Y2, Y0, Y1, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
maxF64AVXdone:
	VZEROUPPER
	RET

// func minF64AVX(dst, x, y *float64, n int)
TEXT ·minF64AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
minF64AVXloop2:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT minF64AVXone
	VMOVUPD 0(SI)(AX*8), Y0
	VMOVUPD 0(DX)(AX*8), Y1
	VCMPPD $0x12, Y1, Y0, Y2
	VCMPPD $3, Y0, Y0, Y3
	VORPD Y3, Y2, Y2
	VBLENDVPD Y2, Y0, Y1, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
	VMOVUPD 32(SI)(AX*8), Y4
	VMOVUPD 32(DX)(AX*8), Y5
	VCMPPD $0x12, Y5, Y4, Y6
	VCMPPD $3, Y4, Y4, Y7
	VORPD Y7, Y6, Y6
	VBLENDVPD Y6, Y4, Y5, Y4
	VMOVUPD Y4, 32(DI)(AX*8)
	MOVQ BX, AX
	JMP minF64AVXloop2
minF64AVXone:
	CMPQ AX, CX
	JGE minF64AVXdone
	VMOVUPD 0(SI)(AX*8), Y0
	VMOVUPD 0(DX)(AX*8), Y1
	VCMPPD $0x12, Y1, Y0, Y2
	VCMPPD $3, Y0, Y0, Y3
	VORPD Y3, Y2, Y2
	VBLENDVPD Y2, Y0, Y1, Y0
	VMOVUPD Y0, 0(DI)(AX*8)
minF64AVXdone:
	VZEROUPPER
	RET

// func negF64AVX(dst, x *float64, n int)
TEXT ·negF64AVX(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	VBROADCASTSD signF64<>(SB), Y7
negF64AVXloop:
	VMOVUPD (SI)(AX*8), Y0
	VXORPD Y7, Y0, Y0
	VMOVUPD Y0, (DI)(AX*8)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT negF64AVXloop
	VZEROUPPER
	RET

// func squareF64AVX(dst, x *float64, n int)
TEXT ·squareF64AVX(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
squareF64AVXloop:
	VMOVUPD (SI)(AX*8), Y0
	VMULPD Y0, Y0, Y0
	VMOVUPD Y0, (DI)(AX*8)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT squareF64AVXloop
	VZEROUPPER
	RET

// func addI32AVX2(dst, x, y *int32, n int)
TEXT ·addI32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
addI32AVX2loop:
	VMOVDQU (SI)(AX*4), Y0
	VPADDD (DX)(AX*4), Y0, Y0
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT addI32AVX2loop
	VZEROUPPER
	RET

// func subI32AVX2(dst, x, y *int32, n int)
TEXT ·subI32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
subI32AVX2loop:
	VMOVDQU (SI)(AX*4), Y0
	VPSUBD (DX)(AX*4), Y0, Y0
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT subI32AVX2loop
	VZEROUPPER
	RET

// func mulI32AVX2(dst, x, y *int32, n int)
TEXT ·mulI32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
mulI32AVX2loop:
	VMOVDQU (SI)(AX*4), Y0
	VPMULLD (DX)(AX*4), Y0, Y0
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT mulI32AVX2loop
	VZEROUPPER
	RET

// func addI64AVX2(dst, x, y *int64, n int)
TEXT ·addI64AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
addI64AVX2loop:
	VMOVDQU (SI)(AX*8), Y0
	VPADDQ (DX)(AX*8), Y0, Y0
	VMOVDQU Y0, (DI)(AX*8)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT addI64AVX2loop
	VZEROUPPER
	RET

// func subI64AVX2(dst, x, y *int64, n int)
TEXT ·subI64AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
subI64AVX2loop:
	VMOVDQU (SI)(AX*8), Y0
	VPSUBQ (DX)(AX*8), Y0, Y0
	VMOVDQU Y0, (DI)(AX*8)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT subI64AVX2loop
	VZEROUPPER
	RET

// func cvtI32F32AVX(dst *float32, x *int32, n int)
// Rounds to nearest even, as Go's conversion does (both follow MXCSR).
TEXT ·cvtI32F32AVX(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
cvtI32F32AVXloop:
	VCVTDQ2PS (SI)(AX*4), Y0
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT cvtI32F32AVXloop
	VZEROUPPER
	RET
