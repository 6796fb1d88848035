package cpu

import (
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

func TestRoundingAndClassification(t *testing.T) {
	T, F := true, false
	away := trace.Params{"rounding_method": trace.RoundAwayFromZero}
	even := trace.Params{"rounding_method": trace.RoundToNearestEven}
	for _, dt := range []trace.DType{f16, bf16, f32, f64} {
		runEwCases(t, []ewCase{
			{"floor", nil, dts(dt), [][]any{{-1.5, 1.5, negZ, nan, inf, -0.25}}, []any{-2.0, 1.0, negZ, nan, inf, -1.0}},
			{"ceil", nil, dts(dt), [][]any{{-1.5, 1.5, negZ, nan, -inf, -0.25}}, []any{-1.0, 2.0, negZ, nan, -inf, negZ}},
			{"round", away, dts(dt), [][]any{{0.5, 1.5, 2.5, -0.5, -2.5, 0.25, nan}}, []any{1.0, 2.0, 3.0, -1.0, -3.0, 0.0, nan}},
			{"round", even, dts(dt), [][]any{{0.5, 1.5, 2.5, -0.5, -2.5, -0.25, inf}}, []any{0.0, 2.0, 2.0, negZ, -2.0, negZ, inf}},
			{"is_finite", nil, dts(dt), [][]any{{1, inf, -inf, nan, 0.0, 65504}}, []any{T, F, F, F, T, T}},
		})
	}
	runEwCases(t, []ewCase{
		{"round", even, dts(f32), [][]any{{8388609.0}}, []any{8388609.0}}, // already an integer
		{"is_finite", nil, dts(f64), [][]any{{math.MaxFloat64, 5e-324}}, []any{T, T}},
	})
}

// Exact values at special points, for float32 (vmath) and float64 (math).
func TestTranscendentalSpecialValues(t *testing.T) {
	for _, dt := range []trace.DType{f32, f64} {
		runEwCases(t, []ewCase{
			{"exp", nil, dts(dt), [][]any{{0.0, -inf, inf, nan, 1000}}, []any{1.0, 0.0, inf, nan, inf}},
			{"exp2", nil, dts(dt), [][]any{{3, -1, -inf}}, []any{8.0, 0.5, 0.0}},
			{"expm1", nil, dts(dt), [][]any{{0.0, negZ, -inf}}, []any{0.0, negZ, -1.0}},
			{"log", nil, dts(dt), [][]any{{1, 0.0, -1, inf, nan}}, []any{0.0, -inf, nan, inf, nan}},
			{"log1p", nil, dts(dt), [][]any{{0.0, negZ, -1, -2}}, []any{0.0, negZ, -inf, nan}},
			{"sin", nil, dts(dt), [][]any{{0.0, negZ, inf, nan}}, []any{0.0, negZ, nan, nan}},
			{"cos", nil, dts(dt), [][]any{{0.0, inf}}, []any{1.0, nan}},
			{"tan", nil, dts(dt), [][]any{{0.0, negZ}}, []any{0.0, negZ}},
			{"asin", nil, dts(dt), [][]any{{0.0, 2, -1}}, []any{0.0, nan, f32vIf(dt, -math.Pi/2)}},
			{"acos", nil, dts(dt), [][]any{{1, 2}}, []any{0.0, nan}},
			{"atan", nil, dts(dt), [][]any{{0.0, negZ, nan}}, []any{0.0, negZ, nan}},
			{"sinh", nil, dts(dt), [][]any{{0.0, negZ, inf, -inf}}, []any{0.0, negZ, inf, -inf}},
			{"cosh", nil, dts(dt), [][]any{{0.0, -inf}}, []any{1.0, inf}},
			{"tanh", nil, dts(dt), [][]any{{0.0, negZ, inf, -inf, 100}}, []any{0.0, negZ, 1.0, -1.0, 1.0}},
			{"asinh", nil, dts(dt), [][]any{{0.0, negZ, inf}}, []any{0.0, negZ, inf}},
			{"acosh", nil, dts(dt), [][]any{{1, 0.5, inf}}, []any{0.0, nan, inf}},
			{"atanh", nil, dts(dt), [][]any{{0.0, 1, -1, 2}}, []any{0.0, inf, -inf, nan}},
			{"sqrt", nil, dts(dt), [][]any{{4, 0.0, negZ, -1, inf}}, []any{2.0, 0.0, negZ, nan, inf}},
			{"rsqrt", nil, dts(dt), [][]any{{4, 0.0, negZ, -1, inf}}, []any{0.5, inf, -inf, nan, 0.0}},
			{"cbrt", nil, dts(dt), [][]any{{-8, 27, negZ, -inf}}, []any{-2.0, 3.0, negZ, -inf}},
			{"erf", nil, dts(dt), [][]any{{0.0, negZ, inf, -inf}}, []any{0.0, negZ, 1.0, -1.0}},
			{"erfc", nil, dts(dt), [][]any{{0.0, inf, -inf}}, []any{1.0, 0.0, 2.0}},
			{"erf_inv", nil, dts(dt), [][]any{{0.0, 1, -1, 1.5, nan}}, []any{0.0, inf, -inf, nan, nan}},
			{"logistic", nil, dts(dt), [][]any{{0.0, inf, -inf, nan, 1000, -1000}}, []any{0.5, 1.0, 0.0, nan, 1.0, 0.0}},
			// atan2(y, x): the signs of zeros choose the quadrant.
			{"atan2", nil, dts(dt), [][]any{{0.0, negZ, 0.0, negZ, 1}, {-1, -1, 0.0, 0.0, inf}},
				[]any{f32vIf(dt, math.Pi), f32vIf(dt, -math.Pi), 0.0, negZ, 0.0}},
		})
	}
}

// f32vIf rounds x to float32 when dt is float32.
func f32vIf(dt trace.DType, x float64) float64 {
	if dt == f32 {
		return f32v(x)
	}
	return x
}

// logistic of a large negative x keeps its digits: exp(x)/(1+exp(x)),
// where 1/(1+exp(-x)) would overflow exp(-x) and give 0.
func TestLogisticIsStable(t *testing.T) {
	out := apply(t, "logistic", nil, bufferOf(t, f32, []int{3}, -90.0, -20.0, 30.0))
	for i, x := range []float64{-90, -20, 30} {
		want := 1 / (1 + math.Exp(-x))
		if x < 0 {
			want = math.Exp(x) / (1 + math.Exp(x))
		}
		got := out[0].Element(i).(float64)
		if ulps := ulpDistance32(got, want); ulps > 2 {
			t.Errorf("logistic(%g) = %g, want %g (%d ulps)", x, got, want, ulps)
		}
	}
}

// ulpDistance32 is how many float32 steps separate got from the float32
// nearest want.
func ulpDistance32(got, want float64) int64 {
	key := func(f float32) int64 {
		b := int64(math.Float32bits(f))
		if b&(1<<31) != 0 {
			b = -(b &^ (1 << 31))
		}
		return b
	}
	d := key(float32(got)) - key(float32(want))
	if d < 0 {
		d = -d
	}
	return d
}

// TestTranscendentalAccuracy sweeps each unary function over its domain in
// float32, float16 and bfloat16 and compares with float64 math: float32
// within 4 ulps, the 16-bit types within 1 ulp of their own.
func TestTranscendentalAccuracy(t *testing.T) {
	type fn struct {
		ref    func(float64) float64
		lo, hi float64
	}
	fns := map[string]fn{
		"exp": {math.Exp, -87, 88}, "exp2": {math.Exp2, -126, 127}, "expm1": {math.Expm1, -10, 10},
		"log": {math.Log, 1e-30, 1e30}, "log1p": {math.Log1p, -0.99, 100},
		"sin": {math.Sin, -100, 100}, "cos": {math.Cos, -100, 100}, "tan": {math.Tan, -1.5, 1.5},
		"asin": {math.Asin, -1, 1}, "acos": {math.Acos, -1, 1}, "atan": {math.Atan, -50, 50},
		"sinh": {math.Sinh, -20, 20}, "cosh": {math.Cosh, -20, 20}, "tanh": {math.Tanh, -10, 10},
		"asinh": {math.Asinh, -1e5, 1e5}, "acosh": {math.Acosh, 1, 1e5}, "atanh": {math.Atanh, -0.999, 0.999},
		"sqrt": {math.Sqrt, 0, 1e30}, "rsqrt": {func(x float64) float64 { return 1 / math.Sqrt(x) }, 1e-30, 1e30},
		"cbrt": {math.Cbrt, -1e30, 1e30}, "erf": {math.Erf, -5, 5}, "erfc": {math.Erfc, -5, 9},
		// XLA's float32 approximation (erfInv32): ≤ 5 ulp on [-0.99, 0.99];
		// nearer ±1 the rounding of x*x is amplified by the function's
		// steepness (13 ulp up to 0.999, 65 up to 1-1e-7), as in JAX.
		"erf_inv":  {math.Erfinv, -0.99, 0.99},
		"logistic": {func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, -80, 80},
	}
	const n = 2000
	for name, f := range fns {
		xs := make([]any, n)
		for i := range xs {
			xs[i] = f.lo + (f.hi-f.lo)*float64(i)/(n-1)
		}
		for _, dt := range []trace.DType{f32, f16, bf16} {
			in := bufferOf(t, dt, []int{n}, xs...)
			out := apply(t, name, nil, in)[0]
			worst := int64(0)
			for i := 0; i < n; i++ {
				x := in.Element(i).(float64)
				want := f.ref(x)
				got := out.Element(i).(float64)
				var d int64
				switch dt {
				case f32:
					d = ulpDistance32(got, want)
				case f16:
					d = halfDistance(half.Float16FromFloat64(got), half.Float16FromFloat64(want))
				case bf16:
					d = halfDistance(half.BFloat16FromFloat64(got), half.BFloat16FromFloat64(want))
				}
				if math.IsNaN(got) != math.IsNaN(want) {
					d = math.MaxInt64
				}
				if d > worst {
					worst = d
					limit := map[bool]int64{true: 4, false: 1}[dt == f32]
					if name == "erf_inv" && dt == f32 {
						limit = 5
					}
					if d > limit {
						t.Errorf("%s(%s %g) = %g, want %g", name, dt, x, got, want)
					}
				}
			}
		}
	}
}

func halfDistance(a, b uint16) int64 {
	key := func(h uint16) int64 {
		if h&0x8000 != 0 {
			return -int64(h &^ 0x8000)
		}
		return int64(h)
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return d
}

// nextafter steps one unit in the last place of the operands' own dtype.
func TestNextafter(t *testing.T) {
	minSub32 := float64(math.SmallestNonzeroFloat32)
	runEwCases(t, []ewCase{
		{"nextafter", nil, dts(f32), [][]any{{1, 1, 0.0, 0.0, 0.0, nan, 1, inf, -1, 2}, {2, 0.0, 1, -1, negZ, 1, nan, 0.0, -inf, 2}},
			[]any{1 + 0x1p-23, 1 - 0x1p-24, minSub32, -minSub32, negZ, nan, nan, float64(math.MaxFloat32), -1 - 0x1p-23, 2.0}},
		{"nextafter", nil, dts(f64), [][]any{{1, negZ}, {2, 1}}, []any{1 + 0x1p-52, 5e-324}},
		{"nextafter", nil, dts(f16), [][]any{{1, 1, 0.0, 65504}, {2, 0.0, -1, inf}}, []any{1 + 0x1p-10, 1 - 0x1p-11, -0x1p-24, inf}},
		{"nextafter", nil, dts(bf16), [][]any{{1, -1}, {2, 0.0}}, []any{1 + 0x1p-7, -1 + 0x1p-8}},
	})
}

// reduce_precision is XLA's bit-exact emitter on the operand's own format.
func TestReducePrecision(t *testing.T) {
	toBF16 := trace.Params{"exponent_bits": 8, "mantissa_bits": 7}
	toF16 := trace.Params{"exponent_bits": 5, "mantissa_bits": 10}
	noMantissa := trace.Params{"exponent_bits": 8, "mantissa_bits": 0}
	runEwCases(t, []ewCase{
		// 1+2^-8 is a tie between 1 and 1+2^-7: even wins; 1+3·2^-8 rounds up
		// to the even 1+2^-6.
		{"reduce_precision", toBF16, dts(f32), [][]any{{1 + 0x1p-8, 1 + 3*0x1p-8, -3.0, nan, inf}}, []any{1.0, 1 + 0x1p-6, -3.0, nan, inf}},
		// Beyond float16's range: ±inf; below its normal range: ±0
		// (float16's subnormals flush too); the largest float16 stays.
		{"reduce_precision", toF16, dts(f32), [][]any{{1e5, -1e5, 1e-5, -1e-8, 65504, 0.1}}, []any{inf, -inf, 0.0, negZ, 65504.0, 0.0999755859375}},
		{"reduce_precision", toF16, dts(f64), [][]any{{65520.0, 1 + 0x1p-11}}, []any{inf, 1.0}},
		// With no mantissa bits a nan becomes +inf; values round to powers
		// of two, a tie (3) to the one with an even exponent field (2).
		{"reduce_precision", noMantissa, dts(f32), [][]any{{nan, 3, 5, -1.4, 6}}, []any{inf, 2.0, 4.0, -1.0, 8.0}},
		// A float16 operand reduced to its own format is unchanged,
		// subnormals included; to bfloat16's exponent range its values all fit.
		{"reduce_precision", toF16, dts(f16), [][]any{{0x1p-24, 65504, nan}}, []any{0x1p-24, 65504.0, nan}},
		{"reduce_precision", trace.Params{"exponent_bits": 5, "mantissa_bits": 2}, dts(f16), [][]any{{1.125, 1.375, 0x1p-20}}, []any{1.0, 1.5, 0.0}},
		{"reduce_precision", trace.Params{"exponent_bits": 8, "mantissa_bits": 3}, dts(bf16), [][]any{{1.0625, 1.1875}}, []any{1.0, 1.25}},
	})
}

func TestComplexTranscendentals(t *testing.T) {
	runEwCases(t, []ewCase{
		{"exp", nil, dts(c128), [][]any{{complex(0, 0)}}, []any{complex(1, 0)}},
		{"log", nil, dts(c128), [][]any{{complex(1, 0)}}, []any{complex(0, 0)}},
		{"sqrt", nil, dts(c128), [][]any{{complex(-4, 0)}}, []any{complex(0, 2)}},
		{"rsqrt", nil, dts(c64), [][]any{{complex(4, 0)}}, []any{complex(0.5, 0)}},
		{"sin", nil, dts(c64), [][]any{{complex(0, 0)}}, []any{complex(0, 0)}},
		{"tanh", nil, dts(c128), [][]any{{complex(0, 0)}}, []any{complex(0, 0)}},
	})
}
