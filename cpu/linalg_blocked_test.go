package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
)

// The blocked factorizations (linalg_blocked.go) at sizes around their
// panel widths — smaller than a panel, exactly one, one more, several
// with a ragged last one, rectangular and batched — against gonum's
// unblocked-arrangement LAPACK and BLAS (Dpotrf, Dgetrf, Dtrsm) and by
// reconstruction. The NumPy tables of linalg_test.go cover small
// matrices only.

// blockedSizes straddle every panel width in linalg_blocked.go.
var blockedSizes = []int{1, 5, 47, 48, 49, 63, 64, 65, 97, 130, 200}

func randomMatrix(rng *rand.Rand, rows, cols int) []float64 {
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// spdMatrix is g·gᵀ + n·I for a random g.
func spdMatrix(rng *rand.Rand, n int) []float64 {
	g := randomMatrix(rng, n, n)
	a := matMul(mat{n, n, g}, mat{n, n, g}.t()).v
	for i := range n {
		a[i*n+i] += float64(n)
	}
	return a
}

func TestBlockedCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range blockedSizes {
		const batch = 2
		var all []float64
		for range batch {
			all = append(all, spdMatrix(rng, n)...)
		}
		l := apply(t, "cholesky", nil, bufferOf(t, trace.Float64, []int{batch, n, n}, anys(all)...))[0]
		for b := range batch {
			a := all[b*n*n : (b+1)*n*n]
			got := floats(l, b, n, n)
			want := slices.Clone(a)
			if !lapackImpl.Dpotrf(blas.Lower, n, want, n) {
				t.Fatalf("n=%d: gonum finds the test matrix indefinite", n)
			}
			for i := range n {
				clear(want[i*n+i+1 : (i+1)*n])
			}
			scale := 16 * 0x1p-52 * float64(n) * maxAbs(a)
			if d := maxDiff(matMul(got, got.t()).v, a); d > scale {
				t.Errorf("n=%d batch %d: L·Lᵀ off A by %.3g (tolerance %.3g)", n, b, d, scale)
			}
			// A = g·gᵀ + n·I has condition ≤ ~5, so L is determined to
			// a few ulps of max|L| ~ √max|a|.
			if d := maxDiff(got.v, want); d > 16*0x1p-52*float64(n)*math.Sqrt(maxAbs(a)) {
				t.Errorf("n=%d batch %d: L off gonum's by %.3g", n, b, d)
			}
		}
	}
}

// TestBlockedCholeskyIndefinite: a negative pivot in a later panel still
// gives NaNs.
func TestBlockedCholeskyIndefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{65, 130} {
		a := spdMatrix(rng, n)
		a[(n-2)*n+n-2] = -1e6
		l := apply(t, "cholesky", nil, bufferOf(t, trace.Float64, []int{n, n}, anys(a)...))[0]
		for i := range n * n {
			if v := l.Element(i).(float64); !math.IsNaN(v) {
				t.Fatalf("n=%d: element %d = %v, want NaN", n, i, v)
			}
		}
	}
}

func TestBlockedLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := [][2]int{{150, 70}, {70, 150}, {49, 130}, {130, 49}}
	for _, n := range blockedSizes {
		shapes = append(shapes, [2]int{n, n})
	}
	for _, s := range shapes {
		m, n := s[0], s[1]
		const batch = 2
		all := randomMatrix(rng, batch*m, n)
		if m == n && n > 2 {
			// a singular one: column 1 a multiple of column 0
			for i := range m {
				all[i*n+1] = 2 * all[i*n]
			}
		}
		out := apply(t, "lu", nil, bufferOf(t, trace.Float64, []int{batch, m, n}, anys(all)...))
		k := min(m, n)
		for b := range batch {
			name := fmt.Sprintf("%dx%d batch %d", m, n, b)
			a := all[b*m*n : (b+1)*m*n]
			lu := floats(out[0], b, m, n)
			want := slices.Clone(a)
			ipiv := make([]int, k)
			lapackImpl.Dgetrf(m, n, want, n, ipiv)
			for i := range k {
				if got := int(out[1].Element(b*k + i).(int64)); got != ipiv[i] {
					t.Fatalf("%s: pivot %d = %d, gonum %d", name, i, got, ipiv[i])
				}
			}
			scale := 64 * 0x1p-52 * float64(max(m, n)) * maxAbs(a)
			if d := maxDiff(lu.v, want); d > scale*float64(k) {
				t.Errorf("%s: L\\U off gonum's by %.3g", name, d)
			}
			l, u := mat{m, k, make([]float64, m*k)}, mat{k, n, make([]float64, k*n)}
			for i := range m {
				for j := range n {
					switch {
					case j < i && j < k:
						l.v[i*k+j] = lu.at(i, j)
					case i < k && j >= i:
						u.v[i*n+j] = lu.at(i, j)
					}
				}
				if i < k {
					l.v[i*k+i] = 1
				}
			}
			pa := make([]float64, 0, m*n)
			for i := range m {
				p := int(out[2].Element(b*m + i).(int64))
				pa = append(pa, a[p*n:(p+1)*n]...)
			}
			if d := maxDiff(matMul(l, u).v, pa); d > scale {
				t.Errorf("%s: L·U off P·A by %.3g (tolerance %.3g)", name, d, scale)
			}
			if mx := maxAbs(l.v); mx > 1 {
				t.Errorf("%s: |L| reaches %g: not partial pivoting", name, mx)
			}
		}
	}
}

func TestBlockedTriangularSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range blockedSizes {
		for _, rhs := range []int{1, 3, 4, 17, 70} {
			a := randomMatrix(rng, n, n)
			for i := range n {
				a[i*n+i] = 4 + math.Abs(a[i*n+i]) // well conditioned either way
				for j := range n {
					if i != j {
						a[i*n+j] /= math.Sqrt(float64(n))
					}
				}
			}
			for _, left := range []bool{true, false} {
				rows, cols := n, rhs
				if !left {
					rows, cols = rhs, n
				}
				b := randomMatrix(rng, rows, cols)
				for _, lower := range []bool{true, false} {
					for _, trans := range []bool{false, true} {
						for _, unit := range []bool{false, true} {
							params := trace.Params{"left_side": left, "lower": lower, "transpose_a": trans, "conjugate_a": false, "unit_diagonal": unit}
							x := apply(t, "triangular_solve", params,
								bufferOf(t, trace.Float64, []int{n, n}, anys(a)...),
								bufferOf(t, trace.Float64, []int{rows, cols}, anys(b)...))[0]
							side, uplo, tr, dg := blas.Right, blas.Upper, blas.NoTrans, blas.NonUnit
							if left {
								side = blas.Left
							}
							if lower {
								uplo = blas.Lower
							}
							if trans {
								tr = blas.Trans
							}
							if unit {
								dg = blas.Unit
							}
							want := slices.Clone(b)
							blasImpl.Dtrsm(side, uplo, tr, dg, rows, cols, 1, a, n, want, cols)
							tol := 64 * 0x1p-52 * float64(n) * math.Max(1, maxAbs(want))
							if d := maxDiff(floats(x, 0, rows, cols).v, want); d > tol {
								t.Errorf("n=%d rhs=%d %v: off gonum's Dtrsm by %.3g (tolerance %.3g)", n, rhs, params, d, tol)
							}
						}
					}
				}
			}
		}
	}
}

// TestEighBlockedAccumulation: eigh at sizes around the reflector block of
// accumulateReflectors (and batched), against gonum's Dsyev eigenvalues
// and by A·V = V·diag(w), VᵀV = I.
func TestEighBlockedAccumulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{2, 31, 32, 33, 34, 65, 97, 130} {
		const batch = 2
		var all []float64
		for range batch {
			g := randomMatrix(rng, n, n)
			for i := range n {
				for j := range i {
					g[j*n+i] = g[i*n+j]
				}
			}
			all = append(all, g...)
		}
		out := apply(t, "eigh", trace.Params{"lower": true, "sort_eigenvalues": true, "subset_by_index": nil},
			bufferOf(t, trace.Float64, []int{batch, n, n}, anys(all)...))
		for b := range batch {
			a := all[b*n*n : (b+1)*n*n]
			v, w := floats(out[0], b, n, n), floats(out[1], b, 1, n)
			want := make([]float64, n)
			work := workspace(func(wk []float64) { lapackImpl.Dsyev(lapack.EVNone, blas.Lower, n, nil, n, nil, wk, -1) })
			lapackImpl.Dsyev(lapack.EVNone, blas.Lower, n, slices.Clone(a), n, want, work, len(work))
			scale := 16 * 0x1p-52 * float64(n) * maxAbs(a) * math.Sqrt(float64(n))
			if d := maxDiff(w.v, want); d > scale {
				t.Errorf("n=%d batch %d: eigenvalues off gonum's by %.3g (tolerance %.3g)", n, b, d, scale)
			}
			vw := mat{n, n, make([]float64, n*n)}
			for i := range n {
				for j := range n {
					vw.v[i*n+j] = v.at(i, j) * w.v[j]
				}
			}
			if d := maxDiff(matMul(mat{n, n, a}, v).v, vw.v); d > scale {
				t.Errorf("n=%d batch %d: A·V off V·diag(w) by %.3g (tolerance %.3g)", n, b, d, scale)
			}
			if d := maxDiff(matMul(v.t(), v).v, identity(n)); d > 16*0x1p-52*float64(n) {
				t.Errorf("n=%d batch %d: VᵀV off I by %.3g", n, b, d)
			}
		}
	}
}

// TestSvdBlockedAccumulation: svd at shapes around the reflector block of
// accumulateReflectors, square, tall and wide, full and reduced, against
// gonum's Dgesvd singular values and by U·diag(s)·Vh = A with orthonormal
// U and Vh.
func TestSvdBlockedAccumulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, s := range [][2]int{{2, 2}, {32, 32}, {33, 33}, {65, 65}, {130, 70}, {70, 130}, {97, 33}} {
		m, n := s[0], s[1]
		a := randomMatrix(rng, m, n)
		k := min(m, n)
		want := make([]float64, k)
		work := workspace(func(w []float64) {
			lapackImpl.Dgesvd(lapack.SVDNone, lapack.SVDNone, m, n, slices.Clone(a), n, want, nil, 1, nil, 1, w, -1)
		})
		lapackImpl.Dgesvd(lapack.SVDNone, lapack.SVDNone, m, n, slices.Clone(a), n, want, nil, 1, nil, 1, work, len(work))
		scale := 16 * 0x1p-52 * float64(max(m, n)) * maxAbs(a) * math.Sqrt(float64(k))
		for _, full := range []bool{false, true} {
			out := apply(t, "svd", trace.Params{"full_matrices": full, "compute_uv": true, "subset_by_index": nil},
				bufferOf(t, trace.Float64, []int{m, n}, anys(a)...))
			ku, kv := k, k
			if full {
				ku, kv = m, n
			}
			sv, u, vt := floats(out[0], 0, 1, k), floats(out[1], 0, m, ku), floats(out[2], 0, kv, n)
			name := fmt.Sprintf("%dx%d full=%v", m, n, full)
			if d := maxDiff(sv.v, want); d > scale {
				t.Errorf("%s: singular values off gonum's by %.3g (tolerance %.3g)", name, d, scale)
			}
			us := mat{m, k, make([]float64, m*k)}
			for i := range m {
				for j := range k {
					us.v[i*k+j] = u.at(i, j) * sv.v[j]
				}
			}
			if d := maxDiff(matMul(us, mat{k, n, vt.v[:k*n]}).v, a); d > scale {
				t.Errorf("%s: U·diag(s)·Vh off A by %.3g (tolerance %.3g)", name, d, scale)
			}
			if d := maxDiff(matMul(u.t(), u).v, identity(ku)); d > 16*0x1p-52*float64(max(m, n)) {
				t.Errorf("%s: UᵀU off I by %.3g", name, d)
			}
			if d := maxDiff(matMul(vt, vt.t()).v, identity(kv)); d > 16*0x1p-52*float64(max(m, n)) {
				t.Errorf("%s: Vh·Vhᵀ off I by %.3g", name, d)
			}
		}
	}
}
