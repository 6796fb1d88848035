package cpu

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/cpu/vmath"
	"github.com/jaxsh/jaxsh/trace"
)

// Floating-point block ops: floor ceil round is_finite, the
// transcendentals, logistic, atan2, nextafter and reduce_precision.
//
//   - float32 transcendentals run on cpu/vmath; float64 ones on math.
//     Functions vmath lacks (rsqrt, erfc, erf_inv) compute float32 through
//     float64 math and round once.
//   - floor, ceil and round are exact; round's rounding_method 0 rounds
//     halfway cases away from zero, 1 to even. is_finite is false for ±inf
//     and nan.
//   - logistic is 1/(1+exp(-x)) for x ≥ 0 and e/(1+e) with e = exp(x) for
//     x < 0, so neither side overflows and tiny results keep their digits.
//   - nextafter(x, y) is C's: y when x == y (so nextafter(0, -0) = -0),
//     the smallest subnormal toward y from ±0, nan when either is nan. It
//     steps the bits of the operands' own dtype, 16-bit floats included.
//   - reduce_precision is XLA's bit-exact emitter (EmitReducePrecisionIR)
//     on the operand's own format: mantissa rounded to nearest even,
//     exponents past the reduced range overflow to ±inf and below it flush
//     to ±0 (subnormals of the reduced format included); nan stays nan, or
//     becomes +inf when no mantissa bits are kept.
//   - complex64/complex128 have the functions math/cmplx provides (exp,
//     log, sqrt, rsqrt, the trigonometric and hyperbolic functions and
//     their inverses), computed in complex128. exp2, expm1, log1p and
//     logistic have no complex kernel: doing them well needs care that
//     no program so far has asked for. atan2 is real only.

func init() {
	for name, f := range float32Unary {
		defUnary(name, trace.Float32, trace.Float32, f)
	}
	for name, f := range float64Unary {
		defUnary(name, trace.Float64, trace.Float64, f)
	}
	defineFloatRounding[float32](trace.Float32)
	defineFloatRounding[float64](trace.Float64)
	defBinary("atan2", trace.Float32, trace.Float32, vmath.Atan2)
	defBinary("atan2", trace.Float64, trace.Float64, atan2Block[float64])

	// nextafter and reduce_precision work on the bits of each format.
	defineFloatBits[uint16](trace.Float16, 5, 10)
	defineFloatBits[uint16](trace.BFloat16, 8, 7)
	defineFloatBits[uint32](trace.Float32, 8, 23)
	defineFloatBits[uint64](trace.Float64, 11, 52)
}

var float32Unary = map[string]func(dst, x []float32){
	"exp": vmath.Exp, "exp2": vmath.Exp2, "expm1": vmath.Expm1,
	"log": vmath.Log, "log1p": vmath.Log1p,
	"sin": vmath.Sin, "cos": vmath.Cos, "tan": vmath.Tan,
	"asin": vmath.Asin, "acos": vmath.Acos, "atan": vmath.Atan,
	"sinh": vmath.Sinh, "cosh": vmath.Cosh, "tanh": vmath.Tanh,
	"asinh": vmath.Asinh, "acosh": vmath.Acosh, "atanh": vmath.Atanh,
	"sqrt": vmath.Sqrt, "cbrt": vmath.Cbrt, "erf": vmath.Erf,
	"logistic": logistic32Block,
	// XLA's own approximation, so jax.random.normal's bits match.
	"erf_inv": erfInv32Block,
	// Not in vmath: through float64.
	"rsqrt": rsqrtBlock[float32], "erfc": erfcBlock[float32],
}

var float64Unary = map[string]func(dst, x []float64){
	"exp": exp64, "exp2": exp2_64, "expm1": expm1_64, "log": log64, "log1p": log1p64,
	"sin": sin64, "cos": cos64, "tan": tan64, "asin": asin64, "acos": acos64, "atan": atan64,
	"sinh": sinh64, "cosh": cosh64, "tanh": tanh64,
	"asinh": asinh64, "acosh": acosh64, "atanh": atanh64,
	"sqrt": sqrt64, "cbrt": cbrt64, "erf": erf64, "logistic": logistic64Block,
	"rsqrt": rsqrtBlock[float64], "erfc": erfcBlock[float64], "erf_inv": erfInvBlock[float64],
}

// The float64 functions, one loop each so that the call to math is direct.
func exp64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Exp(v)
	}
}

func exp2_64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Exp2(v)
	}
}

func expm1_64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Expm1(v)
	}
}

func log64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Log(v)
	}
}

func log1p64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Log1p(v)
	}
}

func sin64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Sin(v)
	}
}

func cos64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Cos(v)
	}
}

func tan64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Tan(v)
	}
}

func asin64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Asin(v)
	}
}

func acos64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Acos(v)
	}
}

func atan64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Atan(v)
	}
}

func sinh64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Sinh(v)
	}
}

func cosh64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Cosh(v)
	}
}

func tanh64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Tanh(v)
	}
}

func asinh64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Asinh(v)
	}
}

func acosh64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Acosh(v)
	}
}

func atanh64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Atanh(v)
	}
}

func sqrt64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Sqrt(v)
	}
}

func cbrt64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Cbrt(v)
	}
}

func erf64(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		dst[i] = math.Erf(v)
	}
}

// rsqrtBlock: 1/sqrt in float64, then one rounding to T.
// TODO(vmath): a vmath.Rsqrt for float32 would skip the float64 divide.
func rsqrtBlock[T floatElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(1 / math.Sqrt(float64(v)))
	}
}

// TODO(vmath): switch float32 to vmath.Erfc once it exists.
func erfcBlock[T floatElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(math.Erfc(float64(v)))
	}
}

// erfInvBlock: erf_inv(±1) = ±inf, nan outside [-1, 1]. float32 uses
// erfInv32Block (XLA's approximation) instead.
func erfInvBlock[T floatElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(math.Erfinv(float64(v)))
	}
}

func atan2Block[T floatElem](dst, y, x []T) {
	y, x = y[:len(dst)], x[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Atan2(float64(y[i]), float64(x[i])))
	}
}

// logisticChunk bounds the stack scratch of logistic32Block.
const logisticChunk = 256

// logistic32Block evaluates exp(-|x|) a chunk at a time with vmath, then
// finishes each element by the sign of x (dst may be x itself, so x is
// read before dst is written).
func logistic32Block(dst, x []float32) {
	x = x[:len(dst)]
	var e [logisticChunk]float32
	for lo := 0; lo < len(dst); lo += logisticChunk {
		xs := x[lo:min(len(x), lo+logisticChunk)]
		es := e[:len(xs)]
		for i, v := range xs {
			es[i] = -float32(math.Abs(float64(v)))
		}
		vmath.Exp(es, es)
		for i, v := range xs {
			if v >= 0 {
				dst[lo+i] = 1 / (1 + es[i])
			} else {
				dst[lo+i] = es[i] / (1 + es[i]) // nan lands here too
			}
		}
	}
}

func logistic64Block(dst, x []float64) {
	for i, v := range x[:len(dst)] {
		e := math.Exp(-math.Abs(v))
		if v >= 0 {
			dst[i] = 1 / (1 + e)
		} else {
			dst[i] = e / (1 + e)
		}
	}
}

func defineFloatRounding[T floatElem](dt trace.DType) {
	defUnary("floor", dt, dt, floorBlock[T])
	defUnary("ceil", dt, dt, ceilBlock[T])
	defUnary("is_finite", dt, trace.Bool, isFiniteBlock[T])
	defineBlock(blockKey{prim: "round", dt: dt}, blockEntry{compute: dt, result: dt,
		build: func(p trace.Params, _ int) (blockOp, error) {
			switch m, _ := trace.ParamAs[trace.RoundingMethod](p, "rounding_method"); m {
			case trace.RoundAwayFromZero:
				return unaryOp(roundAwayBlock[T]), nil
			case trace.RoundToNearestEven:
				return unaryOp(roundEvenBlock[T]), nil
			default:
				return nil, fmt.Errorf("unknown rounding_method %d", m)
			}
		}})
}

// floorBlock and its siblings round through float64, which is exact for
// float32 too.
func floorBlock[T floatElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(math.Floor(float64(v)))
	}
}

func ceilBlock[T floatElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(math.Ceil(float64(v)))
	}
}

func roundAwayBlock[T floatElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(math.Round(float64(v)))
	}
}

func roundEvenBlock[T floatElem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = T(math.RoundToEven(float64(v)))
	}
}

// isFiniteBlock: v-v is 0 for finite v and nan for ±inf and nan.
func isFiniteBlock[T floatElem](dst []bool, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = v-v == 0
	}
}

type floatBits interface{ ~uint16 | ~uint32 | ~uint64 }

// defineFloatBits defines nextafter and reduce_precision on the bits of a
// float format with expBits exponent and mantBits stored mantissa bits.
func defineFloatBits[U floatBits](dt trace.DType, expBits, mantBits int) {
	inf := (U(1)<<expBits - 1) << mantBits
	defBinary("nextafter", dt, dt, func(dst, x, y []U) { nextafterBits(dst, x, y, inf) })
	defineBlock(blockKey{prim: "reduce_precision", dt: dt}, blockEntry{compute: dt, result: dt,
		build: func(p trace.Params, _ int) (blockOp, error) {
			exp, mant := p.Int("exponent_bits"), p.Int("mantissa_bits")
			if exp < 1 || mant < 0 {
				return nil, fmt.Errorf("exponent_bits %d and mantissa_bits %d out of range", exp, mant)
			}
			return unaryOp(func(dst, x []U) { reducePrecisionBits(dst, x, expBits, mantBits, exp, mant) }), nil
		}})
}

// nextafterBits steps x toward y by one unit in the last place, on bits
// whose positive infinity is inf (the top bit is the sign).
func nextafterBits[U floatBits](dst, x, y []U, inf U) {
	x, y = x[:len(dst)], y[:len(dst)]
	sign := ^(^U(0) >> 1)
	for i := range dst {
		a, b := x[i], y[i]
		am, bm := a&^sign, b&^sign
		switch {
		case am > inf:
			dst[i] = a
		case bm > inf:
			dst[i] = b
		case a == b || am|bm == 0: // equal values, ±0 included
			dst[i] = b
		case am == 0:
			dst[i] = b&sign | 1
		case a&sign == b&sign && bm > am: // y is further from zero
			dst[i] = a + 1
		default:
			dst[i] = a - 1
		}
	}
}

// reducePrecisionBits is XLA's EmitReducePrecisionIR (without quieting
// nans) on a format with srcExp exponent and srcMant mantissa bits.
func reducePrecisionBits[U floatBits](dst, x []U, srcExp, srcMant, exp, mant int) {
	x = x[:len(dst)]
	sign := U(1) << (srcExp + srcMant)
	expMask := (U(1)<<srcExp - 1) << srcMant
	for i, v := range x {
		r := v
		if mant < srcMant {
			drop := srcMant - mant
			last := U(1) << drop
			bias := last>>1 - 1 + (r&last)>>drop // ties to even
			r = (r + bias) &^ (last - 1)
		}
		if exp < srcExp {
			bias := U(1)<<(srcExp-1) - 1
			reduced := U(1)<<(exp-1) - 1
			e := r & expMask
			switch {
			case e > (bias+reduced)<<srcMant:
				r = r&sign | expMask
			case e <= (bias-reduced)<<srcMant:
				r &= sign
			}
		}
		if v&^sign > expMask { // nan
			if mant > 0 {
				r = v
			} else {
				r = expMask
			}
		}
		dst[i] = r
	}
}
