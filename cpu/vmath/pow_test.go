package vmath

import (
	"math"
	"testing"
)

func TestPowAccuracy(t *testing.T) {
	n := uint64(1 << 11)
	if raceEnabled || testing.Short() {
		n = 1 << 8
	}
	var vals []float32
	for b := uint64(54321); b < 1<<32; b += (1 << 32) / n {
		vals = append(vals, math.Float32frombits(uint32(b)))
	}
	specials := []float32{0, negZ, 1, -1, 2, -2, 0.5, -0.5, 3, -3, inf, -inf, nan, tiny, -tiny, maxF, -maxF, 1e-3, 100}
	vals = append(vals, specials...)
	pow := binaryCase{"pow", Pow, Pow32, math.Pow, 0.51}
	checkBinary(t, pow, vals, vals)
	// Ordinary ranges, where sweeps over all bit patterns are thin: bases
	// near 1 with large exponents stress log's accuracy.
	bases := append(denseRange(-4, 4, 257), denseRange(0.99, 1.01, 129)...)
	exps := append(denseRange(-40, 40, 321), denseRange(-2, 2, 97)...)
	checkBinary(t, pow, bases, append(exps, 1e4, -1e4, 1e6, 12345, 0x1p24, 0x1p24+2))
}

func TestPowSpecials(t *testing.T) {
	negInfOdd := float32(-3)
	for _, c := range []struct{ x, y, want float32 }{
		{nan, 0, 1}, {nan, negZ, 1}, {inf, 0, 1}, {0, 0, 1}, {-5, 0, 1},
		{1, nan, 1}, {1, inf, 1}, {1, -inf, 1}, {1, 5, 1},
		{nan, 1, nan}, {2, nan, nan}, {-1, nan, nan},
		{0, -1, inf}, {negZ, -1, -inf}, {negZ, -2, inf}, {0, -0.5, inf}, {negZ, -inf, inf}, {negZ, inf, 0},
		{0, 3, 0}, {negZ, 3, negZ}, {negZ, 2, 0}, {negZ, 0.5, 0},
		{-1, inf, 1}, {-1, -inf, 1}, {0.5, inf, 0}, {0.5, -inf, inf}, {2, inf, inf}, {2, -inf, 0},
		{inf, 2, inf}, {inf, -2, 0}, {-inf, 3, -inf}, {-inf, 2, inf}, {-inf, negInfOdd, negZ}, {-inf, -2, 0},
		{-8, float32(1.0 / 3), nan}, {-2, 0.5, nan}, {-2, 3, -8}, {-2, 2, 4}, {-2, -1, -0.5}, {-1, 0x1p24 + 2, 1},
		{-1, 0x1p23 + 1, -1}, {-2, 128, inf}, {-2, 129, -inf}, {-2, -150, 0}, {-2, -149, -tiny},
		{2, 0.5, float32(math.Sqrt2)}, {2, 10, 1024}, {10, 3, 1000}, {2, -149, tiny}, {2, -150, 0},
		{2, 128, inf}, {maxF, 2, inf}, {tiny, 2, 0}, {4, 0.5, 2}, {1e30, 1e30, inf}, {1e-30, 1e30, 0},
	} {
		xs, ys := []float32{c.x}, []float32{c.y}
		for len(xs) < chunk { // through a full chunk as well as the tail loop
			xs, ys = append(xs, 2), append(ys, 2)
		}
		dst := make([]float32, chunk)
		Pow(dst, xs, ys)
		for _, got := range []float32{Pow32(c.x, c.y), dst[0]} {
			if !sameFloat(got, c.want) {
				t.Errorf("pow(%s, %s) = %s, want %s", show(c.x), show(c.y), show(got), show(c.want))
			}
		}
	}
}

func TestSqrtCbrt(t *testing.T) {
	checkUnary(t, unaryCase{"sqrt", Sqrt, Sqrt32, math.Sqrt, 0.5, nil, nil})
	extra := denseRange(-10, 10, 8192)
	for e := -149; e <= 127; e++ {
		extra = append(extra, nearby(math.Ldexp(1, e), 2)...)
	}
	checkUnary(t, unaryCase{"cbrt", Cbrt, Cbrt32, math.Cbrt, 0.51, extra, nil})
	checkSpecials(t, "sqrt", Sqrt, Sqrt32, []specialCase{
		{0, 0}, {negZ, negZ}, {-1, nan}, {-inf, nan}, {inf, inf}, {nan, nan}, {4, 2}, {tiny, float32(math.Sqrt(float64(tiny)))},
	})
	checkSpecials(t, "cbrt", Cbrt, Cbrt32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, inf}, {-inf, -inf}, {nan, nan}, {8, 2}, {-27, -3}, {1e-45, float32(math.Cbrt(float64(tiny)))},
		{0.125, 0.5}, {maxF, float32(math.Cbrt(float64(maxF)))}, {1000, 10},
	})
}
