package cpu

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/jaxsh/jaxsh/cpu/vmath"
	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// Arithmetic block ops: add sub mul div rem neg abs sign square max min
// clamp integer_pow pow. Semantics are XLA's on CPU:
//
//   - Integer arithmetic wraps (add, sub, mul, neg, square, integer_pow;
//     abs(INT_MIN) is INT_MIN).
//   - Integer division by zero gives -1 (all bits set: the unsigned maximum
//     for unsigned types) and the remainder by zero gives the dividend;
//     INT_MIN / -1 is INT_MIN and INT_MIN rem -1 is 0 (XLA's
//     EmitIntegerDivide and EmitIntegerRemainder; Go defines the latter two
//     the same way). Quotients truncate toward zero; a remainder has the
//     sign of the dividend.
//   - Float division is IEEE: x/0 is ±inf, 0/0 nan. Float rem is C's fmod:
//     exact, with the sign of the dividend; rem(x, 0) and rem(±inf, y) are
//     nan, rem(x, ±inf) is x.
//   - Float max and min propagate nan from either side, and on ties
//     (including +0 against -0) return the first operand, exactly as XLA's
//     CPU emitter does (max(a, b) = a >= b || isnan(a) ? a : b; NumPy's
//     maximum agrees). clamp(lo, x, hi) is min(hi, max(lo, x)) with those
//     semantics, so a nan in any operand gives nan and lo > hi gives hi.
//   - Complex max and min compare lexicographically, real parts first, and
//     pick the second operand unless the first wins strictly (JAX's
//     lowering; a nan part loses every comparison).
//   - sign(±0) = ±0 and sign(nan) = nan; for complex x it is x/|x| (0 at 0).
//   - integer_pow multiplies in JAX's order (repeated squaring, low bits
//     first), so float results match JAX's bit for bit; a negative y (floats
//     only) gives 1/x^|y|. y = 0 gives 1, even for nan.
//   - pow follows C99 pow (vmath.Pow, math.Pow) for real floats and cmplx.Pow for
//     complex ones. An integer exponent is first converted to the base's
//     dtype, as JAX's lowering does.

func init() {
	defineIntArith[int8](trace.Int8)
	defineIntArith[int16](trace.Int16)
	defineIntArith[int32](trace.Int32)
	defineIntArith[int64](trace.Int64)
	defineIntArith[uint8](trace.Uint8)
	defineIntArith[uint16](trace.Uint16)
	defineIntArith[uint32](trace.Uint32)
	defUnary("abs", trace.Int8, trace.Int8, absSignedBlock[int8])
	defUnary("abs", trace.Int16, trace.Int16, absSignedBlock[int16])
	defUnary("abs", trace.Int32, trace.Int32, absSignedBlock[int32])
	defUnary("abs", trace.Int64, trace.Int64, absSignedBlock[int64])

	defineFloatArith[float32](trace.Float32)
	defineFloatArith[float64](trace.Float64)
	for _, dt := range []trace.DType{trace.Float16, trace.BFloat16} {
		definePowIntExponents(dt, func(exp trace.DType) blockOp { return powHalfIntExpOp(dt, exp) })
	}

	defineComplexArith[complex64, float32](trace.Complex64, trace.Float32)
	defineComplexArith[complex128, float64](trace.Complex128, trace.Float64)

	// bool: max is or, min is and; clamp orders False < True.
	defBinary("max", trace.Bool, trace.Bool, maxIntBlock[uint8])
	defBinary("min", trace.Bool, trace.Bool, minIntBlock[uint8])
	defineClamp(trace.Bool, ternaryOp(clampIntBlock[uint8]))
}

func defineIntArith[T intElem](dt trace.DType) {
	defBinary("add", dt, dt, simdBinary(simdAdd, addBlock[T]))
	defBinary("sub", dt, dt, simdBinary(simdSub, subBlock[T]))
	defBinary("mul", dt, dt, simdBinary(simdMul, mulBlock[T]))
	defBinary("div", dt, dt, divIntBlock[T])
	defBinary("rem", dt, dt, remIntBlock[T])
	defBinary("max", dt, dt, maxIntBlock[T])
	defBinary("min", dt, dt, minIntBlock[T])
	defUnary("neg", dt, dt, negBlock[T])
	defUnary("sign", dt, dt, signBlock[T])
	defUnary("square", dt, dt, squareBlock[T])
	defineClamp(dt, ternaryOp(clampIntBlock[T]))
	defineBlock(blockKey{prim: "integer_pow", dt: dt}, blockEntry{compute: dt, result: dt,
		build: func(p trace.Params, _ int) (blockOp, error) {
			y := p.Int("y")
			if y < 0 {
				return nil, fmt.Errorf("integers cannot be raised to negative powers, got y=%d", y)
			}
			return unaryOp(integerPowOp[T](y)), nil
		}})
}

func defineFloatArith[T floatElem](dt trace.DType) {
	defBinary("add", dt, dt, simdBinary(simdAdd, addBlock[T]))
	defBinary("sub", dt, dt, simdBinary(simdSub, subBlock[T]))
	defBinary("mul", dt, dt, simdBinary(simdMul, mulBlock[T]))
	defBinary("div", dt, dt, simdBinary(simdDiv, divBlock[T]))
	defBinary("rem", dt, dt, fmodBlock[T])
	defBinary("max", dt, dt, simdBinary(simdMax, maxFloatBlock[T]))
	defBinary("min", dt, dt, simdBinary(simdMin, minFloatBlock[T]))
	defBinary("pow", dt, dt, powFloatBlock[T])
	defUnary("neg", dt, dt, simdUnary(simdNeg, negBlock[T]))
	defUnary("sign", dt, dt, signBlock[T])
	defUnary("abs", dt, dt, simdUnary(simdAbs, absFloatBlock[T]))
	defUnary("square", dt, dt, simdUnary(simdSquare, squareBlock[T]))
	defineClamp(dt, ternaryOp(clampFloatBlock[T]))
	defineIntegerPow[T](dt)
	definePowIntExponents(dt, func(exp trace.DType) blockOp { return powIntExpOp[T](exp) })
}

func defineComplexArith[T complexElem, R floatElem](dt, realDT trace.DType) {
	defBinary("add", dt, dt, addBlock[T])
	defBinary("sub", dt, dt, subBlock[T])
	defBinary("mul", dt, dt, mulBlock[T])
	defBinary("div", dt, dt, divBlock[T])
	defBinary("pow", dt, dt, powComplexBlock[T])
	defBinary("max", dt, dt, maxComplexBlock[T])
	defBinary("min", dt, dt, minComplexBlock[T])
	defUnary("neg", dt, dt, negBlock[T])
	defUnary("sign", dt, dt, signComplexBlock[T])
	defUnary("abs", dt, realDT, absComplexBlock[T, R])
	defUnary("square", dt, dt, squareBlock[T])
	defineIntegerPow[T](dt)
	definePowIntExponents(dt, func(exp trace.DType) blockOp { return powComplexIntExpOp[T](exp) })
}

func defineClamp(dt trace.DType, op blockOp) {
	defineBlock(blockKey{prim: "clamp", dt: dt}, blockEntry{compute: dt, result: dt, build: fixed(op)})
}

func defineIntegerPow[T numElem](dt trace.DType) {
	defineBlock(blockKey{prim: "integer_pow", dt: dt}, blockEntry{compute: dt, result: dt,
		build: func(p trace.Params, _ int) (blockOp, error) {
			y := p.Int("y")
			return unaryOp(simdIntegerPow(y, integerPowOp[T](y))), nil
		}})
}

// definePowIntExponents defines pow rows for a base of dtype dt (computed
// in float32 when it is 16-bit) with an exponent of each integer dtype.
func definePowIntExponents(dt trace.DType, op func(exp trace.DType) blockOp) {
	compute := dt
	if isHalf(dt) {
		compute = trace.Float32
	}
	for _, exp := range integerDTypes {
		defineBlock(blockKey{prim: "pow", dt: dt, aux: exp},
			blockEntry{compute: compute, result: compute, build: fixed(op(exp))})
	}
}

var integerDTypes = []trace.DType{trace.Int8, trace.Int16, trace.Int32, trace.Int64, trace.Uint8, trace.Uint16, trace.Uint32}

// forIntDType calls the instantiation of a generic over the Go integer type
// of dt.
func forIntDType(dt trace.DType, i8, i16, i32, i64, u8, u16, u32 func() blockOp) blockOp {
	switch dt {
	case trace.Int8:
		return i8()
	case trace.Int16:
		return i16()
	case trace.Int32:
		return i32()
	case trace.Int64:
		return i64()
	case trace.Uint8:
		return u8()
	case trace.Uint16:
		return u16()
	case trace.Uint32:
		return u32()
	}
	panic("cpu: not an integer dtype: " + dt.String())
}

func addBlock[T numElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] + y[i]
	}
}

func subBlock[T numElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] - y[i]
	}
}

func mulBlock[T numElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * y[i]
	}
}

// divBlock is IEEE division for floats and Go's (C99 Annex G style)
// division for complex numbers.
func divBlock[T floatElem | complexElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] / y[i]
	}
}

func divIntBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		if y[i] == 0 {
			dst[i] = ^T(0)
		} else {
			dst[i] = x[i] / y[i]
		}
	}
}

func remIntBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		if y[i] == 0 {
			dst[i] = x[i]
		} else {
			dst[i] = x[i] % y[i]
		}
	}
}

// fmodBlock: fmod is exact, so float32 through float64 is exact too.
func fmodBlock[T floatElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Mod(float64(x[i]), float64(y[i])))
	}
}

func maxIntBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = max(x[i], y[i])
	}
}

func minIntBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = min(x[i], y[i])
	}
}

// maxFloatBlock is XLA's max (not Go's built-in, which orders -0 < +0).
func maxFloatBlock[T floatElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = xlaMax(x[i], y[i])
	}
}

func minFloatBlock[T floatElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = xlaMin(x[i], y[i])
	}
}

func xlaMax[T floatElem](a, b T) T {
	if a >= b || a != a {
		return a
	}
	return b
}

func xlaMin[T floatElem](a, b T) T {
	if a <= b || a != a {
		return a
	}
	return b
}

func maxComplexBlock[T complexElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		a, b := complex128(x[i]), complex128(y[i])
		if real(a) > real(b) || real(a) == real(b) && imag(a) > imag(b) {
			dst[i] = x[i]
		} else {
			dst[i] = y[i]
		}
	}
}

func minComplexBlock[T complexElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		a, b := complex128(x[i]), complex128(y[i])
		if real(a) < real(b) || real(a) == real(b) && imag(a) < imag(b) {
			dst[i] = x[i]
		} else {
			dst[i] = y[i]
		}
	}
}

func clampIntBlock[T intElem](dst, lo, x, hi []T) {
	lo, x, hi = lo[:len(dst)], x[:len(dst)], hi[:len(dst)]
	for i := range dst {
		dst[i] = min(hi[i], max(lo[i], x[i]))
	}
}

func clampFloatBlock[T floatElem](dst, lo, x, hi []T) {
	lo, x, hi = lo[:len(dst)], x[:len(dst)], hi[:len(dst)]
	for i := range dst {
		dst[i] = xlaMin(hi[i], xlaMax(lo[i], x[i]))
	}
}

func negBlock[T numElem](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = -x[i]
	}
}

func squareBlock[T numElem](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * x[i]
	}
}

// signBlock: nan and ±0 fail both tests and pass through.
func signBlock[T realElem](dst, x []T) {
	x = x[:len(dst)]
	var zero, one T = 0, 1
	for i, v := range x {
		switch {
		case v > 0:
			dst[i] = one
		case v < 0:
			dst[i] = zero - one
		default:
			dst[i] = v
		}
	}
}

func signComplexBlock[T complexElem](dst, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v == 0 {
			dst[i] = 0
		} else {
			c := complex128(v)
			dst[i] = T(c / complex(cmplx.Abs(c), 0))
		}
	}
}

func absSignedBlock[T signedElem](dst, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v < 0 {
			v = -v
		}
		dst[i] = v
	}
}

// absFloatBlock clears the sign bit: abs(-0) = +0, nan stays nan.
func absFloatBlock[T floatElem](dst, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = T(math.Abs(float64(v)))
	}
}

func absComplexBlock[T complexElem, R floatElem](dst []R, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = R(cmplx.Abs(complex128(v)))
	}
}

func integerPowOp[T numElem](y int) func(dst, x []T) {
	return func(dst, x []T) {
		x = x[:len(dst)]
		for i, v := range x {
			dst[i] = integerPow(v, y)
		}
	}
}

// integerPow is JAX's _integer_pow: acc takes the powers of x for the set
// bits of |y|, lowest first, x squaring after each bit.
func integerPow[T numElem](x T, y int) T {
	if y == 0 {
		return 1
	}
	m := uint(y)
	if y < 0 {
		m = uint(-y)
	}
	var acc T
	have := false
	for m > 0 {
		if m&1 != 0 {
			if have {
				acc *= x
			} else {
				acc, have = x, true
			}
		}
		m >>= 1
		if m > 0 {
			x *= x
		}
	}
	if y < 0 {
		return 1 / acc // floats and complex only: the shape rule rejects integers
	}
	return acc
}

// powFloatBlock is C99 pow: vmath.Pow for float32, math.Pow for float64.
func powFloatBlock[T floatElem](dst, x, y []T) {
	if d, ok := any(dst).([]float32); ok {
		vmath.Pow(d, any(x).([]float32), any(y).([]float32))
		return
	}
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Pow(float64(x[i]), float64(y[i])))
	}
}

func powIntExpOp[T floatElem](exp trace.DType) blockOp {
	return forIntDType(exp,
		func() blockOp { return binaryOp(powIntExpBlock[T, int8]) },
		func() blockOp { return binaryOp(powIntExpBlock[T, int16]) },
		func() blockOp { return binaryOp(powIntExpBlock[T, int32]) },
		func() blockOp { return binaryOp(powIntExpBlock[T, int64]) },
		func() blockOp { return binaryOp(powIntExpBlock[T, uint8]) },
		func() blockOp { return binaryOp(powIntExpBlock[T, uint16]) },
		func() blockOp { return binaryOp(powIntExpBlock[T, uint32]) })
}

// powExpChunk bounds the stack scratch holding converted exponents.
const powExpChunk = 256

// powIntExpBlock converts the exponent to T first (rounding it when it
// does not fit), as lax.pow's lowering does, a chunk at a time.
func powIntExpBlock[T floatElem, I intElem](dst, x []T, y []I) {
	var e [powExpChunk]T
	for lo := 0; lo < len(dst); lo += powExpChunk {
		hi := min(len(dst), lo+powExpChunk)
		es := e[:hi-lo]
		for i, v := range y[lo:hi] {
			es[i] = T(v)
		}
		powFloatBlock(dst[lo:hi], x[lo:hi], es)
	}
}

func powHalfIntExpOp(dt, exp trace.DType) blockOp {
	bf := dt == trace.BFloat16
	return forIntDType(exp,
		func() blockOp { return binaryOp(powHalfIntExpBlock[int8](bf)) },
		func() blockOp { return binaryOp(powHalfIntExpBlock[int16](bf)) },
		func() blockOp { return binaryOp(powHalfIntExpBlock[int32](bf)) },
		func() blockOp { return binaryOp(powHalfIntExpBlock[int64](bf)) },
		func() blockOp { return binaryOp(powHalfIntExpBlock[uint8](bf)) },
		func() blockOp { return binaryOp(powHalfIntExpBlock[uint16](bf)) },
		func() blockOp { return binaryOp(powHalfIntExpBlock[uint32](bf)) })
}

// powHalfIntExpBlock is pow for a 16-bit base computed in float32: the
// exponent is rounded to the base's 16-bit dtype first, as in JAX (so a
// float16 base raised to the int 2049 is raised to 2048).
func powHalfIntExpBlock[I intElem](bf16 bool) func(dst, x []float32, y []I) {
	return func(dst, x []float32, y []I) {
		var e [powExpChunk]float32
		for lo := 0; lo < len(dst); lo += powExpChunk {
			hi := min(len(dst), lo+powExpChunk)
			es := e[:hi-lo]
			for i, v := range y[lo:hi] {
				if bf16 {
					es[i] = half.BFloat16ToFloat32(half.BFloat16FromFloat64(float64(v)))
				} else {
					es[i] = half.Float16ToFloat32(half.Float16FromFloat64(float64(v)))
				}
			}
			vmath.Pow(dst[lo:hi], x[lo:hi], es)
		}
	}
}

func powComplexBlock[T complexElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = T(cmplx.Pow(complex128(x[i]), complex128(y[i])))
	}
}

func powComplexIntExpOp[T complexElem](exp trace.DType) blockOp {
	return forIntDType(exp,
		func() blockOp { return binaryOp(powComplexIntExpBlock[T, int8]) },
		func() blockOp { return binaryOp(powComplexIntExpBlock[T, int16]) },
		func() blockOp { return binaryOp(powComplexIntExpBlock[T, int32]) },
		func() blockOp { return binaryOp(powComplexIntExpBlock[T, int64]) },
		func() blockOp { return binaryOp(powComplexIntExpBlock[T, uint8]) },
		func() blockOp { return binaryOp(powComplexIntExpBlock[T, uint16]) },
		func() blockOp { return binaryOp(powComplexIntExpBlock[T, uint32]) })
}

func powComplexIntExpBlock[T complexElem, I intElem](dst, x []T, y []I) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		e := T(complex(float64(y[i]), 0))
		dst[i] = T(cmplx.Pow(complex128(x[i]), complex128(e)))
	}
}
