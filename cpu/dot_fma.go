package cpu

import "math"

// Fused multiply-add in portable Go, rounded once as an FMA instruction
// rounds: the matmul kernels accumulate acc = fma(a, b, acc), and the
// portable kernel must give the assembly kernels' bits.

// fusedMulAdd32 is a*b+c rounded once to float32. The product of two
// float32 values is exact in float64; the sum is then computed in float64
// rounded to odd (when inexact, the neighbour whose last bit is 1), which
// has enough spare bits that the final rounding to float32 is the correct
// rounding of the exact a*b+c, never a double rounding.
func fusedMulAdd32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := float64(p) + float64(c)
	// The rounding error of s (Knuth's TwoSum, exact).
	bv := s - p
	e := (p - (s - bv)) + (float64(c) - bv)
	if e != 0 && e == e && s != 0 {
		bits := math.Float64bits(s)
		if bits&1 == 0 {
			// Step toward the exact sum: away from zero when e has s's sign.
			if (e > 0) == (s > 0) {
				bits++
			} else {
				bits--
			}
			s = math.Float64frombits(bits)
		}
	}
	return float32(s)
}

// gemmTile2x4Fused is gemmTile2x4 for float32 and float64 with fused
// multiply-adds (fma is fusedMulAdd32 or math.FMA).
func gemmTile2x4Fused[T float32 | float64](fma func(a, b, c T) T) func(kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, accumulate bool) {
	return func(kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, accumulate bool) {
		var c00, c01, c02, c03, c10, c11, c12, c13 T
		if accumulate {
			r0, r1 := c[:4:4], c[ldc:ldc+4:ldc+4]
			c00, c01, c02, c03 = r0[0], r0[1], r0[2], r0[3]
			c10, c11, c12, c13 = r1[0], r1[1], r1[2], r1[3]
		}
		a0s, a1s := a[:kc], a[lda:lda+kc]
		for p := range kc {
			bv := b[p*ldb : p*ldb+4 : p*ldb+4]
			b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
			a0, a1 := a0s[p], a1s[p]
			c00, c01, c02, c03 = fma(a0, b0, c00), fma(a0, b1, c01), fma(a0, b2, c02), fma(a0, b3, c03)
			c10, c11, c12, c13 = fma(a1, b0, c10), fma(a1, b1, c11), fma(a1, b2, c12), fma(a1, b3, c13)
		}
		r0, r1 := c[:4:4], c[ldc:ldc+4:ldc+4]
		r0[0], r0[1], r0[2], r0[3] = c00, c01, c02, c03
		r1[0], r1[1], r1[2], r1[3] = c10, c11, c12, c13
	}
}

// Portable fused kernels, for machines without the assembly ones.
var (
	gemmPortableFloat32 = portableKernel(gemmTile2x4Fused(fusedMulAdd32))
	gemmPortableFloat64 = portableKernel(gemmTile2x4Fused(math.FMA))
)
