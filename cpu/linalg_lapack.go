package cpu

import (
	"math"

	"gonum.org/v1/gonum/blas"
	blasimpl "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	lapackimpl "gonum.org/v1/gonum/lapack/gonum"
)

// One matrix of each lax.linalg primitive, on gonum's LAPACK. Matrices are
// row-major with the leading dimension equal to the column count.

var (
	lapackImpl lapackimpl.Implementation
	blasImpl   blasimpl.Implementation
)

// workspace asks a LAPACK routine for its optimal work length (lwork = -1)
// and returns a slice of that length.
func workspace(query func(work []float64)) []float64 {
	w := []float64{0}
	query(w)
	return make([]float64, max(1, int(w[0])))
}

// choleskyOne: the lower factor, zeros above the diagonal; NaNs when the
// matrix is not positive definite (as JAX returns). Blocked
// (linalg_blocked.go).
func choleskyOne(j *matrixJob) {
	a, l := j.in[0], j.out[0]
	n := a.rows
	copy(l.f, a.f)
	if n == 0 {
		return
	}
	if !choleskyLower(l.f, n) {
		fillNaN(l.f)
		return
	}
	for r := range n {
		clear(l.f[r*n+r+1 : (r+1)*n])
	}
}

func luOne(j *matrixJob) {
	a, lu, pivots, perm := j.in[0], j.out[0], j.out[1], j.out[2]
	m, n := a.rows, a.cols
	copy(lu.f, a.f)
	if min(m, n) > 0 {
		// A singular matrix still factors (a zero pivot in U); the result
		// is what LAPACK leaves, as in JAX.
		luPartialPivot(lu.f, m, n, pivots.i)
	}
	for i := range perm.i {
		perm.i[i] = i
	}
	for i, p := range pivots.i {
		perm.i[i], perm.i[p] = perm.i[p], perm.i[i]
	}
}

func qrOne(j *matrixJob) {
	a, q, r := j.in[0], j.out[0], j.out[1]
	m, n := a.rows, a.cols
	k, kq := min(m, n), q.cols
	clear(r.f)
	clear(q.f)
	if m == 0 || n == 0 {
		for i := range min(m, kq) {
			q.f[i*kq+i] = 1
		}
		return
	}
	f := append([]float64(nil), a.f...)
	tau := make([]float64, k)
	work := workspace(func(w []float64) { lapackImpl.Dgeqrf(m, n, f, n, tau, w, -1) })
	lapackImpl.Dgeqrf(m, n, f, n, tau, work, len(work))
	for i := range r.rows {
		for c := i; c < n && i < m; c++ {
			r.f[i*n+c] = f[i*n+c]
		}
	}
	for i := range m {
		copy(q.f[i*kq:i*kq+min(kq, n)], f[i*n:i*n+min(kq, n)])
	}
	work = workspace(func(w []float64) { lapackImpl.Dorgqr(m, kq, k, q.f, kq, tau, w, -1) })
	lapackImpl.Dorgqr(m, kq, k, q.f, kq, tau, work, len(work))
}

// eighOne: Householder tridiagonalization (linalg_sytrd.go), then the
// tridiagonal QL iteration of linalg_tridiag.go, its rotations applied
// to Q afterwards, row by row. Both replace gonum's Dsyev, whose parts
// are slow on row-major storage (RATIONALE.md).
func eighOne(j *matrixJob) {
	a, v, w := j.in[0], j.out[0], j.out[1]
	n := a.rows
	if n == 0 {
		return
	}
	lower := j.params.Bool("lower")
	full := make([]float64, n*n)
	for r := range n {
		for c := range n {
			if (c <= r) == lower || r == c {
				full[r*n+c], full[c*n+r] = a.f[r*n+c], a.f[r*n+c]
			}
		}
	}
	d, e := w.f, make([]float64, max(1, n-1))
	tridiagonalize(full, n, d, e, v.f)
	plan := newRotationPlan()
	defer plan.release()
	if !tridiagQL(d, e[:n-1], plan) {
		fillNaN(v.f)
		fillNaN(w.f)
		return
	}
	plan.apply(v.f, n, n)
	sortEigen(d, v.f, n)
}

// eigOne: eigenvalues as complex numbers; a complex pair's eigenvectors
// come from LAPACK's two real columns (re, im), the second conjugated.
func eigOne(j *matrixJob) {
	a := j.in[0]
	n := a.rows
	if n == 0 {
		return
	}
	left, right := j.params.Bool("compute_left_eigenvectors"), j.params.Bool("compute_right_eigenvectors")
	jobL, jobR := lapack.LeftEVNone, lapack.RightEVNone
	var vl, vr []float64
	ldl, ldr := 1, 1
	if left {
		jobL, vl, ldl = lapack.LeftEVCompute, make([]float64, n*n), n
	}
	if right {
		jobR, vr, ldr = lapack.RightEVCompute, make([]float64, n*n), n
	}
	f := append([]float64(nil), a.f...)
	wr, wi := make([]float64, n), make([]float64, n)
	work := workspace(func(w []float64) { lapackImpl.Dgeev(jobL, jobR, n, f, n, wr, wi, vl, ldl, vr, ldr, w, -1) })
	failed := lapackImpl.Dgeev(jobL, jobR, n, f, n, wr, wi, vl, ldl, vr, ldr, work, len(work)) > 0
	out := j.out[0].c
	for i := range n {
		out[i] = complex(wr[i], wi[i])
		if failed {
			out[i] = complex(math.NaN(), math.NaN())
		}
	}
	next := 1
	for _, v := range [][]float64{vl, vr} {
		if v == nil {
			continue
		}
		dst := j.out[next].c
		next++
		for c := 0; c < n; c++ {
			if wi[c] == 0 || c+1 == n {
				for r := range n {
					dst[r*n+c] = complex(v[r*n+c], 0)
				}
				continue
			}
			for r := range n {
				re, im := v[r*n+c], v[r*n+c+1]
				dst[r*n+c], dst[r*n+c+1] = complex(re, im), complex(re, -im)
			}
			c++
		}
		if failed {
			for i := range dst {
				dst[i] = complex(math.NaN(), math.NaN())
			}
		}
	}
}

// svdOne is Dgesvd's path for a matrix with m ≥ n (a wide one goes
// through its transpose): Dgebrd's bidiagonalization and Dorgbr's
// orthogonal factors, then, with singular vectors, the bidiagonal QR of
// linalg_bdsvd.go in place of Dbdsqr, whose strided column rotations were
// 90% of a 512×512 SVD (RATIONALE.md).
func svdOne(j *matrixJob) {
	a := j.in[0]
	m, n := a.rows, a.cols
	s := j.out[0].f
	uv := len(j.out) == 3
	if min(m, n) == 0 {
		if uv { // identity singular vectors of an empty matrix
			for _, u := range j.out[1:] {
				clear(u.f)
				for i := range min(u.rows, u.cols) {
					u.f[i*u.cols+i] = 1
				}
			}
		}
		return
	}
	if m >= n {
		var u, vt *matrix
		if uv {
			u, vt = &j.out[1], &j.out[2]
		}
		if !svdTallReal(a.f, m, n, s, u, vt) {
			fillRealSVDNaN(j)
		}
		return
	}
	// a = (aᵀ)ᵀ: aᵀ = u'·s·vt' gives u = vt'ᵀ and vt = u'ᵀ.
	at := make([]float64, n*m)
	transposeInto(a.f, m, n, at)
	if !uv {
		if !svdTallReal(at, n, m, s, nil, nil) {
			fillRealSVDNaN(j)
		}
		return
	}
	u, vt := j.out[1], j.out[2]
	u2 := matrix{rows: n, cols: vt.rows, f: make([]float64, n*vt.rows)}
	vt2 := matrix{rows: m, cols: m, f: make([]float64, m*m)}
	if !svdTallReal(at, n, m, s, &u2, &vt2) {
		fillRealSVDNaN(j)
		return
	}
	transposeInto(vt2.f, m, m, u.f)
	transposeInto(u2.f, n, vt.rows, vt.f)
}

func fillRealSVDNaN(j *matrixJob) {
	for _, o := range j.out {
		fillNaN(o.f)
	}
}

// transposeInto writes aᵀ (cols×rows) into out.
func transposeInto(a []float64, rows, cols int, out []float64) {
	for r := range rows {
		for c := range cols {
			out[c*rows+r] = a[r*cols+c]
		}
	}
}

// svdTallReal: the SVD of an m×n matrix, m ≥ n. u (m×n or m×m) and vt
// (n×n) are nil when not asked for.
func svdTallReal(a []float64, m, n int, s []float64, u, vt *matrix) bool {
	f := append([]float64(nil), a...)
	d, e := s, make([]float64, max(1, n-1))
	tauQ, tauP := make([]float64, n), make([]float64, n)
	work := workspace(func(w []float64) { lapackImpl.Dgebrd(m, n, f, n, d, e, tauQ, tauP, w, -1) })
	lapackImpl.Dgebrd(m, n, f, n, d, e, tauQ, tauP, work, len(work))
	bdWork := make([]float64, 4*n)
	if u == nil {
		return lapackImpl.Dbdsqr(blas.Upper, n, 0, 0, 0, d, e, nil, 1, nil, 1, nil, 1, bdWork)
	}
	// Q = H₀·…·H_{n-1} from the reflectors in f's columns (H_i's below
	// row i), P = G₀·…·G_{n-2} from those in its rows (G_i's right of
	// column i+1), each copied out as rows with their leading 1 and
	// accumulated in blocks (accumulateReflectors) in place of Dorgbr.
	vq := make([]float64, n*m)
	for i := range n {
		vq[i*m+i] = 1
		for r := i + 1; r < m; r++ {
			vq[i*m+r] = f[r*n+i]
		}
	}
	accumulateReflectors(reflectorRows{v: vq, ld: m, tau: tauQ}, u.f, m, u.cols, u.cols)
	pv := make([]float64, n*n)
	vp := make([]float64, n*n)
	for i := 0; i+1 < n; i++ {
		vp[i*n+i+1] = 1
		copy(vp[i*n+i+2:(i+1)*n], f[i*n+i+2:(i+1)*n])
	}
	accumulateReflectors(reflectorRows{v: vp, ld: n, tau: tauP[:n-1], shift: 1}, pv, n, n, n)
	// The bidiagonal SVD turns Q's first n columns into Q·U_B and P into
	// P·V_B (V = P·V_B, returned transposed).
	q, ku := u.f, u.cols
	if !bidiagSVD(d, e[:n-1], q, m, ku, pv) {
		return false
	}
	transposeInto(pv, n, n, vt.f)
	return true
}

// triangularSolveOne solves op(a)·x = b (left side) or x·op(a) = b. Both
// become a left-side solve with a plain triangular matrix: op(a) itself or
// its transpose, copied when that is not a; a right-side solve transposes
// x (op(a)ᵀ·xᵀ = bᵀ). The right-hand sides are independent, so their
// columns are shared out over the pool.
func triangularSolveOne(j *matrixJob) {
	a, b, x := j.in[0], j.in[1], j.out[0]
	copy(x.f, b.f)
	if x.rows == 0 || x.cols == 0 {
		return
	}
	left, lower := j.params.Bool("left_side"), j.params.Bool("lower")
	trans, unit := j.params.Bool("transpose_a"), j.params.Bool("unit_diagonal")
	n := a.rows
	t := a.f
	if left == trans { // the matrix to solve with is aᵀ
		t = make([]float64, n*n)
		transposeInto(a.f, n, n, t)
		lower = !lower
	}
	rhs, cols := x.f, x.cols
	if !left {
		rhs, cols = make([]float64, len(x.f)), x.rows
		transposeInto(x.f, x.rows, x.cols, rhs)
	}
	chunk := max(16, roundUp(ceilDiv(cols, 2*pool.size), 16))
	pool.parallelFor(nil, ceilDiv(cols, chunk), max(1, (1<<18)/max(1, n*n*chunk)), func(lo, hi int) {
		for c := lo; c < hi; c++ {
			c0 := c * chunk
			triangularSolveLeft(t, n, lower, unit, rhs[c0:], min(chunk, cols-c0), cols)
		}
	})
	if !left {
		transposeInto(rhs, n, x.rows, x.f)
	}
}
