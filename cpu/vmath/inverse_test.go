package vmath

import (
	"math"
	"testing"
)

func inverseBoundaries() []float32 {
	out := append(denseRange(-1, 1, 16384), denseRange(-20, 20, 8192)...)
	for _, v := range []float64{0.5, 1, 0.999, 2} {
		out = append(out, nearby(v, 16)...)
		out = append(out, nearby(-v, 16)...)
	}
	for e := -149; e <= 127; e++ {
		out = append(out, nearby(math.Ldexp(1, e), 1)...)
		out = append(out, nearby(-math.Ldexp(1, e), 1)...)
	}
	return out
}

func TestInverseTrigAccuracy(t *testing.T) {
	b := inverseBoundaries()
	checkUnary(t, unaryCase{"asin", Asin, Asin32, math.Asin, 0.51, b, nil})
	checkUnary(t, unaryCase{"acos", Acos, Acos32, math.Acos, 0.51, b, nil})
	checkUnary(t, unaryCase{"atan", Atan, Atan32, math.Atan, 0.51, b, nil})
}

func TestAtan2Accuracy(t *testing.T) {
	// The cross product of two sweeps: 2^11 × 2^11 pairs (2^8 × 2^8 under
	// the race detector or -short), plus values around the octant edges.
	n := uint64(1 << 11)
	if raceEnabled || testing.Short() {
		n = 1 << 8
	}
	var vals []float32
	for b := uint64(12345); b < 1<<32; b += (1 << 32) / n {
		vals = append(vals, math.Float32frombits(uint32(b)))
	}
	vals = append(vals, 0, negZ, 1, -1, inf, -inf, nan, tiny, -tiny, maxF, -maxF, 0.5, -2)
	checkBinary(t, binaryCase{"atan2", Atan2, Atan2_32, math.Atan2, 0.51}, vals, vals)
	near := denseRange(-2, 2, 97)
	checkBinary(t, binaryCase{"atan2", Atan2, Atan2_32, math.Atan2, 0.51}, near, append(near, nearby(1, 3)...))
}

func TestInverseTrigSpecials(t *testing.T) {
	checkSpecials(t, "asin", Asin, Asin32, []specialCase{
		{0, 0}, {negZ, negZ}, {1, float32(math.Pi / 2)}, {-1, -float32(math.Pi / 2)}, {1.0000001, nan},
		{-2, nan}, {inf, nan}, {-inf, nan}, {nan, nan}, {tiny, tiny}, {-tiny, -tiny},
	})
	checkSpecials(t, "acos", Acos, Acos32, []specialCase{
		{1, 0}, {-1, float32(math.Pi)}, {0, float32(math.Pi / 2)}, {negZ, float32(math.Pi / 2)},
		{1.0000001, nan}, {-2, nan}, {inf, nan}, {-inf, nan}, {nan, nan},
	})
	checkSpecials(t, "atan", Atan, Atan32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, float32(math.Pi / 2)}, {-inf, -float32(math.Pi / 2)}, {nan, nan},
		{1, float32(math.Pi / 4)}, {-1, -float32(math.Pi / 4)}, {tiny, tiny}, {-tiny, -tiny},
		{maxF, float32(math.Pi / 2)}, {-maxF, -float32(math.Pi / 2)},
	})
	pi, hp, qp := float32(math.Pi), float32(math.Pi/2), float32(math.Pi/4)
	for _, c := range []struct{ y, x, want float32 }{
		{0, 0, 0}, {negZ, 0, negZ}, {0, negZ, pi}, {negZ, negZ, -pi},
		{0, 1, 0}, {negZ, 1, negZ}, {0, -1, pi}, {negZ, -1, -pi},
		{1, 0, hp}, {1, negZ, hp}, {-1, 0, -hp}, {-1, negZ, -hp},
		{inf, inf, qp}, {inf, -inf, 3 * qp}, {-inf, inf, -qp}, {-inf, -inf, -3 * qp},
		{1, inf, 0}, {-1, inf, negZ}, {1, -inf, pi}, {-1, -inf, -pi},
		{inf, 1, hp}, {-inf, 1, -hp}, {inf, -1, hp}, {inf, 0, hp},
		{nan, 1, nan}, {1, nan, nan}, {nan, nan, nan}, {0, nan, nan}, {nan, 0, nan},
		{tiny, tiny, qp}, {tiny, maxF, 0}, {maxF, tiny, hp}, {-1, -1, -3 * qp},
	} {
		ys := []float32{c.y}
		xs := []float32{c.x}
		// Also through a full chunk, so the chunk check sees the value.
		for len(ys) < chunk {
			ys, xs = append(ys, 1), append(xs, 1)
		}
		dst := make([]float32, chunk)
		Atan2(dst, ys, xs)
		for _, got := range []float32{Atan2_32(c.y, c.x), dst[0]} {
			if !sameFloat(got, c.want) {
				t.Errorf("atan2(%s, %s) = %s, want %s", show(c.y), show(c.x), show(got), show(c.want))
			}
		}
	}
}
