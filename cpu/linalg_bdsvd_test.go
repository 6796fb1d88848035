package cpu

import (
	"math"
	"math/cmplx"
	"math/rand"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
	"gonum.org/v1/gonum/blas"
)

// The recorded-rotation bidiagonal SVD against gonum's Dbdsqr (values) and
// by reconstruction (U·diag(s)·Vᵀ = B, UᵀU = VᵀV = I), on bidiagonal
// matrices with zeros on the diagonal (the step that chases a
// superdiagonal element out along a row), graded ones and random ones.
func TestBidiagSVD(t *testing.T) {
	rng := rand.New(rand.NewSource(18))
	type tcase struct {
		name string
		d, e []float64
	}
	cases := []tcase{
		{"zero_inside", []float64{1, 0, 2, 3}, []float64{1, 1, 1}},
		{"zero_first", []float64{0, 1, 1}, []float64{1, 1}},
		{"zero_last", []float64{2, 1, 0}, []float64{0.5, 1}},
		{"zeros", []float64{0, 0, 0}, []float64{0, 0}},
		{"negative", []float64{-1, 2, -3}, []float64{0, 0}},
		{"one", []float64{-4}, nil},
	}
	graded := tcase{name: "graded"}
	for i := range 10 {
		graded.d = append(graded.d, math.Pow(10, -float64(i)))
		if i < 9 {
			graded.e = append(graded.e, math.Pow(10, -float64(i)-0.5))
		}
	}
	cases = append(cases, graded)
	for _, n := range []int{2, 5, 40, 150} {
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
		d, e := slices.Clone(c.d), slices.Clone(c.e)
		u, v := make([]float64, n*n), make([]float64, n*n)
		for i := range n {
			u[i*n+i], v[i*n+i] = 1, 1
		}
		if !bidiagSVD(d, e, u, n, n, v) {
			t.Fatalf("%s: no convergence", c.name)
		}
		want, we := slices.Clone(c.d), append(slices.Clone(c.e), 0)
		lapackImpl.Dbdsqr(blas.Upper, n, 0, 0, 0, want, we, nil, 1, nil, 1, nil, 1, make([]float64, 4*n))
		norm := 0.0
		for i := range n {
			norm = math.Max(norm, math.Abs(c.d[i])+math.Abs(append(slices.Clone(c.e), 0)[i]))
		}
		tol := 16 * 0x1p-52 * float64(n) * math.Max(norm, 1e-300)
		for i := range n {
			if math.Abs(d[i]-want[i]) > tol || d[i] < 0 || (i > 0 && d[i] > d[i-1]) {
				t.Errorf("%s: singular value %d = %.17g, Dbdsqr %.17g", c.name, i, d[i], want[i])
			}
		}
		for r := range n {
			for col := range n {
				b := 0.0
				switch col {
				case r:
					b = c.d[r]
				case r + 1:
					b = c.e[r]
				}
				got := 0.0
				for k := range n {
					got += u[r*n+k] * d[k] * v[col*n+k]
				}
				if math.Abs(got-b) > tol {
					t.Errorf("%s: (U diag(s) Vᵀ)[%d,%d] = %g, B has %g", c.name, r, col, got, b)
				}
			}
		}
		for _, q := range [][]float64{u, v} {
			for a := range n {
				for b := range n {
					dot := 0.0
					for r := range n {
						dot += q[r*n+a] * q[r*n+b]
					}
					if want := float64(b2i(a == b)); math.Abs(dot-want) > 16*0x1p-52*float64(n) {
						t.Errorf("%s: columns %d·%d = %g", c.name, a, b, dot)
					}
				}
			}
		}
	}
}

// The assembly sweep and the portable one give the same bits.
func TestRotationPanelsPortable(t *testing.T) {
	if !reduceHasAVX {
		t.Skip("no AVX: only the portable sweep runs")
	}
	rng := rand.New(rand.NewSource(19))
	n := 37
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = rng.NormFloat64()
	}
	for i := range e {
		e[i] = rng.NormFloat64()
	}
	var plan rotationPlan
	if !tridiagQL(d, e, &plan) {
		t.Fatal("no convergence")
	}
	rows := 23 // not a multiple of the sixteen rows of a panel block
	v := make([]float64, rows*n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	asm := slices.Clone(v)
	plan.apply(asm, rows, n)
	reduceHasAVX = false
	defer func() { reduceHasAVX = true }()
	plan.apply(v, rows, n)
	for i := range v {
		if math.Float64bits(v[i]) != math.Float64bits(asm[i]) {
			t.Fatalf("element %d: portable %v, assembly %v", i, v[i], asm[i])
		}
	}
}

// The assembly rank-2 row update and the portable one give the same bits
// (without FMA; with it, rank2RowFMAGo's bits).
func TestRank2RowPortable(t *testing.T) {
	if !reduceHasAVX {
		t.Skip("no AVX: only the portable update runs")
	}
	defer func(old bool) { rowKernelsHaveFMA = old }(rowKernelsHaveFMA)
	rowKernelsHaveFMA = false
	rng := rand.New(rand.NewSource(20))
	for _, n := range []int{1, 8, 37, 200} {
		row, v, w := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range row {
			row[i], v[i], w[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		}
		vi, wi := rng.NormFloat64(), rng.NormFloat64()
		want := slices.Clone(row)
		rank2RowGo(want, v, w, vi, wi)
		rank2Row(row, v, w, vi, wi)
		for i := range row {
			if math.Float64bits(row[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d element %d: assembly %v, portable %v", n, i, row[i], want[i])
			}
		}
	}
}

// A NaN or infinity in the operand gives NaN results from the iterative
// decompositions (gonum's Dlascl would panic on it).
func TestLinalgNonFinite(t *testing.T) {
	for _, dt := range []trace.DType{trace.Float32, trace.Float64, trace.Complex64, trace.Complex128} {
		for _, bad := range []float64{math.NaN(), math.Inf(1)} {
			vals := []any{1.0, 2.0, bad, 4.0}
			if dt.IsComplex() {
				for i, v := range vals {
					vals[i] = complex(v.(float64), 0)
				}
			}
			a := bufferOf(t, dt, []int{2, 2}, vals...)
			for _, c := range []struct {
				prim   string
				params trace.Params
			}{
				{"svd", trace.Params{"full_matrices": true, "compute_uv": true, "subset_by_index": nil}},
				{"svd", trace.Params{"full_matrices": false, "compute_uv": false, "subset_by_index": nil}},
				{"eigh", trace.Params{"lower": true, "sort_eigenvalues": true, "subset_by_index": nil}},
				{"eig", trace.Params{"compute_left_eigenvectors": true, "compute_right_eigenvectors": true}},
			} {
				for k, out := range apply(t, c.prim, c.params, a) {
					for i := range out.Len() {
						var isNaN bool
						switch v := out.Element(i).(type) {
						case float32:
							isNaN = v != v
						case float64:
							isNaN = math.IsNaN(v)
						case complex64:
							isNaN = cmplx.IsNaN(complex128(v))
						case complex128:
							isNaN = cmplx.IsNaN(v)
						}
						if !isNaN {
							t.Errorf("%s %s with %v: result %d element %d = %v, want NaN", c.prim, dt.Name(), bad, k, i, out.Element(i))
						}
					}
				}
			}
		}
	}
}
