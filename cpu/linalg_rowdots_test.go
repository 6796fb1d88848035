package cpu

import (
	"math"
	"math/rand"
	"testing"
)

// rowDots (four rows at a time in assembly where it can) against a plain
// loop, for every row count up to two groups of four plus a remainder and
// lengths around the kernel's eight-element steps, within the dot
// product's rounding bound: n·ε·Σ|a·v| (different summation orders).
func TestRowDots(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	lengths := []int{63, 64, 65, 200}
	for n := 0; n <= 17; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for rows := 0; rows <= 9; rows++ {
			ld := n + 3                               // rows not contiguous, as in the trailing matrix
			a := make([]float64, max(0, rows-1)*ld+n) // the last row ends at n, as in the matrix
			for i := range a {
				a[i] = rng.NormFloat64()
			}
			v := make([]float64, n)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			out := make([]float64, rows+1)
			out[rows] = 42 // past the rows asked for: untouched
			rowDots(a, ld, v, out[:rows])
			for i := range rows {
				want, bound := 0.0, 0.0
				for j := range n {
					p := a[i*ld+j] * v[j]
					want += p
					bound += math.Abs(p)
				}
				bound *= float64(n+1) * 0x1p-52
				if d := math.Abs(out[i] - want); d > bound {
					t.Fatalf("n=%d rows=%d row %d: %v, want %v (bound %g)", n, rows, i, out[i], want, bound)
				}
			}
			if out[rows] != 42 {
				t.Fatalf("n=%d rows=%d: wrote past the rows", n, rows)
			}
		}
	}
}

// rotationNorm against math.Hypot: within two ulps in the direct range,
// the same at its edges and beyond (huge, tiny, zero, infinite, NaN).
func TestRotationNorm(t *testing.T) {
	rng := rand.New(rand.NewSource(18))
	cases := [][2]float64{
		{0, 0}, {3, 4}, {-3, 4}, {1e300, 1e300}, {1e-300, 1e-300}, {1e-300, 1},
		{1e200, 1}, {0x1p450, 0x1p450}, {0x1p-450, 0x1p-450}, {5e-324, 0},
		{math.Inf(1), 1}, {1, math.Inf(-1)}, {math.Inf(1), math.NaN()},
	}
	for range 1000 {
		cases = append(cases, [2]float64{
			rng.NormFloat64() * math.Pow(2, float64(rng.Intn(1200)-600)),
			rng.NormFloat64() * math.Pow(2, float64(rng.Intn(1200)-600)),
		})
	}
	for _, c := range cases {
		got, want := rotationNorm(c[0], c[1]), math.Hypot(c[0], c[1])
		if math.IsNaN(want) || math.IsInf(want, 0) || want == 0 {
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("rotationNorm(%g, %g) = %v, want %v", c[0], c[1], got, want)
			}
			continue
		}
		if ulps := math.Abs(got-want) / (math.Nextafter(want, math.Inf(1)) - want); ulps > 2 {
			t.Errorf("rotationNorm(%g, %g) = %v, want %v (%.1f ulps)", c[0], c[1], got, want, ulps)
		}
	}
}
