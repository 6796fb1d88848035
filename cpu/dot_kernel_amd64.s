#include "textflag.h"

// float32 and float64 matmul micro-kernels for gemm (dot_gemm.go). Each computes one
// MR×NR tile of C from packed slivers: per contracting index p, NR values
// of B (one sliver row) are loaded, each of the MR values of A is
// broadcast, and every accumulator gets acc = acc + round(a*b) with a
// separate VMULPS and VADDPS: no fused multiply-add, so every output is
// bit-identical to the portable Go kernel's sequential sum.
//
// func(kc int, a, b, c *float32, ldc int, accumulate bool)
// a: kc×MR packed, b: kc×NR packed, c: row stride ldc floats. If accumulate,
// the accumulators start from C, else from +0.

// ROW6 multiplies broadcast A value number r (at byte offset off in the A
// sliver row) by the two B vectors and adds into accumulators lo, hi.
#define ROW6(off, lo, hi) \
	VBROADCASTSS off(AX), Y14; \
	VMULPS Y12, Y14, Y15; \
	VADDPS Y15, lo, lo; \
	VMULPS Y13, Y14, Y15; \
	VADDPS Y15, hi, hi

// func gemmTileF32AVX2(kc int, a, b, c *float32, ldc int, accumulate bool)
TEXT ·gemmTileF32AVX2(SB), NOSPLIT, $0-41
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8 // row stride in bytes
	MOVBLZX accumulate+40(FP), R9
	TESTQ R9, R9
	JZ   zero6

	MOVQ DX, R10
	VMOVUPS (R10), Y0
	VMOVUPS 32(R10), Y1
	ADDQ R8, R10
	VMOVUPS (R10), Y2
	VMOVUPS 32(R10), Y3
	ADDQ R8, R10
	VMOVUPS (R10), Y4
	VMOVUPS 32(R10), Y5
	ADDQ R8, R10
	VMOVUPS (R10), Y6
	VMOVUPS 32(R10), Y7
	ADDQ R8, R10
	VMOVUPS (R10), Y8
	VMOVUPS 32(R10), Y9
	ADDQ R8, R10
	VMOVUPS (R10), Y10
	VMOVUPS 32(R10), Y11
	JMP  loop6

zero6:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

loop6:
	VMOVUPS (BX), Y12
	VMOVUPS 32(BX), Y13
	ROW6(0, Y0, Y1)
	ROW6(4, Y2, Y3)
	ROW6(8, Y4, Y5)
	ROW6(12, Y6, Y7)
	ROW6(16, Y8, Y9)
	ROW6(20, Y10, Y11)
	ADDQ $24, AX
	ADDQ $64, BX
	DECQ CX
	JNZ  loop6

	MOVQ DX, R10
	VMOVUPS Y0, (R10)
	VMOVUPS Y1, 32(R10)
	ADDQ R8, R10
	VMOVUPS Y2, (R10)
	VMOVUPS Y3, 32(R10)
	ADDQ R8, R10
	VMOVUPS Y4, (R10)
	VMOVUPS Y5, 32(R10)
	ADDQ R8, R10
	VMOVUPS Y6, (R10)
	VMOVUPS Y7, 32(R10)
	ADDQ R8, R10
	VMOVUPS Y8, (R10)
	VMOVUPS Y9, 32(R10)
	ADDQ R8, R10
	VMOVUPS Y10, (R10)
	VMOVUPS Y11, 32(R10)
	VZEROUPPER
	RET

// ROW8 is ROW6 with 512-bit vectors: 16 floats each, two per row.
#define ROW8(off, lo, hi) \
	VBROADCASTSS off(AX), Z18; \
	VMULPS Z16, Z18, Z19; \
	VADDPS Z19, lo, lo; \
	VMULPS Z17, Z18, Z20; \
	VADDPS Z20, hi, hi

#define LOAD8(lo, hi) \
	VMOVUPS (R10), lo; \
	VMOVUPS 64(R10), hi; \
	ADDQ R8, R10

#define STORE8(lo, hi) \
	VMOVUPS lo, (R10); \
	VMOVUPS hi, 64(R10); \
	ADDQ R8, R10

// func gemmTileF32AVX512(kc int, a, b, c *float32, ldc int, accumulate bool)
// An 8×32 tile in Z0..Z15.
TEXT ·gemmTileF32AVX512(SB), NOSPLIT, $0-41
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8
	MOVBLZX accumulate+40(FP), R9
	TESTQ R9, R9
	JZ   zero8

	MOVQ DX, R10
	LOAD8(Z0, Z1)
	LOAD8(Z2, Z3)
	LOAD8(Z4, Z5)
	LOAD8(Z6, Z7)
	LOAD8(Z8, Z9)
	LOAD8(Z10, Z11)
	LOAD8(Z12, Z13)
	LOAD8(Z14, Z15)
	JMP  loop8

zero8:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15

loop8:
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	ROW8(0, Z0, Z1)
	ROW8(4, Z2, Z3)
	ROW8(8, Z4, Z5)
	ROW8(12, Z6, Z7)
	ROW8(16, Z8, Z9)
	ROW8(20, Z10, Z11)
	ROW8(24, Z12, Z13)
	ROW8(28, Z14, Z15)
	ADDQ $32, AX
	ADDQ $128, BX
	DECQ CX
	JNZ  loop8

	MOVQ DX, R10
	STORE8(Z0, Z1)
	STORE8(Z2, Z3)
	STORE8(Z4, Z5)
	STORE8(Z6, Z7)
	STORE8(Z8, Z9)
	STORE8(Z10, Z11)
	STORE8(Z12, Z13)
	STORE8(Z14, Z15)
	VZEROUPPER
	RET

// The float64 kernels are the float32 ones with doubles: a 6×8 tile in
// YMM registers (AVX2) and an 8×16 tile in ZMM registers (AVX-512).

#define ROW6D(off, lo, hi) \
	VBROADCASTSD off(AX), Y14; \
	VMULPD Y12, Y14, Y15; \
	VADDPD Y15, lo, lo; \
	VMULPD Y13, Y14, Y15; \
	VADDPD Y15, hi, hi

#define LOAD6(lo, hi) \
	VMOVUPD (R10), lo; \
	VMOVUPD 32(R10), hi; \
	ADDQ R8, R10

#define STORE6(lo, hi) \
	VMOVUPD lo, (R10); \
	VMOVUPD hi, 32(R10); \
	ADDQ R8, R10

// func gemmTileF64AVX2(kc int, a, b, c *float64, ldc int, accumulate bool)
TEXT ·gemmTileF64AVX2(SB), NOSPLIT, $0-41
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8
	MOVBLZX accumulate+40(FP), R9
	TESTQ R9, R9
	JZ   zero6d

	MOVQ DX, R10
	LOAD6(Y0, Y1)
	LOAD6(Y2, Y3)
	LOAD6(Y4, Y5)
	LOAD6(Y6, Y7)
	LOAD6(Y8, Y9)
	LOAD6(Y10, Y11)
	JMP  loop6d

zero6d:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

loop6d:
	VMOVUPD (BX), Y12
	VMOVUPD 32(BX), Y13
	ROW6D(0, Y0, Y1)
	ROW6D(8, Y2, Y3)
	ROW6D(16, Y4, Y5)
	ROW6D(24, Y6, Y7)
	ROW6D(32, Y8, Y9)
	ROW6D(40, Y10, Y11)
	ADDQ $48, AX
	ADDQ $64, BX
	DECQ CX
	JNZ  loop6d

	MOVQ DX, R10
	STORE6(Y0, Y1)
	STORE6(Y2, Y3)
	STORE6(Y4, Y5)
	STORE6(Y6, Y7)
	STORE6(Y8, Y9)
	STORE6(Y10, Y11)
	VZEROUPPER
	RET

#define ROW8D(off, lo, hi) \
	VBROADCASTSD off(AX), Z18; \
	VMULPD Z16, Z18, Z19; \
	VADDPD Z19, lo, lo; \
	VMULPD Z17, Z18, Z20; \
	VADDPD Z20, hi, hi

#define LOAD8D(lo, hi) \
	VMOVUPD (R10), lo; \
	VMOVUPD 64(R10), hi; \
	ADDQ R8, R10

#define STORE8D(lo, hi) \
	VMOVUPD lo, (R10); \
	VMOVUPD hi, 64(R10); \
	ADDQ R8, R10

// func gemmTileF64AVX512(kc int, a, b, c *float64, ldc int, accumulate bool)
TEXT ·gemmTileF64AVX512(SB), NOSPLIT, $0-41
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8
	MOVBLZX accumulate+40(FP), R9
	TESTQ R9, R9
	JZ   zero8d

	MOVQ DX, R10
	LOAD8D(Z0, Z1)
	LOAD8D(Z2, Z3)
	LOAD8D(Z4, Z5)
	LOAD8D(Z6, Z7)
	LOAD8D(Z8, Z9)
	LOAD8D(Z10, Z11)
	LOAD8D(Z12, Z13)
	LOAD8D(Z14, Z15)
	JMP  loop8d

zero8d:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15

loop8d:
	VMOVUPD (BX), Z16
	VMOVUPD 64(BX), Z17
	ROW8D(0, Z0, Z1)
	ROW8D(8, Z2, Z3)
	ROW8D(16, Z4, Z5)
	ROW8D(24, Z6, Z7)
	ROW8D(32, Z8, Z9)
	ROW8D(40, Z10, Z11)
	ROW8D(48, Z12, Z13)
	ROW8D(56, Z14, Z15)
	ADDQ $64, AX
	ADDQ $128, BX
	DECQ CX
	JNZ  loop8d

	MOVQ DX, R10
	STORE8D(Z0, Z1)
	STORE8D(Z2, Z3)
	STORE8D(Z4, Z5)
	STORE8D(Z6, Z7)
	STORE8D(Z8, Z9)
	STORE8D(Z10, Z11)
	STORE8D(Z12, Z13)
	STORE8D(Z14, Z15)
	VZEROUPPER
	RET

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
