package cpu

import (
	"math/cmplx"

	"github.com/jaxsh/jaxsh/trace"
)

// Complex transcendental block ops: the functions math/cmplx provides,
// computed in complex128 and rounded once for complex64 (see
// elementwise_float.go for the ones left out).

func defineComplexMath[T complexElem](dt trace.DType) {
	for name, f := range map[string]func(dst, x []T){
		"exp": cexpBlock[T], "log": clogBlock[T], "sqrt": csqrtBlock[T], "sin": csinBlock[T],
		"cos": ccosBlock[T], "tan": ctanBlock[T], "asin": casinBlock[T], "acos": cacosBlock[T],
		"atan": catanBlock[T], "sinh": csinhBlock[T], "cosh": ccoshBlock[T], "tanh": ctanhBlock[T],
		"asinh": casinhBlock[T], "acosh": cacoshBlock[T], "atanh": catanhBlock[T], "rsqrt": crsqrtBlock[T],
	} {
		defUnary(name, dt, dt, f)
	}
}

func cexpBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Exp(complex128(v)))
	}
}

func clogBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Log(complex128(v)))
	}
}

func csqrtBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Sqrt(complex128(v)))
	}
}

func csinBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Sin(complex128(v)))
	}
}

func ccosBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Cos(complex128(v)))
	}
}

func ctanBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Tan(complex128(v)))
	}
}

func casinBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Asin(complex128(v)))
	}
}

func cacosBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Acos(complex128(v)))
	}
}

func catanBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Atan(complex128(v)))
	}
}

func csinhBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Sinh(complex128(v)))
	}
}

func ccoshBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Cosh(complex128(v)))
	}
}

func ctanhBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Tanh(complex128(v)))
	}
}

func casinhBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Asinh(complex128(v)))
	}
}

func cacoshBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Acosh(complex128(v)))
	}
}

func catanhBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(cmplx.Atanh(complex128(v)))
	}
}

func crsqrtBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(1 / cmplx.Sqrt(complex128(v)))
	}
}
