package cpu

import (
	"math"
	"math/cmplx"

	"github.com/jaxsh/jaxsh/trace"
)

// Complex block ops: the transcendental functions, computed in complex128
// and rounded once for complex64, and the component primitives real, imag,
// conj and complex. Where math/cmplx has no function (exp2, expm1, log1p,
// logistic), the formulas are NumPy's, so that values near zero keep their
// precision as NumPy's do.

func init() {
	defineComplexMath[complex64](trace.Complex64)
	defineComplexMath[complex128](trace.Complex128)
	defineComplexParts[complex64, float32](trace.Complex64, trace.Float32)
	defineComplexParts[complex128, float64](trace.Complex128, trace.Float64)
}

func defineComplexMath[T complexElem](dt trace.DType) {
	for name, f := range map[string]func(complex128) complex128{
		"exp": cmplx.Exp, "log": cmplx.Log, "sqrt": cmplx.Sqrt, "sin": cmplx.Sin,
		"cos": cmplx.Cos, "tan": cmplx.Tan, "asin": casin, "acos": cmplx.Acos,
		"atan": catan, "sinh": cmplx.Sinh, "cosh": cmplx.Cosh, "tanh": cmplx.Tanh,
		"asinh": casinh, "acosh": cmplx.Acosh, "atanh": catanh, "rsqrt": crsqrt,
		"exp2": cexp2, "expm1": cexpm1, "log1p": clog1p, "logistic": clogistic,
	} {
		defUnary(name, dt, dt, complexMap[T](f))
	}
}

// complexMap lifts a complex128 function to a block op on T.
func complexMap[T complexElem](f func(complex128) complex128) func(dst, x []T) {
	return func(dst, x []T) {
		for i, v := range x[:len(dst)] {
			dst[i] = T(f(complex128(v)))
		}
	}
}

func crsqrt(z complex128) complex128 { return 1 / cmplx.Sqrt(z) }

func cexp2(z complex128) complex128 { return cmplx.Exp(z * math.Ln2) }

// cexpm1 is exp(z)-1 without cancellation for small |z|:
// Re = expm1(x)cos(y) - 2sin²(y/2), Im = exp(x)sin(y).
func cexpm1(z complex128) complex128 {
	x, y := real(z), imag(z)
	s := math.Sin(y / 2)
	return complex(math.Expm1(x)*math.Cos(y)-2*s*s, math.Exp(x)*math.Sin(y))
}

// clog1p is log(1+z) = log|1+z| + i·arg(1+z). Near zero the real part is
// ½·log1p(2x + x² + y²), which keeps the digits log(hypot(1+x, y)) loses
// (NumPy's formula, off by 0.1% at 1e-5 in complex64).
func clog1p(z complex128) complex128 {
	x, y := real(z), imag(z)
	re := math.Log(math.Hypot(x+1, y))
	if cmplx.Abs(z) < 0.5 {
		re = 0.5 * math.Log1p(x*(2+x)+y*y)
	}
	return complex(re, math.Atan2(y, x+1))
}

// Near zero the inverse functions of math/cmplx lose digits to
// cancellation (relative error about 1e-16/|z|); below seriesRadius their
// Taylor series, summed to seriesTerms terms, is exact to rounding.
const (
	seriesRadius = 0.1
	seriesTerms  = 9
)

// oddSeries sums c(k)·z^(2k+1) for k < seriesTerms.
func oddSeries(z complex128, c func(k int) float64) complex128 {
	z2, p, sum := z*z, z, complex128(0)
	for k := range seriesTerms {
		sum += complex(c(k), 0) * p
		p *= z2
	}
	return sum
}

// asinCoef is the k-th coefficient of asin's series, (2k)!/(4^k (k!)² (2k+1)).
func asinCoef(k int) float64 {
	c := 1.0
	for j := 1; j <= k; j++ {
		c *= float64(2*j-1) / float64(2*j)
	}
	return c / float64(2*k+1)
}

func alternating(c func(int) float64) func(int) float64 {
	return func(k int) float64 {
		if k%2 == 1 {
			return -c(k)
		}
		return c(k)
	}
}

func atanhCoef(k int) float64 { return 1 / float64(2*k+1) }

func casin(z complex128) complex128 {
	if cmplx.Abs(z) < seriesRadius {
		return oddSeries(z, asinCoef)
	}
	return cmplx.Asin(z)
}

func casinh(z complex128) complex128 {
	if cmplx.Abs(z) < seriesRadius {
		return oddSeries(z, alternating(asinCoef))
	}
	return cmplx.Asinh(z)
}

func catan(z complex128) complex128 {
	if cmplx.Abs(z) < seriesRadius {
		return oddSeries(z, alternating(atanhCoef))
	}
	return cmplx.Atan(z)
}

func catanh(z complex128) complex128 {
	if cmplx.Abs(z) < seriesRadius {
		return oddSeries(z, atanhCoef)
	}
	return cmplx.Atanh(z)
}

// clogistic is JAX's logistic, 1/(1+exp(-z)).
func clogistic(z complex128) complex128 { return 1 / (1 + cmplx.Exp(-z)) }

// defineComplexParts defines real, imag, conj and complex for the complex
// type T with components R. conj also takes R itself (a real operand
// becomes complex with a zero imaginary part, as lax.conj does).
func defineComplexParts[T complexElem, R float32 | float64](dt, realDT trace.DType) {
	defUnary("real", dt, realDT, realBlock[T, R])
	defUnary("imag", dt, realDT, imagBlock[T, R])
	defUnary("conj", dt, dt, conjBlock[T])
	defUnary("conj", realDT, dt, conjRealBlock[R, T])
	defBinary("complex", realDT, dt, complexBlock[R, T])
}

func realBlock[T complexElem, R float32 | float64](dst []R, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = R(real(complex128(v)))
	}
}

func imagBlock[T complexElem, R float32 | float64](dst []R, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = R(imag(complex128(v)))
	}
}

func conjBlock[T complexElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		c := complex128(v)
		dst[i] = T(complex(real(c), -imag(c)))
	}
}

func conjRealBlock[R float32 | float64, T complexElem](dst []T, x []R) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(complex(float64(v), 0))
	}
}

func complexBlock[R float32 | float64, T complexElem](dst []T, x, y []R) {
	for i := range dst {
		dst[i] = T(complex(float64(x[i]), float64(y[i])))
	}
}
