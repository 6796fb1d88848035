package cpu

import "unsafe"

// Block extremes for argmax/argmin in assembly (reduce_arg_amd64.s).

//go:noescape
func maxNaNF32AVX(x *float32, n int) (m float32, nan bool)

//go:noescape
func minNaNF32AVX(x *float32, n int) (m float32, nan bool)

//go:noescape
func maxNaNF64AVX(x *float64, n int) (m float64, nan bool)

//go:noescape
func minNaNF64AVX(x *float64, n int) (m float64, nan bool)

// blockExtremeAsm returns the max (or min) of a prefix of x and whether
// that prefix holds a NaN, done being its length: 0 for other types,
// without AVX, or for a block too short.
func blockExtremeAsm[T elemReal](x []T, isMax bool) (m T, nan bool, done int) {
	if !reduceHasAVX {
		return m, false, 0
	}
	switch v := any(x).(type) {
	case []float32:
		n := len(v) &^ 31
		if n == 0 {
			return m, false, 0
		}
		var r float32
		if isMax {
			r, nan = maxNaNF32AVX(&v[0], n)
		} else {
			r, nan = minNaNF32AVX(&v[0], n)
		}
		return *(*T)(unsafe.Pointer(&r)), nan, n
	case []float64:
		n := len(v) &^ 15
		if n == 0 {
			return m, false, 0
		}
		var r float64
		if isMax {
			r, nan = maxNaNF64AVX(&v[0], n)
		} else {
			r, nan = minNaNF64AVX(&v[0], n)
		}
		return *(*T)(unsafe.Pointer(&r)), nan, n
	}
	return m, false, 0
}
