package cpu

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The Householder tridiagonalization of a 512×512 matrix with the
// assembly row dot products and with the portable ones, in one run.
func BenchmarkTridiagonalize512(b *testing.B) {
	const n = 512
	src := spdMatrix(rand.New(rand.NewPCG(1, 2)), n)
	work, q := make([]float64, n*n), make([]float64, n*n)
	d, e := make([]float64, n), make([]float64, n)
	for _, fma := range []bool{true, false} {
		name := "portable"
		if fma {
			name = "fma"
		}
		b.Run(name, func(b *testing.B) {
			if fma && !rowKernelsHaveFMA {
				b.Skip("no AVX2 and FMA here")
			}
			defer func(old bool) { rowKernelsHaveFMA = old }(rowKernelsHaveFMA)
			rowKernelsHaveFMA = fma
			for range b.N {
				copy(work, src)
				tridiagonalize(work, n, d, e, q)
			}
		})
	}
}

// The fused assembly rank-2 row update gives math.FMA's bits, at every
// length around its eight-element steps.
func TestRank2RowFMA(t *testing.T) {
	if !rowKernelsHaveFMA {
		t.Skip("no AVX2 and FMA here")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	lengths := []int{63, 64, 65, 200}
	for n := 0; n <= 17; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		row, v, w := make([]float64, n+1), make([]float64, n), make([]float64, n)
		for i := range row {
			row[i] = rng.NormFloat64()
		}
		for i := range v {
			v[i], w[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		vi, wi := rng.NormFloat64(), rng.NormFloat64()
		want := slices.Clone(row)
		for j := range n {
			want[j] = math.FMA(-wi, v[j], math.FMA(-vi, w[j], want[j]))
		}
		rank2Row(row[:n], v, w, vi, wi)
		for i := range row {
			if math.Float64bits(row[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d element %d: assembly %v, math.FMA %v", n, i, row[i], want[i])
			}
		}
	}
}
