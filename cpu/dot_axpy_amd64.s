#include "textflag.h"

// CPU feature queries, the matrix-vector axpy loop of dot.go and the
// outer-product rows of dot_outer.go.

// func dotCPUID(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·dotCPUID(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func dotXGETBV() (eax, edx uint32)
TEXT ·dotXGETBV(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func axpyF32AVX(out, x *float32, w float32, n int)
// out[i] = out[i] + round(x[i]*w) for i < n, n a multiple of 32: the
// matrix-vector loop of dot.go with separate multiply and add.
TEXT ·axpyF32AVX(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	VBROADCASTSS w+16(FP), Y15
	MOVQ n+24(FP), CX
	SHRQ $5, CX
	JZ   axpy32done

axpy32loop:
	VMULPS 0(SI), Y15, Y0
	VMULPS 32(SI), Y15, Y1
	VMULPS 64(SI), Y15, Y2
	VMULPS 96(SI), Y15, Y3
	VADDPS 0(DI), Y0, Y0
	VADDPS 32(DI), Y1, Y1
	VADDPS 64(DI), Y2, Y2
	VADDPS 96(DI), Y3, Y3
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  axpy32loop

axpy32done:
	VZEROUPPER
	RET

// func axpyF64AVX(out, x *float64, w float64, n int)
// The same for float64, n a multiple of 16.
TEXT ·axpyF64AVX(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	VBROADCASTSD w+16(FP), Y15
	MOVQ n+24(FP), CX
	SHRQ $4, CX
	JZ   axpy64done

axpy64loop:
	VMULPD 0(SI), Y15, Y0
	VMULPD 32(SI), Y15, Y1
	VMULPD 64(SI), Y15, Y2
	VMULPD 96(SI), Y15, Y3
	VADDPD 0(DI), Y0, Y0
	VADDPD 32(DI), Y1, Y1
	VADDPD 64(DI), Y2, Y2
	VADDPD 96(DI), Y3, Y3
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  axpy64loop

axpy64done:
	VZEROUPPER
	RET

// func outerRowsF32AVX(out, y, a *float32, aStride, rows, n int)
// out[r*n+j] = round(y[j]*a[r*aStride]) + 0 for r < rows and j < n&^7:
// rows of a batch of outer products written once each, the
// +0 of the dot's empty sum added as dot.go's kernels add it (a product of
// -0 becomes +0).
TEXT ·outerRowsF32AVX(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ y+8(FP), SI
	MOVQ a+16(FP), DX
	MOVQ aStride+24(FP), R8
	SHLQ $2, R8
	MOVQ rows+32(FP), R9
	MOVQ n+40(FP), R10
	MOVQ R10, R12
	SHLQ $2, R12
	SHRQ $3, R10
	JZ   outer32done
	TESTQ R9, R9
	JZ   outer32done
	VXORPS Y14, Y14, Y14

outer32row:
	VBROADCASTSS 0(DX), Y15
	MOVQ SI, R11
	MOVQ DI, R13
	MOVQ R10, CX

outer32col:
	VMULPS 0(R11), Y15, Y0
	VADDPS Y14, Y0, Y0
	VMOVUPS Y0, 0(DI)
	ADDQ $32, R11
	ADDQ $32, DI
	DECQ CX
	JNZ  outer32col
	LEAQ (R13)(R12*1), DI
	ADDQ R8, DX
	DECQ R9
	JNZ  outer32row

outer32done:
	VZEROUPPER
	RET

// func outerRowsF64AVX(out, y, a *float64, aStride, rows, n int)
// The same for float64, j < n&^3.
TEXT ·outerRowsF64AVX(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ y+8(FP), SI
	MOVQ a+16(FP), DX
	MOVQ aStride+24(FP), R8
	SHLQ $3, R8
	MOVQ rows+32(FP), R9
	MOVQ n+40(FP), R10
	MOVQ R10, R12
	SHLQ $3, R12
	SHRQ $2, R10
	JZ   outer64done
	TESTQ R9, R9
	JZ   outer64done
	VXORPD Y14, Y14, Y14

outer64row:
	VBROADCASTSD 0(DX), Y15
	MOVQ SI, R11
	MOVQ DI, R13
	MOVQ R10, CX

outer64col:
	VMULPD 0(R11), Y15, Y0
	VADDPD Y14, Y0, Y0
	VMOVUPD Y0, 0(DI)
	ADDQ $32, R11
	ADDQ $32, DI
	DECQ CX
	JNZ  outer64col
	LEAQ (R13)(R12*1), DI
	ADDQ R8, DX
	DECQ R9
	JNZ  outer64row

outer64done:
	VZEROUPPER
	RET
