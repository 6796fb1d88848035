package cpu

import (
	"math"
	"unsafe"
)

// Element operations behind the reducers: line reductions over contiguous
// memory and row folds acc[i] op= row[i]. Each is a plain loop over one
// element type so the compiler keeps the operation inline.

// Element type sets of the reduction, scan, sort and dot kernels.
type (
	elemInt interface {
		~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
	}
	elemFloat   interface{ ~float32 | ~float64 }
	elemComplex interface{ ~complex64 | ~complex128 }
	elemInexact interface{ elemFloat | elemComplex }
	elemReal    interface{ elemInt | elemFloat }
)

func intReducer[T elemInt](op reduceOp) reducer[T] {
	lo, hi := intLimits[T]()
	switch op {
	case opSum:
		return reducer[T]{identity: 0, line: sumIntLine[T], rows: addRows[T]}
	case opProd:
		return reducer[T]{identity: 1, line: prodLine[T], rows: mulRows[T]}
	case opMax:
		return reducer[T]{identity: lo, line: maxLine[T], rows: maxRows[T]}
	case opMin:
		return reducer[T]{identity: hi, line: minLine[T], rows: minRows[T]}
	case opAnd:
		return reducer[T]{identity: ^T(0), line: andLine[T], rows: andRows[T]}
	}
	return reducer[T]{identity: 0, line: orLine[T], rows: orRows[T]}
}

// boolReducer works on bools viewed as bytes 0 and 1.
func boolReducer(op reduceOp) reducer[uint8] {
	if op == opAnd || op == opMin {
		return reducer[uint8]{identity: 1, line: andLine[uint8], rows: andRows[uint8]}
	}
	return reducer[uint8]{identity: 0, line: orLine[uint8], rows: orRows[uint8]}
}

func floatReducer[T elemFloat](op reduceOp) reducer[T] {
	switch op {
	case opSum:
		return reducer[T]{identity: 0, line: sumInexactLine[T], rows: addRowsInexact[T], pairwise: true}
	case opProd:
		return reducer[T]{identity: 1, line: prodInexactLine[T], rows: mulRows[T], pairwise: true}
	case opMax:
		return reducer[T]{identity: T(math.Inf(-1)), line: maxFloatLine[T], rows: maxFloatRows[T]}
	}
	return reducer[T]{identity: T(math.Inf(1)), line: minFloatLine[T], rows: minFloatRows[T]}
}

func complexReducer[T elemComplex](op reduceOp) reducer[T] {
	inf := math.Inf(1)
	switch op {
	case opSum:
		return reducer[T]{identity: 0, line: sumInexactLine[T], rows: addRowsInexact[T], pairwise: true}
	case opProd:
		return reducer[T]{identity: 1, line: prodInexactLine[T], rows: mulRows[T], pairwise: true}
	case opMax:
		return reducer[T]{identity: T(complex(-inf, 0)), line: foldLine(maxComplex[T]), rows: foldRows(maxComplex[T])}
	}
	return reducer[T]{identity: T(complex(inf, 0)), line: foldLine(minComplex[T]), rows: foldRows(minComplex[T])}
}

// intLimits is the range of an integer element type.
func intLimits[T elemInt]() (lo, hi T) {
	hi = ^T(0)
	if hi < 0 { // signed: all ones is -1
		hi = T(uint64(1)<<(8*sizeOf[T]()-1) - 1)
		return -hi - 1, hi
	}
	return 0, hi
}

func sizeOf[T any]() int {
	var v T
	return int(unsafe.Sizeof(v))
}

// Line reductions. Integer operations wrap, so any order gives the same
// result; several accumulators only break the dependency chain.

func sumIntLine[T elemInt](x []T) T {
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		s0 += v[0]
		s1 += v[1]
		s2 += v[2]
		s3 += v[3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func prodLine[T elemInt](x []T) T {
	p := T(1)
	for _, v := range x {
		p *= v
	}
	return p
}

func andLine[T elemInt](x []T) T {
	a := ^T(0)
	for _, v := range x {
		a &= v
	}
	return a
}

func orLine[T elemInt](x []T) T {
	var a T
	for _, v := range x {
		a |= v
	}
	return a
}

// Integer max and min: the builtins compile to conditional moves; four
// accumulators break the dependency chain.

func maxLine[T elemInt](x []T) T {
	m0, m1, m2, m3 := x[0], x[0], x[0], x[0]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		m0 = max(m0, v[0])
		m1 = max(m1, v[1])
		m2 = max(m2, v[2])
		m3 = max(m3, v[3])
	}
	for ; i < len(x); i++ {
		m0 = max(m0, x[i])
	}
	return max(max(m0, m1), max(m2, m3))
}

func minLine[T elemInt](x []T) T {
	m0, m1, m2, m3 := x[0], x[0], x[0], x[0]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		m0 = min(m0, v[0])
		m1 = min(m1, v[1])
		m2 = min(m2, v[2])
		m3 = min(m3, v[3])
	}
	for ; i < len(x); i++ {
		m0 = min(m0, x[i])
	}
	return min(min(m0, m1), min(m2, m3))
}

func maxRows[T elemInt](acc, row []T) {
	row = row[:len(acc)]
	for i, v := range row {
		acc[i] = max(acc[i], v)
	}
}

func minRows[T elemInt](acc, row []T) {
	row = row[:len(acc)]
	for i, v := range row {
		acc[i] = min(acc[i], v)
	}
}

// Float max and min: Go's builtins are IEEE 754-2019 maximum and minimum
// (NaN propagates; max(-0.0, +0.0) = +0.0 and min(-0.0, +0.0) = -0.0 in
// either order), but each is a chain of seven instructions, so the loops
// take the builtin only when the running value may change: v < m is false
// exactly when v >= m or either is NaN. For most data that is a rare,
// well-predicted branch. With AVX, an assembly prefix does most of the work
// (reduce_minmax_amd64.s).

func maxFloatLine[T elemFloat](x []T) T {
	m, done := minmaxLineAsm(x, true)
	if done == 0 {
		m, done = x[0], 1
	}
	for _, v := range x[done:] {
		if !(v < m) {
			m = max(m, v)
		}
	}
	return m
}

func minFloatLine[T elemFloat](x []T) T {
	m, done := minmaxLineAsm(x, false)
	if done == 0 {
		m, done = x[0], 1
	}
	for _, v := range x[done:] {
		if !(v > m) {
			m = min(m, v)
		}
	}
	return m
}

func maxFloatRows[T elemFloat](acc, row []T) {
	done := minmaxRowsAsm(acc, row, true)
	acc, row = acc[done:], row[done:len(acc)]
	for i, v := range row {
		if a := acc[i]; !(v < a) {
			acc[i] = max(a, v)
		}
	}
}

func minFloatRows[T elemFloat](acc, row []T) {
	done := minmaxRowsAsm(acc, row, false)
	acc, row = acc[done:], row[done:len(acc)]
	for i, v := range row {
		if a := acc[i]; !(v > a) {
			acc[i] = min(a, v)
		}
	}
}

func isNaNComplex(z complex128) bool {
	return real(z) != real(z) || imag(z) != imag(z)
}

// maxComplex compares (real, imag) lexicographically, as lax.max does for
// complex numbers; a NaN in either part propagates. (real and imag do not
// take type parameters, hence the complex128 conversions.)
func maxComplex[T elemComplex](a, b T) T {
	x, y := complex128(a), complex128(b)
	switch {
	case isNaNComplex(x):
		return a
	case isNaNComplex(y):
		return b
	case real(x) > real(y) || real(x) == real(y) && imag(x) >= imag(y):
		return a
	}
	return b
}

func minComplex[T elemComplex](a, b T) T {
	x, y := complex128(a), complex128(b)
	switch {
	case isNaNComplex(x):
		return a
	case isNaNComplex(y):
		return b
	case real(x) < real(y) || real(x) == real(y) && imag(x) <= imag(y):
		return a
	}
	return b
}

// foldLine and foldRows build line and row reductions from a binary
// operation; for the rare element types where a call per element is fine.
func foldLine[T any](op func(a, b T) T) func([]T) T {
	return func(x []T) T {
		m := x[0]
		for _, v := range x[1:] {
			m = op(m, v)
		}
		return m
	}
}

func foldRows[T any](op func(a, b T) T) func(acc, row []T) {
	return func(acc, row []T) {
		row = row[:len(acc)]
		for i, v := range row {
			acc[i] = op(acc[i], v)
		}
	}
}

// Row folds, unrolled by four: acc and row are equally long.

func addRows[T elemInt | elemInexact](acc, row []T) {
	row = row[:len(acc)]
	i := 0
	for ; i+4 <= len(acc); i += 4 {
		a, r := acc[i:i+4:i+4], row[i:i+4:i+4]
		a[0] += r[0]
		a[1] += r[1]
		a[2] += r[2]
		a[3] += r[3]
	}
	for ; i < len(acc); i++ {
		acc[i] += row[i]
	}
}

func mulRows[T elemInt | elemInexact](acc, row []T) {
	row = row[:len(acc)]
	for i, v := range row {
		acc[i] *= v
	}
}

func andRows[T elemInt](acc, row []T) {
	row = row[:len(acc)]
	for i, v := range row {
		acc[i] &= v
	}
}

func orRows[T elemInt](acc, row []T) {
	row = row[:len(acc)]
	for i, v := range row {
		acc[i] |= v
	}
}
