package cpu

import "unsafe"

// AVX routines for pairwise float sums (reduce_pairwise_amd64.s), used
// when the CPU and OS support AVX.

//go:noescape
func sumLeafF32AVX(x *float32) float32

//go:noescape
func sumLeafF64AVX(x *float64) float64

//go:noescape
func addRowsF32AVX(acc, row *float32, n int)

//go:noescape
func addRowsF64AVX(acc, row *float64, n int)

var reduceHasAVX = detectAVX()

func detectAVX() bool {
	_, _, ecx1, _ := dotCPUID(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	xcr0, _ := dotXGETBV()
	return xcr0&0x6 == 0x6 // the OS saves SSE and AVX state
}

// sumLeafAsm sums a full leaf of float32 or float64 in assembly; ok is
// false for other types or without AVX.
func sumLeafAsm[T any](x []T) (s T, ok bool) {
	if !reduceHasAVX {
		return s, false
	}
	// The results are T; converting through unsafe avoids boxing them.
	switch v := any(x).(type) {
	case []float32:
		r := sumLeafF32AVX(&v[:pairwiseLeaf][0])
		return *(*T)(unsafe.Pointer(&r)), true
	case []float64:
		r := sumLeafF64AVX(&v[:pairwiseLeaf][0])
		return *(*T)(unsafe.Pointer(&r)), true
	}
	return s, false
}

// addRowsAsm adds a prefix of row into acc in assembly and returns its
// length (0 for other types or without AVX).
func addRowsAsm[T any](acc, row []T) int {
	if !reduceHasAVX {
		return 0
	}
	switch a := any(acc).(type) {
	case []float32:
		n := len(a) &^ 31
		if n > 0 {
			r := any(row).([]float32)[:n]
			addRowsF32AVX(&a[0], &r[0], n)
		}
		return n
	case []float64:
		n := len(a) &^ 15
		if n > 0 {
			r := any(row).([]float64)[:n]
			addRowsF64AVX(&a[0], &r[0], n)
		}
		return n
	}
	return 0
}
