package vmath

import (
	"math"
	"testing"
)

func hyperbolicBoundaries() []float32 {
	out := append(denseRange(-3, 3, 8192), denseRange(-100, 100, 8192)...)
	for e := -149; e <= 127; e++ {
		out = append(out, nearby(math.Ldexp(1, e), 1)...)
		out = append(out, nearby(-math.Ldexp(1, e), 1)...)
	}
	for _, v := range []float64{1, 9, 9.1, 75, 88.7, 89.4, 89.5, 150} {
		out = append(out, nearby(v, 4)...)
		out = append(out, nearby(-v, 4)...)
	}
	return out
}

func TestHyperbolicAccuracy(t *testing.T) {
	b := hyperbolicBoundaries()
	checkUnary(t, unaryCase{"tanh", Tanh, Tanh32, math.Tanh, 0.51, b, nil})
	checkUnary(t, unaryCase{"sinh", Sinh, Sinh32, math.Sinh, 0.51, b, nil})
	checkUnary(t, unaryCase{"cosh", Cosh, Cosh32, math.Cosh, 0.51, b, nil})
	checkUnary(t, unaryCase{"asinh", Asinh, Asinh32, math.Asinh, logMaxUlp, b, nil})
	checkUnary(t, unaryCase{"acosh", Acosh, Acosh32, math.Acosh, logMaxUlp, append(b, denseRange(1, 1.01, 4096)...), nil})
	checkUnary(t, unaryCase{"atanh", Atanh, Atanh32, math.Atanh, logMaxUlp, append(b, denseRange(-1, 1, 8192)...), nil})
}

func TestHyperbolicSpecials(t *testing.T) {
	checkSpecials(t, "tanh", Tanh, Tanh32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, 1}, {-inf, -1}, {nan, nan}, {tiny, tiny}, {-tiny, -tiny},
		{20, 1}, {-20, -1}, {1000, 1}, {maxF, 1}, {9, 0.99999994},
	})
	checkSpecials(t, "sinh", Sinh, Sinh32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, inf}, {-inf, -inf}, {nan, nan}, {tiny, tiny}, {-tiny, -tiny},
		{90, inf}, {-90, -inf}, {1000, inf}, {-maxF, -inf},
	})
	checkSpecials(t, "cosh", Cosh, Cosh32, []specialCase{
		{0, 1}, {negZ, 1}, {inf, inf}, {-inf, inf}, {nan, nan}, {tiny, 1}, {90, inf}, {-90, inf}, {-maxF, inf},
	})
	checkSpecials(t, "asinh", Asinh, Asinh32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, inf}, {-inf, -inf}, {nan, nan}, {tiny, tiny}, {-tiny, -tiny},
		{maxF, float32(math.Asinh(float64(maxF)))}, {-maxF, -float32(math.Asinh(float64(maxF)))},
	})
	checkSpecials(t, "acosh", Acosh, Acosh32, []specialCase{
		{1, 0}, {0.5, nan}, {0, nan}, {negZ, nan}, {-1, nan}, {inf, inf}, {-inf, nan}, {nan, nan},
		{maxF, float32(math.Acosh(float64(maxF)))},
	})
	checkSpecials(t, "atanh", Atanh, Atanh32, []specialCase{
		{0, 0}, {negZ, negZ}, {1, inf}, {-1, -inf}, {1.5, nan}, {-1.5, nan}, {inf, nan}, {-inf, nan},
		{nan, nan}, {tiny, tiny}, {-tiny, -tiny},
	})
}
