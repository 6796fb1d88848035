package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The assembly max and min give the Go loops' results bit for bit (any NaN
// for NaN) on lines and rows full of signed zeros, infinities and NaNs of
// both signs, at every length around the vector groups.
func TestMinMaxAssemblyMatchesGo(t *testing.T) {
	if !reduceHasAVX {
		t.Skip("no AVX on this machine")
	}
	rng := rand.New(rand.NewPCG(31, 32))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(math.NaN(), -1), 1, -1}
	pick := func(trial, nanRate int) float64 {
		switch trial % 3 {
		case 1: // zeros of both signs and negatives: the max is a zero
			return []float64{0, math.Copysign(0, -1), -1, math.Inf(-1)}[rng.IntN(4)]
		case 2: // and for the min
			return []float64{0, math.Copysign(0, -1), 1, math.Inf(1)}[rng.IntN(4)]
		}
		if rng.IntN(nanRate) == 0 {
			return special[4+rng.IntN(2)]
		}
		if rng.IntN(3) == 0 {
			return special[rng.IntN(4)]
		}
		return float64(rng.IntN(5) - 2) // small integers: many ties
	}
	same := func(a, b float64) bool {
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.IsNaN(a) && math.IsNaN(b)
		}
		return math.Float64bits(a) == math.Float64bits(b)
	}
	run := func(on bool, f func()) {
		defer func(old bool) { reduceHasAVX = old }(reduceHasAVX)
		reduceHasAVX = on
		f()
	}
	for trial := range 400 {
		n := 1 + rng.IntN(200)
		x64 := make([]float64, n)
		x32 := make([]float32, n)
		for i := range x64 {
			x64[i] = pick(trial, 50+trial)
			x32[i] = float32(x64[i])
		}
		var got [2][4]float64
		var rows32 [2][]float32
		var rows64 [2][]float64
		for k, on := range []bool{false, true} {
			run(on, func() {
				got[k] = [4]float64{float64(maxFloatLine(x32)), float64(minFloatLine(x32)), maxFloatLine(x64), minFloatLine(x64)}
				half := n / 2
				rows32[k] = append([]float32(nil), x32[:half]...)
				rows64[k] = append([]float64(nil), x64[:half]...)
				if trial%2 == 0 || trial%3 == 1 {
					maxFloatRows(rows32[k], x32[half:])
					maxFloatRows(rows64[k], x64[half:])
				} else {
					minFloatRows(rows32[k], x32[half:])
					minFloatRows(rows64[k], x64[half:])
				}
			})
		}
		for j := range got[0] {
			if !same(got[0][j], got[1][j]) {
				t.Fatalf("trial %d (n=%d) fold %d: Go %v, assembly %v", trial, n, j, got[0][j], got[1][j])
			}
		}
		for i := range rows32[0] {
			if !same(float64(rows32[0][i]), float64(rows32[1][i])) || !same(rows64[0][i], rows64[1][i]) {
				t.Fatalf("trial %d rows element %d: Go %v/%v, assembly %v/%v", trial, i, rows32[0][i], rows64[0][i], rows32[1][i], rows64[1][i])
			}
		}
	}
}

// One +0 among -0s (max), one -0 among +0s (min), or one NaN among ones, at
// every position of a line: each lane of the assembly's accumulators must
// get the tie or the NaN right on its own, since other lanes cannot hide it.
func TestMinMaxLineEveryPosition(t *testing.T) {
	negZero, nan := math.Copysign(0, -1), math.NaN()
	for _, n := range []int{64, 101} {
		for p := range n {
			line := func(fill, odd float64) ([]float32, []float64) {
				x32, x64 := make([]float32, n), make([]float64, n)
				for i := range x64 {
					x64[i] = fill
				}
				x64[p] = odd
				for i, v := range x64 {
					x32[i] = float32(v)
				}
				return x32, x64
			}
			a32, a64 := line(negZero, 0)
			if math.Signbit(float64(maxFloatLine(a32))) || math.Signbit(maxFloatLine(a64)) {
				t.Fatalf("n=%d: max of -0s with +0 at %d is -0", n, p)
			}
			b32, b64 := line(0, negZero)
			if !math.Signbit(float64(minFloatLine(b32))) || !math.Signbit(minFloatLine(b64)) {
				t.Fatalf("n=%d: min of +0s with -0 at %d is +0", n, p)
			}
			c32, c64 := line(1, nan)
			if !math.IsNaN(float64(maxFloatLine(c32))) || !math.IsNaN(minFloatLine(c64)) ||
				!math.IsNaN(float64(minFloatLine(c32))) || !math.IsNaN(maxFloatLine(c64)) {
				t.Fatalf("n=%d: a NaN at %d is lost", n, p)
			}
		}
	}
}
