package cpu

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/lapack"
)

// The recorded-rotation QL iteration against gonum's Dsteqr on
// tridiagonal matrices that stress it: clustered pairs (Wilkinson's W21+),
// a graded diagonal, a split (zero off-diagonals), the second-difference
// matrix (eigenvalues 2 - 2cos(kπ/(n+1))), and random ones; eigenvectors by
// T·V = V·diag(w) and VᵀV = I.
func TestTridiagQL(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	type tcase struct {
		name string
		d, e []float64
	}
	var cases []tcase
	w21 := tcase{name: "wilkinson21"}
	for i := range 21 {
		w21.d = append(w21.d, math.Abs(float64(i-10)))
		if i < 20 {
			w21.e = append(w21.e, 1)
		}
	}
	cases = append(cases, w21)
	graded := tcase{name: "graded"}
	for i := range 12 {
		graded.d = append(graded.d, math.Pow(10, -float64(i)))
		if i < 11 {
			graded.e = append(graded.e, math.Pow(10, -float64(i)-0.5))
		}
	}
	cases = append(cases, graded)
	cases = append(cases, tcase{"split", []float64{3, 1, 2, 5, 4}, []float64{0, 0.5, 0, 0}})
	second := tcase{name: "second_difference"}
	for i := range 40 {
		second.d = append(second.d, 2)
		if i < 39 {
			second.e = append(second.e, -1)
		}
	}
	cases = append(cases, second, tcase{"one", []float64{-2.5}, nil})
	for _, n := range []int{2, 3, 10, 64, 200} {
		c := tcase{name: "random"}
		for i := range n {
			c.d = append(c.d, rng.NormFloat64())
			if i < n-1 {
				c.e = append(c.e, rng.NormFloat64())
			}
		}
		cases = append(cases, c)
	}
	for _, c := range cases {
		n := len(c.d)
		d, e := append([]float64(nil), c.d...), append([]float64(nil), c.e...)
		z := make([]float64, n*n)
		if !symTridiagEigen(d, e, z) {
			t.Fatalf("%s: no convergence", c.name)
		}
		want, we := append([]float64(nil), c.d...), append([]float64(nil), c.e...)
		lapackImpl.Dsteqr(lapack.EVCompNone, n, want, we, nil, 1, nil)
		norm := 0.0
		for i := range n {
			norm = math.Max(norm, math.Abs(c.d[i])+2*math.Abs(append(c.e, 0)[i]))
		}
		tol := 8 * 0x1p-52 * float64(n) * math.Max(norm, 1e-300)
		for i := range n {
			if math.Abs(d[i]-want[i]) > tol {
				t.Errorf("%s: eigenvalue %d = %.17g, Dsteqr %.17g", c.name, i, d[i], want[i])
			}
			if c.name == "second_difference" {
				exact := 2 - 2*math.Cos(float64(i+1)*math.Pi/float64(n+1))
				if math.Abs(d[i]-exact) > tol {
					t.Errorf("%s: eigenvalue %d = %.17g, exactly %.17g", c.name, i, d[i], exact)
				}
			}
		}
		for col := range n {
			for r := range n {
				tv := c.d[r] * z[r*n+col]
				if r > 0 {
					tv += c.e[r-1] * z[(r-1)*n+col]
				}
				if r < n-1 {
					tv += c.e[r] * z[(r+1)*n+col]
				}
				if math.Abs(tv-d[col]*z[r*n+col]) > tol {
					t.Errorf("%s: (T v - w v)[%d] of vector %d = %g", c.name, r, col, tv-d[col]*z[r*n+col])
				}
			}
			for other := range n {
				dot := 0.0
				for r := range n {
					dot += z[r*n+col] * z[r*n+other]
				}
				if want := float64(b2i(col == other)); math.Abs(dot-want) > tol/math.Max(norm, 1e-300) {
					t.Errorf("%s: v%d·v%d = %g", c.name, col, other, dot)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
