package cpu

import (
	"encoding/json"
	"math"
	"math/cmplx"
	"os"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// complexLinalgCase is one matrix (or batch) of
// testdata/linalg_complex_numpy.json (gen_linalg_complex.py) with NumPy's
// complex128 results; complex numbers are [re, im] pairs.
type complexLinalgCase struct {
	Name       string       `json:"name"`
	Shape      []int        `json:"shape"`
	A          [][2]float64 `json:"a"`
	B          [][2]float64 `json:"b"`
	SvdS       []float64    `json:"svd_s"`
	QRR        [][2]float64 `json:"qr_r"`
	Cond       float64      `json:"cond"`
	Eigvalsh   []float64    `json:"eigvalsh"`
	Cholesky   [][2]float64 `json:"cholesky"`
	Eigvals    [][2]float64 `json:"eigvals"`
	Det        [][2]float64 `json:"det"`
	TrilSolve  [][2]float64 `json:"tril_solve"`
	TrilHSolve [][2]float64 `json:"tril_h_solve"`
}

func complexes(p [][2]float64) []complex128 {
	out := make([]complex128, len(p))
	for i, z := range p {
		out[i] = complex(z[0], z[1])
	}
	return out
}

// cmat is a dense row-major complex matrix for checking results.
type cmat struct {
	r, c int
	v    []complex128
}

func (a cmat) at(i, j int) complex128 { return a.v[i*a.c+j] }

func cmatMul(a, b cmat) cmat {
	out := cmat{a.r, b.c, make([]complex128, a.r*b.c)}
	for i := range a.r {
		for k := range a.c {
			x := a.at(i, k)
			for j := range b.c {
				out.v[i*b.c+j] += x * b.at(k, j)
			}
		}
	}
	return out
}

// h is the conjugate transpose.
func (a cmat) h() cmat {
	out := cmat{a.c, a.r, make([]complex128, len(a.v))}
	for i := range a.r {
		for j := range a.c {
			out.v[j*a.r+i] = cmplx.Conj(a.at(i, j))
		}
	}
	return out
}

func cidentity(n int) []complex128 {
	v := make([]complex128, n*n)
	for i := range n {
		v[i*n+i] = 1
	}
	return v
}

func cmaxAbs(v []complex128) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, cmplx.Abs(x))
	}
	return m
}

func cmaxDiff(a, b []complex128) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, cmplx.Abs(a[i]-b[i]))
	}
	return m
}

// cfloats reads batch element k (rows×cols) of a complex buffer.
func cfloats(b *Buffer, k, rows, cols int) cmat {
	m := cmat{rows, cols, make([]complex128, rows*cols)}
	for i := range m.v {
		switch v := b.Element(k*rows*cols + i).(type) {
		case complex64:
			m.v[i] = complex128(v)
		case complex128:
			m.v[i] = v
		}
	}
	return m
}

type complexLinalgRun struct {
	t      *testing.T
	c      complexLinalgCase
	dt     trace.DType
	a      *Buffer
	batch  int
	m, n   int
	eps    float64
	scale  float64 // a backward-error unit: eps·n·max|a|
	prefix string
}

func complexBuffer(t *testing.T, dt trace.DType, shape []int, v []complex128) *Buffer {
	vals := make([]any, len(v))
	for i, z := range v {
		if dt == trace.Complex64 {
			z = complex128(complex64(z))
		}
		vals[i] = z
	}
	return bufferOf(t, dt, shape, vals...)
}

func newComplexRun(t *testing.T, c complexLinalgCase, dt trace.DType) *complexLinalgRun {
	a := complexes(c.A)
	r := len(c.Shape)
	run := &complexLinalgRun{t: t, c: c, dt: dt, a: complexBuffer(t, dt, c.Shape, a), m: c.Shape[r-2], n: c.Shape[r-1]}
	run.eps = 0x1p-52
	if dt == trace.Complex64 {
		run.eps = 0x1p-23
	}
	run.batch = len(a) / (run.m * run.n)
	run.scale = 16 * run.eps * float64(max(run.m, run.n)) * math.Max(cmaxAbs(a), 1e-300)
	run.prefix = c.Name + "/" + dt.Name()
	return run
}

func (r *complexLinalgRun) input(k int) cmat {
	return cmat{r.m, r.n, complexes(r.c.A[k*r.m*r.n : (k+1)*r.m*r.n])}
}

func (r *complexLinalgRun) close(what string, got, want []complex128, tol float64) {
	r.t.Helper()
	if d := cmaxDiff(got, want); !(d <= tol) {
		r.t.Errorf("%s: %s off by %.3g (tolerance %.3g)", r.prefix, what, d, tol)
	}
}

func (r *complexLinalgRun) closeReal(what string, got, want []float64, tol float64) {
	r.t.Helper()
	if d := maxDiff(got, want); !(d <= tol) {
		r.t.Errorf("%s: %s off by %.3g (tolerance %.3g)", r.prefix, what, d, tol)
	}
}

func loadComplexLinalgCases(t *testing.T) []complexLinalgCase {
	t.Helper()
	data, err := os.ReadFile("testdata/linalg_complex_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab struct{ Cases []complexLinalgCase }
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	return tab.Cases
}

func TestComplexLinalgAgainstNumPy(t *testing.T) {
	for _, c := range loadComplexLinalgCases(t) {
		for _, dt := range []trace.DType{trace.Complex64, trace.Complex128} {
			r := newComplexRun(t, c, dt)
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

func (r *complexLinalgRun) checkQR(full bool) {
	out := apply(r.t, "qr", trace.Params{"full_matrices": full, "pivoting": false}, r.a)
	k := min(r.m, r.n)
	if full {
		k = r.m
	}
	for b := range r.batch {
		q, rr := cfloats(out[0], b, r.m, k), cfloats(out[1], b, k, r.n)
		r.close("Q@R vs A", cmatMul(q, rr).v, r.input(b).v, r.scale)
		r.close("QᴴQ vs I", cmatMul(q.h(), q).v, cidentity(k), 16*r.eps*float64(r.m))
		for i := range k {
			for j := range min(i, r.n) {
				if rr.at(i, j) != 0 {
					r.t.Errorf("%s: R[%d,%d] = %g below the diagonal", r.prefix, i, j, rr.at(i, j))
				}
			}
			if i < r.n && imag(rr.at(i, i)) != 0 {
				r.t.Errorf("%s: R[%d,%d] = %g is not real", r.prefix, i, i, rr.at(i, i))
			}
		}
		if r.c.QRR != nil && !full { // zgeqrf's R: the same reflectors give the same R
			kk := min(r.m, r.n)
			want := complexes(r.c.QRR[b*kk*r.n : (b+1)*kk*r.n])
			r.close("R vs NumPy", rr.v, want, r.scale*math.Max(1, r.c.Cond))
		}
	}
}

func (r *complexLinalgRun) checkSVD(full bool) {
	out := apply(r.t, "svd", trace.Params{"full_matrices": full, "compute_uv": true, "subset_by_index": nil}, r.a)
	sOnly := apply(r.t, "svd", trace.Params{"full_matrices": false, "compute_uv": false, "subset_by_index": nil}, r.a)
	k := min(r.m, r.n)
	ku, kv := k, k
	if full {
		ku, kv = r.m, r.n
	}
	for b := range r.batch {
		s := floats(out[0], b, 1, k)
		r.closeReal("singular values vs NumPy", s.v, r.c.SvdS[b*k:(b+1)*k], r.scale)
		r.closeReal("singular values without vectors", floats(sOnly[0], b, 1, k).v, s.v, r.scale)
		u, vh := cfloats(out[1], b, r.m, ku), cfloats(out[2], b, kv, r.n)
		us := cmat{r.m, k, make([]complex128, r.m*k)}
		for i := range r.m {
			for j := range k {
				us.v[i*k+j] = u.at(i, j) * complex(s.v[j], 0)
			}
		}
		r.close("U diag(s) Vh vs A", cmatMul(us, cmat{k, r.n, vh.v[:k*r.n]}).v, r.input(b).v, r.scale)
		r.close("UᴴU vs I", cmatMul(u.h(), u).v, cidentity(ku), 16*r.eps*float64(max(r.m, r.n)))
		r.close("Vh Vhᴴ vs I", cmatMul(vh, vh.h()).v, cidentity(kv), 16*r.eps*float64(max(r.m, r.n)))
	}
}

func (r *complexLinalgRun) checkLU() {
	out := apply(r.t, "lu", nil, r.a)
	k := min(r.m, r.n)
	for b := range r.batch {
		lu := cfloats(out[0], b, r.m, r.n)
		l, u := cmat{r.m, k, make([]complex128, r.m*k)}, cmat{k, r.n, make([]complex128, k*r.n)}
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
		pa := make([]complex128, 0, r.m*r.n)
		for _, p := range perm {
			pa = append(pa, a.v[int(p)*r.n:(int(p)+1)*r.n]...)
		}
		r.close("L@U vs A[perm]", cmatMul(l, u).v, pa, r.scale)
		// Pivots by |re|+|im| bound each multiplier's |re|+|im| by the
		// pivot's, so |l| ≤ √2.
		if m := cmaxAbs(l.v); m > math.Sqrt2*(1+r.eps) {
			r.t.Errorf("%s: |L| reaches %g > √2: not partial pivoting", r.prefix, m)
		}
		if r.c.Det != nil && r.m == r.n {
			det := complex(1, 0)
			for i := range r.n {
				det *= u.at(i, i)
			}
			piv := floats(out[1], b, 1, k).v
			for i, p := range piv {
				if int(p) != i {
					det = -det
				}
			}
			want := complex(r.c.Det[b][0], r.c.Det[b][1])
			if d := cmplx.Abs(det - want); !(d <= r.scale*math.Max(1, r.c.Cond)*math.Max(1, cmplx.Abs(want))) {
				r.t.Errorf("%s: det from LU %v, NumPy %v", r.prefix, det, want)
			}
		}
	}
}

func (r *complexLinalgRun) checkCholesky() {
	l := apply(r.t, "cholesky", nil, r.a)[0]
	n := r.n
	for b := range r.batch {
		lb := cfloats(l, b, n, n)
		r.close("L@Lᴴ vs A", cmatMul(lb, lb.h()).v, r.input(b).v, r.scale)
		r.close("L vs NumPy", lb.v, complexes(r.c.Cholesky[b*n*n:(b+1)*n*n]), r.scale*math.Sqrt(r.c.Cond))
	}
	neg := complexBuffer(r.t, r.dt, []int{2, 2}, []complex128{1, 2i, -2i, 1})
	if v := cfloats(apply(r.t, "cholesky", nil, neg)[0], 0, 2, 2).v[0]; !cmplx.IsNaN(v) {
		r.t.Errorf("cholesky of an indefinite matrix gave %v, want NaN", v)
	}
}

func (r *complexLinalgRun) checkEigh(lower bool) {
	params := trace.Params{"lower": lower, "sort_eigenvalues": true, "subset_by_index": nil}
	out := apply(r.t, "eigh", params, r.a)
	n := r.n
	for b := range r.batch {
		v, w := cfloats(out[0], b, n, n), floats(out[1], b, 1, n)
		r.closeReal("eigenvalues vs NumPy", w.v, r.c.Eigvalsh[b*n:(b+1)*n], r.scale)
		vw := cmat{n, n, make([]complex128, n*n)}
		for i := range n {
			for j := range n {
				vw.v[i*n+j] = v.at(i, j) * complex(w.v[j], 0)
			}
		}
		r.close("A V vs V diag(w)", cmatMul(r.input(b), v).v, vw.v, r.scale)
		r.close("VᴴV vs I", cmatMul(v.h(), v).v, cidentity(n), 16*r.eps*float64(n))
	}
	if n > 1 { // only one triangle is read
		junk := complexes(r.c.A)
		for b := range r.batch {
			for i := range n {
				for j := range n {
					if (lower && j > i) || (!lower && j < i) {
						junk[b*n*n+i*n+j] = 1e3 - 7i
					}
				}
			}
		}
		w := apply(r.t, "eigh", params, complexBuffer(r.t, r.dt, r.c.Shape, junk))[1]
		r.closeReal("eigenvalues reading one triangle", floats(w, 0, 1, r.batch*n).v, r.c.Eigvalsh, r.scale)
	}
}

func (r *complexLinalgRun) checkEig() {
	out := apply(r.t, "eig", trace.Params{"compute_left_eigenvectors": true, "compute_right_eigenvectors": true}, r.a)
	n := r.n
	tol := r.scale * math.Max(1, math.Sqrt(r.c.Cond)) * 8
	for b := range r.batch {
		w := cfloats(out[0], b, 1, n).v
		vl, vr := cfloats(out[1], b, n, n), cfloats(out[2], b, n, n)
		// Each of NumPy's eigenvalues against the nearest one not yet
		// matched (sorting would split conjugate pairs whose real parts
		// differ by a rounding).
		used := make([]bool, n)
		for i, want := range complexes(r.c.Eigvals[b*n : (b+1)*n]) {
			best := -1
			for k, z := range w {
				if !used[k] && (best < 0 || cmplx.Abs(z-want) < cmplx.Abs(w[best]-want)) {
					best = k
				}
			}
			used[best] = true
			if cmplx.Abs(w[best]-want) > tol {
				r.t.Errorf("%s: eigenvalue %d: NumPy %v, nearest %v", r.prefix, i, want, w[best])
			}
		}
		a := r.input(b)
		av, ua := cmatMul(a, vr), cmatMul(vl.h(), a)
		for j := range n {
			norm2R, norm2L, bigR, bigAt := 0.0, 0.0, -1.0, 0
			for i := range n {
				if cmplx.Abs(av.at(i, j)-w[j]*vr.at(i, j)) > tol {
					r.t.Errorf("%s: right eigenvector %d: (A v - w v)[%d] = %v", r.prefix, j, i, av.at(i, j)-w[j]*vr.at(i, j))
				}
				if cmplx.Abs(ua.at(j, i)-w[j]*cmplx.Conj(vl.at(i, j))) > tol {
					r.t.Errorf("%s: left eigenvector %d: (uᴴA - w uᴴ)[%d] = %v", r.prefix, j, i, ua.at(j, i)-w[j]*cmplx.Conj(vl.at(i, j)))
				}
				x := cmplx.Abs(vr.at(i, j))
				norm2R += x * x
				norm2L += cmplx.Abs(vl.at(i, j)) * cmplx.Abs(vl.at(i, j))
				if x > bigR {
					bigR, bigAt = x, i
				}
			}
			if math.Abs(norm2R-1) > 16*r.eps*float64(n) || math.Abs(norm2L-1) > 16*r.eps*float64(n) {
				r.t.Errorf("%s: eigenvector %d norms² %g (right), %g (left), want 1", r.prefix, j, norm2R, norm2L)
			}
			if imag(vr.at(bigAt, j)) != 0 {
				r.t.Errorf("%s: right eigenvector %d's largest component %v is not real", r.prefix, j, vr.at(bigAt, j))
			}
		}
	}
}

func (r *complexLinalgRun) checkTriangularSolve() {
	n := r.n
	a := complexes(r.c.A)
	big := complex(1+cmaxAbs(a), 0)
	tri := make([]complex128, len(a))
	for b := range r.batch {
		for i := range n {
			for j := range n {
				v := a[b*n*n+i*n+j]
				if i == j {
					v = complex128(complex64(v + big))
				}
				tri[b*n*n+i*n+j] = v
			}
		}
	}
	shape := append(slices.Clone(r.c.Shape[:len(r.c.Shape)-1]), 3)
	at, rhs := complexBuffer(r.t, r.dt, r.c.Shape, tri), complexBuffer(r.t, r.dt, shape, complexes(r.c.B))
	tol := 16 * r.eps * float64(n) * math.Max(1, cmaxAbs(complexes(r.c.TrilSolve)))
	for _, conjT := range []bool{false, true} {
		params := trace.Params{"left_side": true, "lower": true, "transpose_a": conjT, "conjugate_a": conjT, "unit_diagonal": false}
		x := apply(r.t, "triangular_solve", params, at, rhs)[0]
		want := r.c.TrilSolve
		if conjT {
			want = r.c.TrilHSolve
		}
		r.close("tril solve vs NumPy", cfloats(x, 0, 1, len(want)).v, complexes(want), tol)
	}
	// x·conj(a) = b on the right side, a upper with a unit diagonal.
	rt := complexBuffer(r.t, r.dt, append(slices.Clone(r.c.Shape[:len(r.c.Shape)-2]), 3, n), complexes(r.c.B))
	params := trace.Params{"left_side": false, "lower": false, "transpose_a": false, "conjugate_a": true, "unit_diagonal": true}
	xr := apply(r.t, "triangular_solve", params, at, rt)[0]
	for b := range r.batch {
		u := cmat{n, n, make([]complex128, n*n)}
		for i := range n {
			for j := range n {
				switch {
				case i == j:
					u.v[i*n+j] = 1
				case j > i:
					u.v[i*n+j] = cmplx.Conj(tri[b*n*n+i*n+j])
				}
			}
		}
		x := cfloats(xr, b, 3, n)
		r.close("x·conj(a) vs b", cmatMul(x, u).v, complexes(r.c.B[b*3*n:(b+1)*3*n]), 1e3*r.scale*math.Max(1, cmaxAbs(x.v)))
	}
}
