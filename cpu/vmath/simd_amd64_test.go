//go:build goexperiment.simd && amd64

package vmath

import (
	"math"
	"testing"
)

// TestSIMDKernelsMatchPortable runs every SIMD kernel the CPU supports on
// lengths around the vector widths (so the portable tail runs too) and
// demands bit-identical results. The accuracy sweeps cover the SIMD
// kernels' values through the slice functions.
func TestSIMDKernelsMatchPortable(t *testing.T) {
	x := benchInput(-100, 100)
	for i := range x {
		x[i] *= float32(i%7) / 3 // vary magnitudes, keeping |x| < 150
	}
	for _, k := range []struct {
		name           string
		simd, portable func(dst, x []float32)
	}{
		{"sin", sinSliceKernel, sinLanes},
		{"cos", cosSliceKernel, cosLanes},
		{"exp", expSliceKernel, expLanes},
	} {
		for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 1000} {
			got, want := make([]float32, n), make([]float32, n)
			k.simd(got, x[:n])
			k.portable(want, x[:n])
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s, n=%d: x=%g: SIMD %g, portable %g", k.name, n, x[i], got[i], want[i])
				}
			}
		}
	}
}
