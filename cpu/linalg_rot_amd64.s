#include "textflag.h"

// func rotSweepPanelsAVX(panels *float64, stride int, cs *float64, lo, hi int)
//
// One QL sweep of plane rotations (linalg_tridiag.go) on four panels of
// four rows each: panel k starts stride float64s after panel k-1 and
// holds element i of its four rows at [4i, 4i+4). For i = hi-1 down to
// lo, with (c, s) the next pair of cs:
//     x = v[i]; v[i+1] = s*x + c*t; t = c*x - s*t
// where t, the carried new element i+1, starts as v[hi] and ends in
// v[lo]. Multiplies and adds are separate (no FMA), so the result is the
// same bits as the Go code's.
TEXT ·rotSweepPanelsAVX(SB), NOSPLIT, $0-40
	MOVQ panels+0(FP), DI
	MOVQ stride+8(FP), BX
	SHLQ $3, BX
	MOVQ cs+16(FP), SI
	MOVQ lo+24(FP), R8
	MOVQ hi+32(FP), CX
	MOVQ CX, AX
	SHLQ $5, AX
	LEAQ (DI)(AX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (R11)(BX*1), R12
	VMOVUPD (R9), Y0
	VMOVUPD (R10), Y1
	VMOVUPD (R11), Y2
	VMOVUPD (R12), Y3
	SUBQ R8, CX
	JLE  rotdone

rotloop:
	VBROADCASTSD 0(SI), Y14
	VBROADCASTSD 8(SI), Y15
	VMOVUPD -32(R9), Y4
	VMOVUPD -32(R10), Y5
	VMOVUPD -32(R11), Y6
	VMOVUPD -32(R12), Y7

	VMULPD Y4, Y15, Y8
	VMULPD Y0, Y14, Y9
	VADDPD Y9, Y8, Y8
	VMOVUPD Y8, (R9)
	VMULPD Y4, Y14, Y4
	VMULPD Y0, Y15, Y0
	VSUBPD Y0, Y4, Y0

	VMULPD Y5, Y15, Y10
	VMULPD Y1, Y14, Y11
	VADDPD Y11, Y10, Y10
	VMOVUPD Y10, (R10)
	VMULPD Y5, Y14, Y5
	VMULPD Y1, Y15, Y1
	VSUBPD Y1, Y5, Y1

	VMULPD Y6, Y15, Y12
	VMULPD Y2, Y14, Y13
	VADDPD Y13, Y12, Y12
	VMOVUPD Y12, (R11)
	VMULPD Y6, Y14, Y6
	VMULPD Y2, Y15, Y2
	VSUBPD Y2, Y6, Y2

	VMULPD Y7, Y15, Y8
	VMULPD Y3, Y14, Y9
	VADDPD Y9, Y8, Y8
	VMOVUPD Y8, (R12)
	VMULPD Y7, Y14, Y7
	VMULPD Y3, Y15, Y3
	VSUBPD Y3, Y7, Y3

	SUBQ $32, R9
	SUBQ $32, R10
	SUBQ $32, R11
	SUBQ $32, R12
	ADDQ $16, SI
	DECQ CX
	JNZ  rotloop

	VMOVUPD Y0, (R9)
	VMOVUPD Y1, (R10)
	VMOVUPD Y2, (R11)
	VMOVUPD Y3, (R12)

rotdone:
	VZEROUPPER
	RET

// func rank2F64AVX(row, v, w *float64, vi, wi float64, n int)
//
// row[j] -= vi*w[j] + wi*v[j] for j < n, n a multiple of 8: the
// symmetric rank-2 update of one row in tridiagonalize
// (linalg_sytrd.go), with the same operations as its Go loop.
TEXT ·rank2F64AVX(SB), NOSPLIT, $0-48
	MOVQ row+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ w+16(FP), DX
	VBROADCASTSD vi+24(FP), Y14
	VBROADCASTSD wi+32(FP), Y15
	MOVQ n+40(FP), CX
	SHRQ $3, CX
	JZ   rank2done

rank2loop:
	VMULPD  0(DX), Y14, Y0
	VMULPD  32(DX), Y14, Y1
	VMULPD  0(SI), Y15, Y2
	VMULPD  32(SI), Y15, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VMOVUPD 0(DI), Y4
	VMOVUPD 32(DI), Y5
	VSUBPD  Y0, Y4, Y4
	VSUBPD  Y1, Y5, Y5
	VMOVUPD Y4, 0(DI)
	VMOVUPD Y5, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	DECQ    CX
	JNZ     rank2loop

rank2done:
	VZEROUPPER
	RET

// func dot4RowsF64FMA(a *float64, ld int, v *float64, n int, out *float64)
//
// out[r] = Σ a[r*ld+j]·v[j] over j < n for the four rows r < 4, n a
// multiple of 8: the matrix-vector pass of tridiagonalize
// (linalg_sytrd.go). Each v load serves four rows; two accumulators a
// row (eight in all) keep the FMA units busy past their latency.
TEXT ·dot4RowsF64FMA(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), DI
	MOVQ ld+8(FP), BX
	SHLQ $3, BX
	MOVQ v+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ out+32(FP), DX
	LEAQ (DI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	SHRQ $3, CX
	JZ   dot4sum

dot4loop:
	VMOVUPD 0(SI), Y8
	VMOVUPD 32(SI), Y9
	VFMADD231PD 0(DI), Y8, Y0
	VFMADD231PD 32(DI), Y9, Y1
	VFMADD231PD 0(R8), Y8, Y2
	VFMADD231PD 32(R8), Y9, Y3
	VFMADD231PD 0(R9), Y8, Y4
	VFMADD231PD 32(R9), Y9, Y5
	VFMADD231PD 0(R10), Y8, Y6
	VFMADD231PD 32(R10), Y9, Y7
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $64, R10
	DECQ CX
	JNZ  dot4loop

dot4sum:
	// Row sums: fold each row's pair, then transpose-add the four
	// 4-lane vectors into one vector of four totals.
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y5, Y4, Y4
	VADDPD Y7, Y6, Y6
	// With row r's lanes r0..r3: Y0 = (00+01, 10+11, 02+03, 12+13),
	// Y4 the same for rows 2 and 3.
	VHADDPD Y2, Y0, Y0
	VHADDPD Y6, Y4, Y4
	VPERM2F128 $0x21, Y4, Y0, Y1 // Y0's high half, Y4's low half
	VBLENDPD $0x0c, Y4, Y0, Y0   // Y0's low half, Y4's high half
	VADDPD Y1, Y0, Y0
	VMOVUPD Y0, (DX)
	VZEROUPPER
	RET

// func rank2F64FMA(row, v, w *float64, vi, wi float64, n int)
//
// rank2F64AVX's update as two fused multiply-adds an element,
// row[j] = fma(-wi, v[j], fma(-vi, w[j], row[j])), n a multiple of 8.
TEXT ·rank2F64FMA(SB), NOSPLIT, $0-48
	MOVQ row+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ w+16(FP), DX
	VBROADCASTSD vi+24(FP), Y14
	VBROADCASTSD wi+32(FP), Y15
	MOVQ n+40(FP), CX
	SHRQ $3, CX
	JZ   rank2fmadone

rank2fmaloop:
	VMOVUPD 0(DI), Y4
	VMOVUPD 32(DI), Y5
	VFNMADD231PD 0(DX), Y14, Y4
	VFNMADD231PD 32(DX), Y14, Y5
	VFNMADD231PD 0(SI), Y15, Y4
	VFNMADD231PD 32(SI), Y15, Y5
	VMOVUPD Y4, 0(DI)
	VMOVUPD Y5, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	DECQ    CX
	JNZ     rank2fmaloop

rank2fmadone:
	VZEROUPPER
	RET
