package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The assembly leaf and row routines add in the Go code's order: same
// bits with and without them, on values whose sums round at every step.
func TestPairwiseAssemblyMatchesGo(t *testing.T) {
	if !reduceHasAVX {
		t.Skip("no AVX on this machine")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	x32 := make([]float32, 200*pairwiseLeaf+77)
	x64 := make([]float64, len(x32))
	for i := range x32 {
		// Mixed signs, magnitudes within a few binades: every addition
		// rounds, and no element swamps the others.
		x64[i] = (rng.Float64()*2 - 1) * math.Ldexp(1, rng.IntN(9)-4)
		x32[i] = float32(x64[i])
	}
	withAsm := func(on bool, f func()) {
		defer func(old bool) { reduceHasAVX = old }(reduceHasAVX)
		reduceHasAVX = on
		f()
	}
	var s32 [2]float32
	var s64 [2]float64
	var leaves32 [2][]float32
	var leaves64 [2][]float64
	acc32 := [2][]float32{make([]float32, 70), make([]float32, 70)}
	acc64 := [2][]float64{make([]float64, 70), make([]float64, 70)}
	for i, on := range []bool{false, true} {
		withAsm(on, func() {
			s32[i] = sumInexactLine(x32)
			s64[i] = sumInexactLine(x64)
			for l := 0; l+pairwiseLeaf <= len(x32); l += pairwiseLeaf {
				leaves32[i] = append(leaves32[i], sumLeaf(x32[l:l+pairwiseLeaf]))
				leaves64[i] = append(leaves64[i], sumLeaf(x64[l:l+pairwiseLeaf]))
			}
			copy(acc32[i], x32)
			copy(acc64[i], x64)
			for r := 1; r < 9; r++ {
				addRowsInexact(acc32[i], x32[r*70:])
				addRowsInexact(acc64[i], x64[r*70:])
			}
		})
	}
	for l := range leaves32[0] {
		if math.Float32bits(leaves32[0][l]) != math.Float32bits(leaves32[1][l]) ||
			math.Float64bits(leaves64[0][l]) != math.Float64bits(leaves64[1][l]) {
			t.Fatalf("leaf %d: Go %v, %v; assembly %v, %v", l, leaves32[0][l], leaves64[0][l], leaves32[1][l], leaves64[1][l])
		}
	}
	if math.Float32bits(s32[0]) != math.Float32bits(s32[1]) {
		t.Errorf("float32 sum: Go %v, assembly %v", s32[0], s32[1])
	}
	if math.Float64bits(s64[0]) != math.Float64bits(s64[1]) {
		t.Errorf("float64 sum: Go %v, assembly %v", s64[0], s64[1])
	}
	for j := range acc32[0] {
		if acc32[0][j] != acc32[1][j] || acc64[0][j] != acc64[1][j] {
			t.Fatalf("row sums differ at %d: %v/%v, %v/%v", j, acc32[0][j], acc32[1][j], acc64[0][j], acc64[1][j])
		}
	}
}
