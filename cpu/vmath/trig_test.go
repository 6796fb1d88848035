package vmath

import (
	"math"
	"testing"
)

// trigBoundaries are inputs near multiples of π/2 (where the reduced
// argument is tiny and cancellation is worst), around the switch to the
// Payne–Hanek reduction, and huge values.
func trigBoundaries() []float32 {
	var out []float32
	for k := -2000; k <= 2000; k++ {
		out = append(out, nearby(float64(k)*math.Pi/2, 1)...)
	}
	for k := 1.0; k < 1<<24; k *= 1.7 {
		out = append(out, nearby(math.Round(k)*math.Pi/2, 2)...)
	}
	// The float32 below 2^24 closest to a multiple of π (a full scan).
	out = append(out, nearby(505.79642, 4)...)
	out = append(out, nearby(trigFastLimit, 8)...)
	out = append(out, nearby(-trigFastLimit, 8)...)
	for e := 20; e <= 127; e++ {
		out = append(out, nearby(math.Ldexp(1, e), 2)...)
		out = append(out, nearby(-math.Ldexp(1.37, e), 2)...)
	}
	return append(out, denseRange(-10, 10, 8192)...)
}

// Bounds: sin and cos use a 5-term polynomial (error 2^-27.5, chosen for
// speed), which costs up to ~0.3 ulp on top of rounding; tan's polynomials
// err by less than 2^-34.

func TestTrigAccuracy(t *testing.T) {
	checkUnary(t, unaryCase{"sin", Sin, Sin32, math.Sin, 0.8, trigBoundaries()})
	checkUnary(t, unaryCase{"cos", Cos, Cos32, math.Cos, 0.9, trigBoundaries()})
	checkUnary(t, unaryCase{"tan", Tan, Tan32, math.Tan, 0.51, trigBoundaries()})
}

func TestTrigSpecials(t *testing.T) {
	checkSpecials(t, "sin", Sin, Sin32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, nan}, {-inf, nan}, {nan, nan}, {tiny, tiny}, {-tiny, -tiny},
		{minNrm, minNrm}, {1e-20, 1e-20}, {float32(math.Pi), -8.742278e-08},
		{1e30, float32(math.Sin(float64(float32(1e30))))}, {-1e30, float32(math.Sin(float64(float32(-1e30))))}, {maxF, float32(math.Sin(float64(maxF)))},
	})
	checkSpecials(t, "cos", Cos, Cos32, []specialCase{
		{0, 1}, {negZ, 1}, {inf, nan}, {-inf, nan}, {nan, nan}, {tiny, 1},
		{float32(math.Pi / 2), -4.371139e-08}, {1e30, float32(math.Cos(float64(float32(1e30))))}, {-1e30, float32(math.Cos(float64(float32(1e30))))},
		{maxF, float32(math.Cos(float64(maxF)))},
	})
	checkSpecials(t, "tan", Tan, Tan32, []specialCase{
		{0, 0}, {negZ, negZ}, {inf, nan}, {-inf, nan}, {nan, nan}, {tiny, tiny}, {-tiny, -tiny},
		{float32(math.Pi / 2), -22877332}, {1e30, float32(math.Tan(float64(float32(1e30))))}, {-1e30, float32(math.Tan(float64(float32(-1e30))))},
	})
}

// TestReduceHugeAgainstBigFloat checks the Payne–Hanek reduction against
// the exact t = x/π computed with 600-bit π, for many huge x.
func TestReduceHugeAgainstBigFloat(t *testing.T) {
	for b := uint32(0x4b800000); b < 0x7f800000; b += 0x40003 {
		x := math.Float32frombits(b)
		for _, half := range []bool{false, true} {
			n, f := reduceHuge(x, 0, half)
			wantN, wantF := exactReduce(float64(x), half)
			if n&1 != wantN || math.Abs(f-wantF) > 1e-15*math.Abs(wantF) {
				t.Fatalf("reduceHuge(%g, half=%v) = %d, %g; want parity %d, %g", x, half, n&1, f, wantN, wantF)
			}
		}
	}
}
