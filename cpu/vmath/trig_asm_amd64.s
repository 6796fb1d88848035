//go:build amd64 && !goexperiment.simd

#include "textflag.h"

// AVX sin and cos (trig_asm_amd64.go): per 4 float32, widened to float64,
// exactly sinLanes/cosLanes's operations in their order:
//   hi = x·invPi1; shifted = hi + roundShift (cos: (hi − ½) + roundShift)
//   f = (hi − (shifted − roundShift)) + x·invPi2 (cos: − ((shifted − roundShift) + ½))
//   y = f·(c0 + s·(c1 + s·(c2 + s·(c3 + s·c4)))), s = f·f
// rounded to float32, then the sign flipped by n's parity (the low bit of
// shifted's bits; cos: of those plus one), as flipSign does.
// k points at [invPi1, invPi2, roundShift, c0, c1, c2, c3, c4, ½].
// n is a positive multiple of 4.

// func sinLanesAVXAsm(dst, x *float32, n int, k *[9]float64)
TEXT ·sinLanesAVXAsm(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ k+24(FP), DX
	VBROADCASTSD 0(DX), Y8
	VBROADCASTSD 8(DX), Y9
	VBROADCASTSD 16(DX), Y10
	VBROADCASTSD 24(DX), Y11
	VBROADCASTSD 32(DX), Y12
	VBROADCASTSD 40(DX), Y13
	VBROADCASTSD 48(DX), Y14
	VBROADCASTSD 56(DX), Y15
	XORQ AX, AX
sinLanesAVXAsmloop:
	VCVTPS2PD (SI)(AX*4), Y0   // xd
	VMULPD Y8, Y0, Y1          // hi
	VADDPD Y10, Y1, Y2         // shifted
	VSUBPD Y10, Y2, Y3         // shifted - roundShift
	VSUBPD Y3, Y1, Y3          // hi - (...)
	VMULPD Y9, Y0, Y4          // xd*invPi2
	VADDPD Y4, Y3, Y3          // f
	VMULPD Y3, Y3, Y4          // s
	VMULPD Y15, Y4, Y5         // s*c4
	VADDPD Y14, Y5, Y5         // c3 + s*c4
	VMULPD Y5, Y4, Y5
	VADDPD Y13, Y5, Y5         // c2 + s*(...)
	VMULPD Y5, Y4, Y5
	VADDPD Y12, Y5, Y5         // c1 + s*(...)
	VMULPD Y5, Y4, Y5
	VADDPD Y11, Y5, Y5         // c0 + s*(...)
	VMULPD Y5, Y3, Y5          // f*(...)
	VCVTPD2PSY Y5, X5          // float32
	VEXTRACTF128 $1, Y2, X6
	VSHUFPS $0x88, X6, X2, X6 // low words of shifted's lanes 0..3
	VPSLLD $31, X6, X6
	VXORPS X6, X5, X5
	VMOVUPS X5, (DI)(AX*4)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT sinLanesAVXAsmloop
	VZEROUPPER
	RET

// func cosLanesAVXAsm(dst, x *float32, n int, k *[9]float64)
TEXT ·cosLanesAVXAsm(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ k+24(FP), DX
	VBROADCASTSD 0(DX), Y8
	VBROADCASTSD 8(DX), Y9
	VBROADCASTSD 16(DX), Y10
	VBROADCASTSD 24(DX), Y11
	VBROADCASTSD 32(DX), Y12
	VBROADCASTSD 40(DX), Y13
	VBROADCASTSD 48(DX), Y14
	VBROADCASTSD 56(DX), Y15
	MOVL $1, BX
	VMOVD BX, X7
	VPSHUFD $0, X7, X7 // four int32 ones
	XORQ AX, AX
cosLanesAVXAsmloop:
	VCVTPS2PD (SI)(AX*4), Y0   // xd
	VMULPD Y8, Y0, Y1          // hi
	VBROADCASTSD 64(DX), Y6    // 1/2
	VSUBPD Y6, Y1, Y2          // hi - 1/2
	VADDPD Y10, Y2, Y2         // shifted
	VSUBPD Y10, Y2, Y3         // shifted - roundShift
	VADDPD Y6, Y3, Y3          // + 1/2
	VSUBPD Y3, Y1, Y3          // hi - (...)
	VMULPD Y9, Y0, Y4          // xd*invPi2
	VADDPD Y4, Y3, Y3          // f
	VMULPD Y3, Y3, Y4          // s
	VMULPD Y15, Y4, Y5         // s*c4
	VADDPD Y14, Y5, Y5         // c3 + s*c4
	VMULPD Y5, Y4, Y5
	VADDPD Y13, Y5, Y5         // c2 + s*(...)
	VMULPD Y5, Y4, Y5
	VADDPD Y12, Y5, Y5         // c1 + s*(...)
	VMULPD Y5, Y4, Y5
	VADDPD Y11, Y5, Y5         // c0 + s*(...)
	VMULPD Y5, Y3, Y5          // f*(...)
	VCVTPD2PSY Y5, X5          // float32
	VEXTRACTF128 $1, Y2, X6
	VSHUFPS $0x88, X6, X2, X6 // low words of shifted's lanes 0..3
	VPADDD X7, X6, X6
	VPSLLD $31, X6, X6
	VXORPS X6, X5, X5
	VMOVUPS X5, (DI)(AX*4)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT cosLanesAVXAsmloop
	VZEROUPPER
	RET

// func trigCPUID(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·trigCPUID(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func trigXGETBV() (eax, edx uint32)
TEXT ·trigXGETBV(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
