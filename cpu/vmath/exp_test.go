package vmath

import (
	"math"
	"testing"
)

// expBoundaries are inputs at the edges of the exp reduction cells
// (multiples of ln2/64) and of the float32 range.
func expBoundaries() []float32 {
	var out []float32
	for k := -100; k <= 100; k += 3 {
		out = append(out, nearby(float64(k)*math.Ln2/64, 2)...)
	}
	for _, v := range []float64{88.72283, -87.33654, -103.97208, -104, 89, 0x1p-25, 127, 128, -149, -150, 150} {
		out = append(out, nearby(v, 3)...)
		out = append(out, nearby(-v, 3)...)
	}
	return append(out, denseRange(-2, 2, 4096)...)
}

func TestExpAccuracy(t *testing.T) {
	checkUnary(t, unaryCase{"exp", Exp, Exp32, math.Exp, 0.51, expBoundaries(), nil})
	checkUnary(t, unaryCase{"exp2", Exp2, Exp2_32, math.Exp2, 0.51, append(expBoundaries(), denseRange(-150, 129, 4096)...), nil})
	checkUnary(t, unaryCase{"expm1", Expm1, Expm1_32, math.Expm1, 0.51, expBoundaries(), nil})
}

func TestExpSpecials(t *testing.T) {
	checkSpecials(t, "exp", Exp, Exp32, []specialCase{
		{0, 1}, {negZ, 1}, {inf, inf}, {-inf, 0}, {nan, nan},
		{88.72283, 3.4027985e38}, {88.72284, inf}, {1000, inf}, {-1000, 0},
		{-103.97208, tiny}, {-104, 0}, {tiny, 1}, {-tiny, 1}, {1, float32(math.E)},
	})
	checkSpecials(t, "exp2", Exp2, Exp2_32, []specialCase{
		{0, 1}, {negZ, 1}, {inf, inf}, {-inf, 0}, {nan, nan},
		{1, 2}, {10, 1024}, {-1, 0.5}, {127, 0x1p127}, {128, inf}, {-126, minNrm}, {-149, tiny},
		{-150, 0}, {-149.5, tiny}, {-151, 0}, {0.5, float32(math.Sqrt2)},
	})
	checkSpecials(t, "expm1", Expm1, Expm1_32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, inf}, {-inf, -1}, {nan, nan}, {tiny, tiny}, {-tiny, -tiny},
		{minNrm, minNrm}, {1e-10, 1e-10}, {-1e-10, -1e-10}, {-20, -1}, {-1000, -1}, {89, inf}, {1000, inf},
	})
}
