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

// Bounds: sin and cos use a 5-term polynomial (error 2^-27.1, chosen for
// speed), which costs up to ~0.12 ulp on top of rounding (0.615 in an
// exhaustive run); tan's polynomials err by less than 2^-33.

func TestTrigAccuracy(t *testing.T) {
	// The exact references cost a microsecond for |x| ≥ 2^29: the sweep
	// keeps every fourth such input (still over 300K per function).
	var xs []float32
	for i, x := range sweepInputs(trigBoundaries()) {
		if math.Abs(float64(x)) < 0x1p29 || math.IsNaN(float64(x)) || i%4 == 0 {
			xs = append(xs, x)
		}
	}
	checkUnary(t, unaryCase{"sin", Sin, Sin32, exactSin, 0.65, nil, xs})
	checkUnary(t, unaryCase{"cos", Cos, Cos32, exactCos, 0.65, nil, xs})
	checkUnary(t, unaryCase{"tan", Tan, Tan32, exactTan, 0.51, nil, xs})
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
// exact big-integer arithmetic with 600-bit π, for many huge x.
func TestReduceHugeAgainstBigFloat(t *testing.T) {
	for b := uint32(0x4b800000); b < 0x7f800000; b += 0x40003 {
		for _, sign := range []uint32{0, 1 << 31} {
			x := math.Float32frombits(b | sign)
			for _, c := range []struct {
				scale uint
				half  bool
			}{{0, false}, {0, true}, {1, false}} {
				if c.half && sign != 0 {
					continue // reduceHuge's half offset takes x > 0
				}
				n, f := reduceHuge(x, c.scale, c.half)
				wantN, wantF := exactReduce(x, c.scale, c.half)
				if n&1 != wantN || math.Abs(f-wantF) > 1e-15*math.Abs(wantF) {
					t.Fatalf("reduceHuge(%g, %d, %v) = %d, %g; want parity %d, %g", x, c.scale, c.half, n&1, f, wantN, wantF)
				}
			}
		}
	}
}
