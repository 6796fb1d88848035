package vmath

import (
	"math"
	"testing"
)

func TestErfAccuracy(t *testing.T) {
	extra := denseRange(-5, 5, 16384)
	for i := 0; i <= 32; i++ { // cell edges
		extra = append(extra, nearby(float64(i)/erfCellsPerUnit, 2)...)
		extra = append(extra, nearby(-float64(i)/erfCellsPerUnit, 2)...)
	}
	checkUnary(t, unaryCase{"erf", Erf, Erf32, math.Erf, 0.51, extra, nil})
}

func TestErfSpecials(t *testing.T) {
	checkSpecials(t, "erf", Erf, Erf32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, 1}, {-inf, -1}, {nan, nan}, {tiny, 1.4e-45}, {-tiny, -1.4e-45},
		{3.9, float32(math.Erf(float64(float32(3.9))))}, {3.93, 1}, {4, 1}, {10, 1}, {-10, -1}, {maxF, 1}, {-maxF, -1},
	})
}
