package cpu

import (
	"cmp"
	"encoding/json"
	"math"
	"math/cmplx"
	"os"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// linalgCase is one matrix (or batch) of testdata/linalg_numpy.json
// (gen_linalg.py) with NumPy's float64 results.
type linalgCase struct {
	Name      string       `json:"name"`
	Shape     []int        `json:"shape"`
	A         []float64    `json:"a"`
	B         []float64    `json:"b"`
	Cholesky  []float64    `json:"cholesky"`
	Eigvalsh  []float64    `json:"eigvalsh"`
	Eigvals   [][2]float64 `json:"eigvals"`
	TrilSolve []float64    `json:"tril_solve"`
	SvdS      []float64    `json:"svd_s"`
	Cond      float64      `json:"cond"`
}

func loadLinalgCases(t *testing.T) []linalgCase {
	t.Helper()
	data, err := os.ReadFile("testdata/linalg_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab struct{ Cases []linalgCase }
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	return tab.Cases
}

// mat is a dense row-major float64 matrix for checking results.
type mat struct {
	r, c int
	v    []float64
}

func (a mat) at(i, j int) float64 { return a.v[i*a.c+j] }

func matMul(a, b mat) mat {
	out := mat{a.r, b.c, make([]float64, a.r*b.c)}
	for i := range a.r {
		for k := range a.c {
			for j := range b.c {
				out.v[i*b.c+j] += a.at(i, k) * b.at(k, j)
			}
		}
	}
	return out
}

func (a mat) t() mat {
	out := mat{a.c, a.r, make([]float64, len(a.v))}
	for i := range a.r {
		for j := range a.c {
			out.v[j*a.r+i] = a.at(i, j)
		}
	}
	return out
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// maxDiff is the largest |a-b| over the elements.
func maxDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// floats reads batch element k (of rows×cols) of a real buffer.
func floats(b *Buffer, k, rows, cols int) mat {
	m := mat{rows, cols, make([]float64, rows*cols)}
	for i := range m.v {
		m.v[i] = asFloat64(b, k*rows*cols+i)
	}
	return m
}

func linalgEps(dt trace.DType) float64 {
	if dt == trace.Float32 {
		return 0x1p-23
	}
	return 0x1p-52
}

type linalgRun struct {
	t      *testing.T
	c      linalgCase
	dt     trace.DType
	a      *Buffer
	batch  int
	m, n   int
	eps    float64
	scale  float64 // a backward-error unit: eps·n·max|a|
	prefix string
}

func newLinalgRun(t *testing.T, c linalgCase, dt trace.DType) *linalgRun {
	vals := make([]any, len(c.A))
	for i, v := range c.A {
		vals[i] = v
	}
	r := len(c.Shape)
	run := &linalgRun{t: t, c: c, dt: dt, a: bufferOf(t, dt, c.Shape, vals...), m: c.Shape[r-2], n: c.Shape[r-1], eps: linalgEps(dt)}
	run.batch = len(c.A) / (run.m * run.n)
	run.scale = 16 * run.eps * float64(max(run.m, run.n)) * math.Max(maxAbs(c.A), 1e-300)
	run.prefix = c.Name + "/" + dt.Name()
	return run
}

func (r *linalgRun) input(k int) mat { return mat{r.m, r.n, r.c.A[k*r.m*r.n : (k+1)*r.m*r.n]} }

// close requires maxDiff(got, want) ≤ tol.
func (r *linalgRun) close(what string, got, want []float64, tol float64) {
	r.t.Helper()
	if d := maxDiff(got, want); !(d <= tol) {
		r.t.Errorf("%s: %s off by %.3g (tolerance %.3g)", r.prefix, what, d, tol)
	}
}

func identity(n int) []float64 {
	v := make([]float64, n*n)
	for i := range n {
		v[i*n+i] = 1
	}
	return v
}

func TestLinalgAgainstNumPy(t *testing.T) {
	for _, c := range loadLinalgCases(t) {
		for _, dt := range []trace.DType{trace.Float32, trace.Float64} {
			r := newLinalgRun(t, c, dt)
			r.checkQR(false)
			r.checkQR(true)
			r.checkSVD(false)
			r.checkSVD(true)
			r.checkLU()
			if r.m == r.n {
				r.checkEig()
				r.checkTriangularSolve()
			}
			if c.Cholesky != nil {
				r.checkCholesky()
			}
			if c.Eigvalsh != nil {
				r.checkEigh(true)
				r.checkEigh(false)
			}
		}
	}
}

func (r *linalgRun) checkQR(full bool) {
	out := apply(r.t, "qr", trace.Params{"full_matrices": full, "pivoting": false}, r.a)
	k := min(r.m, r.n)
	if full {
		k = r.m
	}
	for b := range r.batch {
		q, rr := floats(out[0], b, r.m, k), floats(out[1], b, k, r.n)
		r.close("Q@R vs A", matMul(q, rr).v, r.input(b).v, r.scale)
		r.close("QᵀQ vs I", matMul(q.t(), q).v, identity(k), 16*r.eps*float64(r.m))
		for i := range k {
			for j := range min(i, r.n) {
				if rr.at(i, j) != 0 {
					r.t.Errorf("%s: R[%d,%d] = %g below the diagonal", r.prefix, i, j, rr.at(i, j))
				}
			}
		}
	}
}

func (r *linalgRun) checkSVD(full bool) {
	out := apply(r.t, "svd", trace.Params{"full_matrices": full, "compute_uv": true, "subset_by_index": nil}, r.a)
	sOnly := apply(r.t, "svd", trace.Params{"full_matrices": false, "compute_uv": false, "subset_by_index": nil}, r.a)
	k := min(r.m, r.n)
	ku, kv := k, k
	if full {
		ku, kv = r.m, r.n
	}
	for b := range r.batch {
		s := floats(out[0], b, 1, k)
		r.close("singular values vs NumPy", s.v, r.c.SvdS[b*k:(b+1)*k], r.scale)
		r.close("singular values without vectors", floats(sOnly[0], b, 1, k).v, s.v, r.scale)
		u, vt := floats(out[1], b, r.m, ku), floats(out[2], b, kv, r.n)
		us := mat{r.m, k, make([]float64, r.m*k)}
		for i := range r.m {
			for j := range k {
				us.v[i*k+j] = u.at(i, j) * s.v[j]
			}
		}
		vtk := mat{k, r.n, vt.v[:k*r.n]}
		r.close("U diag(s) Vh vs A", matMul(us, vtk).v, r.input(b).v, r.scale)
		r.close("UᵀU vs I", matMul(u.t(), u).v, identity(ku), 16*r.eps*float64(max(r.m, r.n)))
		r.close("Vh Vhᵀ vs I", matMul(vt, vt.t()).v, identity(kv), 16*r.eps*float64(max(r.m, r.n)))
	}
}

func (r *linalgRun) checkLU() {
	out := apply(r.t, "lu", nil, r.a)
	k := min(r.m, r.n)
	for b := range r.batch {
		lu := floats(out[0], b, r.m, r.n)
		l, u := mat{r.m, k, make([]float64, r.m*k)}, mat{k, r.n, make([]float64, k*r.n)}
		for i := range r.m {
			for j := range r.n {
				switch {
				case j < i && j < k:
					l.v[i*k+j] = lu.at(i, j)
				case i < k && j >= i:
					u.v[i*r.n+j] = lu.at(i, j)
				}
			}
			if i < k {
				l.v[i*k+i] = 1
			}
		}
		perm := floats(out[2], b, 1, r.m).v
		a := r.input(b)
		pa := make([]float64, 0, r.m*r.n)
		for _, p := range perm {
			pa = append(pa, a.v[int(p)*r.n:(int(p)+1)*r.n]...)
		}
		r.close("L@U vs A[perm]", matMul(l, u).v, pa, r.scale)
		// partial pivoting: |L| ≤ 1
		if m := maxAbs(l.v); m > 1+r.eps {
			r.t.Errorf("%s: |L| reaches %g > 1: not partial pivoting", r.prefix, m)
		}
	}
}

func (r *linalgRun) checkCholesky() {
	l := apply(r.t, "cholesky", nil, r.a)[0]
	n := r.n
	for b := range r.batch {
		lb := floats(l, b, n, n)
		r.close("L@Lᵀ vs A", matMul(lb, lb.t()).v, r.input(b).v, r.scale)
		// The factor is unique: NumPy's, to within the conditioning.
		r.close("L vs NumPy", lb.v, r.c.Cholesky[b*n*n:(b+1)*n*n], r.scale*math.Sqrt(r.c.Cond))
	}
	// Not positive definite: NaNs, as JAX returns.
	neg := bufferOf(r.t, r.dt, []int{2, 2}, 1.0, 2.0, 2.0, 1.0)
	if v := apply(r.t, "cholesky", nil, neg)[0].Element(0).(float64); !math.IsNaN(v) {
		r.t.Errorf("cholesky of an indefinite matrix gave %v, want NaN", v)
	}
}

func (r *linalgRun) checkEigh(lower bool) {
	out := apply(r.t, "eigh", trace.Params{"lower": lower, "sort_eigenvalues": true, "subset_by_index": nil}, r.a)
	n := r.n
	for b := range r.batch {
		v, w := floats(out[0], b, n, n), floats(out[1], b, 1, n)
		r.close("eigenvalues vs NumPy", w.v, r.c.Eigvalsh[b*n:(b+1)*n], r.scale)
		vw := mat{n, n, make([]float64, n*n)}
		for i := range n {
			for j := range n {
				vw.v[i*n+j] = v.at(i, j) * w.v[j]
			}
		}
		r.close("A V vs V diag(w)", matMul(r.input(b), v).v, vw.v, r.scale)
		r.close("VᵀV vs I", matMul(v.t(), v).v, identity(n), 16*r.eps*float64(n))
	}
	// Only one triangle is read.
	if n > 1 {
		junk := append([]float64(nil), r.c.A...)
		for b := range r.batch {
			for i := range n {
				for j := range n {
					if (lower && j > i) || (!lower && j < i) {
						junk[b*n*n+i*n+j] = 1e3
					}
				}
			}
		}
		vals := make([]any, len(junk))
		for i, x := range junk {
			vals[i] = x
		}
		w := apply(r.t, "eigh", trace.Params{"lower": lower, "sort_eigenvalues": true, "subset_by_index": nil}, bufferOf(r.t, r.dt, r.c.Shape, vals...))[1]
		r.close("eigenvalues reading one triangle", floats(w, 0, 1, r.batch*n).v, r.c.Eigvalsh, r.scale)
	}
}

func (r *linalgRun) checkEig() {
	out := apply(r.t, "eig", trace.Params{"compute_left_eigenvectors": true, "compute_right_eigenvectors": true}, r.a)
	n := r.n
	tol := r.scale * math.Max(1, math.Sqrt(r.c.Cond)) * 8
	for b := range r.batch {
		w := make([]complex128, n)
		vl, vr := make([]complex128, n*n), make([]complex128, n*n)
		for i := range w {
			w[i] = out[0].Element(b*n + i).(complex128)
		}
		for i := range vr {
			vl[i] = out[1].Element(b*n*n + i).(complex128)
			vr[i] = out[2].Element(b*n*n + i).(complex128)
		}
		sorted := slices.Clone(w)
		slices.SortFunc(sorted, func(x, y complex128) int {
			return cmp.Or(cmp.Compare(real(x), real(y)), cmp.Compare(imag(x), imag(y)))
		})
		for i, z := range sorted {
			want := complex(r.c.Eigvals[b*n+i][0], r.c.Eigvals[b*n+i][1])
			if cmplx.Abs(z-want) > tol {
				r.t.Errorf("%s: eigenvalue %d = %v, NumPy %v", r.prefix, i, z, want)
			}
		}
		a := r.input(b)
		for j := range n { // A v_j = w_j v_j and u_jᴴ A = w_j u_jᴴ
			for i := range n {
				var av, ua complex128
				for k := range n {
					av += complex(a.at(i, k), 0) * vr[k*n+j]
					ua += cmplx.Conj(vl[k*n+j]) * complex(a.at(k, i), 0)
				}
				if cmplx.Abs(av-w[j]*vr[i*n+j]) > tol || cmplx.Abs(ua-w[j]*cmplx.Conj(vl[i*n+j])) > tol {
					r.t.Errorf("%s: eigenvector %d does not satisfy A v = w v (row %d)", r.prefix, j, i)
				}
			}
		}
	}
}

func (r *linalgRun) checkTriangularSolve() {
	n := r.n
	shape := append(slices.Clone(r.c.Shape[:len(r.c.Shape)-1]), 3)
	tri := make([]any, len(r.c.A))
	// gen_linalg.py's triangle: a's, with 1+max|a| added to the
	// diagonal, rounded to float32.
	big := 1 + maxAbs(r.c.A)
	for b := range r.batch {
		for i := range n {
			for j := range n {
				v := r.c.A[b*n*n+i*n+j]
				if i == j {
					v = float64(float32(v + big))
				}
				tri[b*n*n+i*n+j] = v
			}
		}
	}
	bv := make([]any, len(r.c.B))
	for i, v := range r.c.B {
		bv[i] = v
	}
	a, rhs := bufferOf(r.t, r.dt, r.c.Shape, tri...), bufferOf(r.t, r.dt, shape, bv...)
	params := trace.Params{"left_side": true, "lower": true, "transpose_a": false, "conjugate_a": false, "unit_diagonal": false}
	x := apply(r.t, "triangular_solve", params, a, rhs)[0]
	tol := 16 * r.eps * float64(n) * math.Max(1, maxAbs(r.c.TrilSolve))
	r.close("tril solve vs NumPy", floats(x, 0, 1, len(r.c.TrilSolve)).v, r.c.TrilSolve, tol)
	// x·op(a) = b on the right side, a upper and transposed: x·aᵀ = bᵀ-shaped rhs.
	rt := bufferOf(r.t, r.dt, append(slices.Clone(r.c.Shape[:len(r.c.Shape)-2]), 3, n), bv...)
	params = trace.Params{"left_side": false, "lower": false, "transpose_a": true, "conjugate_a": false, "unit_diagonal": true}
	xr := apply(r.t, "triangular_solve", params, a, rt)[0]
	for b := range r.batch {
		// reconstruct: x · (unit upper of a)ᵀ = rhs
		u := mat{n, n, make([]float64, n*n)}
		for i := range n {
			for j := range n {
				switch {
				case i == j:
					u.v[i*n+j] = 1
				case j > i:
					u.v[i*n+j] = tri[b*n*n+i*n+j].(float64)
				}
			}
		}
		got := matMul(floats(xr, b, 3, n), u.t())
		r.close("x·op(a) vs b", got.v, r.c.B[b*3*n:(b+1)*3*n], 1e3*r.scale*math.Max(1, maxAbs(floats(xr, b, 3, n).v)))
	}
}
