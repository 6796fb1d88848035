package cpu

import "unsafe"

// AVX max and min folds (reduce_minmax_amd64.s) for float32 and float64
// reductions; exact, so they give the Go loops' results (NaN payloads
// aside).

//go:noescape
func maxLineF32AVX(x *float32, n int, acc *float32)

//go:noescape
func minLineF32AVX(x *float32, n int, acc *float32)

//go:noescape
func maxLineF64AVX(x *float64, n int, acc *float64)

//go:noescape
func minLineF64AVX(x *float64, n int, acc *float64)

//go:noescape
func maxRowsF32AVX(acc, row *float32, n int)

//go:noescape
func minRowsF32AVX(acc, row *float32, n int)

//go:noescape
func maxRowsF64AVX(acc, row *float64, n int)

//go:noescape
func minRowsF64AVX(acc, row *float64, n int)

// minmaxLineAsm folds a prefix of x in assembly, returning the max (or
// min) of x[:done]; done is 0 when it did nothing (other types, no AVX, a
// short line).
func minmaxLineAsm[T any](x []T, isMax bool) (m T, done int) {
	if !reduceHasAVX {
		return m, 0
	}
	switch v := any(x).(type) {
	case []float32:
		if len(v) < 64 {
			return m, 0
		}
		var acc [32]float32
		copy(acc[:], v)
		n := (len(v) - 32) &^ 31
		if isMax {
			maxLineF32AVX(&v[32], n, &acc[0])
		} else {
			minLineF32AVX(&v[32], n, &acc[0])
		}
		r := foldLanes(acc[:], isMax)
		return *(*T)(unsafe.Pointer(&r)), 32 + n
	case []float64:
		if len(v) < 32 {
			return m, 0
		}
		var acc [16]float64
		copy(acc[:], v)
		n := (len(v) - 16) &^ 15
		if isMax {
			maxLineF64AVX(&v[16], n, &acc[0])
		} else {
			minLineF64AVX(&v[16], n, &acc[0])
		}
		r := foldLanes(acc[:], isMax)
		return *(*T)(unsafe.Pointer(&r)), 16 + n
	}
	return m, 0
}

func foldLanes[T elemFloat](lanes []T, isMax bool) T {
	r := lanes[0]
	for _, a := range lanes[1:] {
		if isMax {
			r = max(r, a)
		} else {
			r = min(r, a)
		}
	}
	return r
}

// minmaxRowsAsm folds a prefix of row into acc in assembly and returns its
// length (0 for other types or without AVX).
func minmaxRowsAsm[T any](acc, row []T, isMax bool) int {
	if !reduceHasAVX {
		return 0
	}
	switch a := any(acc).(type) {
	case []float32:
		n := len(a) &^ 31
		if n > 0 {
			r := any(row).([]float32)[:n]
			if isMax {
				maxRowsF32AVX(&a[0], &r[0], n)
			} else {
				minRowsF32AVX(&a[0], &r[0], n)
			}
		}
		return n
	case []float64:
		n := len(a) &^ 15
		if n > 0 {
			r := any(row).([]float64)[:n]
			if isMax {
				maxRowsF64AVX(&a[0], &r[0], n)
			} else {
				minRowsF64AVX(&a[0], &r[0], n)
			}
		}
		return n
	}
	return 0
}
