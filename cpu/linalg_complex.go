package cpu

import (
	"math"
	"math/cmplx"
)

// The complex kernels of the lax.linalg primitives: Cholesky, LU with
// partial pivoting, triangular solves and Householder QR here; the
// eigenvalue and singular value decompositions in linalg_complex_eig.go.
// They follow LAPACK's conventions (zpotrf, zgetrf, zgeqrf): reflectors
// leave real values on the diagonal of R, pivots are chosen by
// |re| + |im|, so results agree with NumPy's, not only up to phases.
// Matrices are row-major complex128 with the leading dimension equal to
// the column count.

// abs1 is |re| + |im|, LAPACK's cheap magnitude for pivoting and
// convergence tests.
func abs1(z complex128) float64 { return math.Abs(real(z)) + math.Abs(imag(z)) }

func fillComplexNaN(x []complex128) {
	for i := range x {
		x[i] = complex(math.NaN(), math.NaN())
	}
}

// reflector makes the elementary reflector H = I - τ·v·vᴴ with
// Hᴴ·x = β·e₁, β real, for x = (x[0], x[stride], ...) of n elements. It
// overwrites x with v (v[0] = 1) and returns τ and β. A zero x, or one
// already real on e₁, gives τ = 0 (H = I).
func reflector(x []complex128, n, stride int) (tau complex128, beta float64) {
	alpha := x[0]
	scale, ssq := 0.0, 1.0 // the sum of squares as scale²·ssq, safe from overflow
	add := func(v float64) {
		if v == 0 {
			return
		}
		a := math.Abs(v)
		if scale < a {
			ssq = 1 + ssq*(scale/a)*(scale/a)
			scale = a
		} else {
			ssq += (a / scale) * (a / scale)
		}
	}
	for i := 1; i < n; i++ {
		v := x[i*stride]
		add(real(v))
		add(imag(v))
	}
	xnorm := scale * math.Sqrt(ssq)
	x[0] = 1
	if xnorm == 0 && imag(alpha) == 0 {
		return 0, real(alpha)
	}
	beta = -math.Copysign(math.Hypot(math.Hypot(real(alpha), imag(alpha)), xnorm), real(alpha))
	tau = complex((beta-real(alpha))/beta, -imag(alpha)/beta)
	inv := 1 / (alpha - complex(beta, 0))
	for i := 1; i < n; i++ {
		x[i*stride] *= inv
	}
	return tau, beta
}

// applyLeft sets C ← (I - τ·v·vᴴ)·C for C the rows×cols block of a at
// (r0, c0) (leading dimension ld), v of rows elements. For Hᴴ·C pass
// conj(τ).
func applyLeft(tau complex128, v []complex128, a []complex128, ld, r0, c0, rows, cols int, scratch []complex128) {
	if tau == 0 {
		return
	}
	w := scratch[:cols]
	clear(w)
	for i := range rows { // w = vᴴ·C
		cv := cmplx.Conj(v[i])
		row := a[(r0+i)*ld+c0 : (r0+i)*ld+c0+cols]
		for j, x := range row {
			w[j] += cv * x
		}
	}
	for i := range rows {
		f := tau * v[i]
		row := a[(r0+i)*ld+c0 : (r0+i)*ld+c0+cols]
		for j := range row {
			row[j] -= f * w[j]
		}
	}
}

// applyRight sets C ← C·(I - τ·v·vᴴ) for the block as in applyLeft, v of
// cols elements.
func applyRight(tau complex128, v []complex128, a []complex128, ld, r0, c0, rows, cols int) {
	if tau == 0 {
		return
	}
	for i := range rows {
		row := a[(r0+i)*ld+c0 : (r0+i)*ld+c0+cols]
		var s complex128 // (C·v)_i
		for j, x := range row {
			s += x * v[j]
		}
		s *= tau
		for j := range row {
			row[j] -= s * cmplx.Conj(v[j])
		}
	}
}

// column copies column c of a (rows r0.. of n) into dst.
func column(a []complex128, ld, r0, c, n int, dst []complex128) []complex128 {
	dst = dst[:n]
	for i := range n {
		dst[i] = a[(r0+i)*ld+c]
	}
	return dst
}

// choleskyComplex: the lower factor of a Hermitian positive definite
// matrix (its lower triangle read), a = L·Lᴴ; NaNs where a is not
// positive definite.
func choleskyComplex(j *matrixJob) {
	a, l := j.in[0].c, j.out[0].c
	n := j.in[0].rows
	clear(l)
	for c := range n {
		d := real(a[c*n+c])
		for k := range c {
			x := l[c*n+k]
			d -= real(x)*real(x) + imag(x)*imag(x)
		}
		if !(d > 0) {
			fillComplexNaN(l)
			return
		}
		d = math.Sqrt(d)
		l[c*n+c] = complex(d, 0)
		for r := c + 1; r < n; r++ {
			s := a[r*n+c]
			lr, lc := l[r*n:r*n+c], l[c*n:c*n+c]
			for k, x := range lr {
				s -= x * cmplx.Conj(lc[k])
			}
			l[r*n+c] = s / complex(d, 0)
		}
	}
}

// luComplex: partial-pivoting LU as zgetrf leaves it (a zero pivot
// leaves its column unscaled), with pivots and the row permutation as
// luOne gives them.
func luComplex(j *matrixJob) {
	a, lu, pivots, perm := j.in[0], j.out[0].c, j.out[1].i, j.out[2].i
	m, n := a.rows, a.cols
	copy(lu, a.c)
	for k := range min(m, n) {
		p, best := k, -1.0
		for r := k; r < m; r++ {
			if v := abs1(lu[r*n+k]); v > best {
				p, best = r, v
			}
		}
		pivots[k] = p
		if p != k {
			for c := range n {
				lu[k*n+c], lu[p*n+c] = lu[p*n+c], lu[k*n+c]
			}
		}
		piv := lu[k*n+k]
		if piv == 0 {
			continue
		}
		inv := 1 / piv
		rowK := lu[k*n+k+1 : (k+1)*n]
		for r := k + 1; r < m; r++ {
			f := lu[r*n+k] * inv
			lu[r*n+k] = f
			row := lu[r*n+k+1 : (r+1)*n]
			for c, x := range rowK {
				row[c] -= f * x
			}
		}
	}
	for i := range perm {
		perm[i] = i
	}
	for i, p := range pivots {
		perm[i], perm[p] = perm[p], perm[i]
	}
}

// triangularSolveComplex solves op(a)·x = b (left_side) or x·op(a) = b,
// op transposing and/or conjugating a.
func triangularSolveComplex(j *matrixJob) {
	a, b, x := j.in[0], j.in[1], j.out[0]
	n := a.rows
	lower := j.params.Bool("lower")
	transpose, conjugate := j.params.Bool("transpose_a"), j.params.Bool("conjugate_a")
	unit := j.params.Bool("unit_diagonal")
	// t = op(a), and for a right-side solve its transpose, so that every
	// case is a left-side solve t·y = rhs.
	left := j.params.Bool("left_side")
	t := make([]complex128, n*n)
	swap := transpose != !left // the stored triangle ends up transposed
	for r := range n {
		for c := range n {
			if (lower && c > r) || (!lower && c < r) {
				continue
			}
			v := a.c[r*n+c]
			if conjugate {
				v = cmplx.Conj(v)
			}
			if swap {
				t[c*n+r] = v
			} else {
				t[r*n+c] = v
			}
		}
	}
	if swap {
		lower = !lower
	}
	rows, cols := x.rows, x.cols
	y := x.c
	if left {
		copy(y, b.c)
	} else { // y = bᵀ, cols×rows
		y = make([]complex128, rows*cols)
		for r := range rows {
			for c := range cols {
				y[c*rows+r] = b.c[r*cols+c]
			}
		}
		rows, cols = cols, rows
	}
	solveTriangular(t, n, lower, unit, y, cols)
	if !left {
		for r := range rows {
			for c := range cols {
				x.c[c*rows+r] = y[r*cols+c]
			}
		}
	}
}

// solveTriangular overwrites y (n×k) with t⁻¹·y, t n×n lower or upper
// triangular (its diagonal taken as ones when unit).
func solveTriangular(t []complex128, n int, lower, unit bool, y []complex128, k int) {
	step := func(r, lo, hi int) { // row r, the solved rows lo..hi-1
		row := y[r*k : (r+1)*k]
		for c := lo; c < hi; c++ {
			f := t[r*n+c]
			if f == 0 {
				continue
			}
			for i, v := range y[c*k : (c+1)*k] {
				row[i] -= f * v
			}
		}
		if !unit {
			inv := 1 / t[r*n+r]
			for i := range row {
				row[i] *= inv
			}
		}
	}
	if lower {
		for r := range n {
			step(r, 0, r)
		}
		return
	}
	for r := n - 1; r >= 0; r-- {
		step(r, r+1, n)
	}
}

// qrComplex: Householder QR as zgeqrf/zungqr compute it; R's diagonal is
// real.
func qrComplex(j *matrixJob) {
	a, q, r := j.in[0], j.out[0], j.out[1]
	m, n := a.rows, a.cols
	k, kq := min(m, n), q.cols
	f := append([]complex128(nil), a.c...)
	taus := make([]complex128, k)
	scratch := make([]complex128, max(m, n))
	for i := range k {
		tau, beta := reflector(f[i*n+i:], m-i, n)
		taus[i] = tau
		v := column(f, n, i, i, m-i, make([]complex128, m-i))
		applyLeft(cmplx.Conj(tau), v, f, n, i, i+1, m-i, n-i-1, scratch)
		f[i*n+i] = complex(beta, 0)
	}
	clear(r.c)
	for i := range r.rows {
		for c := i; c < n && i < m; c++ {
			r.c[i*n+c] = f[i*n+c]
		}
	}
	formQ(f, n, m, kq, taus, q.c)
}

// formQ writes the first kq columns of H₀·H₁·…·H_{k-1} into q (m×kq),
// reflector i stored below the diagonal of column i of f (leading
// dimension ld, v[0] = 1 implied), as zungqr does: backwards on the
// identity.
func formQ(f []complex128, ld, m, kq int, taus []complex128, q []complex128) {
	clear(q)
	for i := range min(m, kq) {
		q[i*kq+i] = 1
	}
	v := make([]complex128, m)
	scratch := make([]complex128, kq)
	for i := len(taus) - 1; i >= 0; i-- {
		vi := v[:m-i]
		vi[0] = 1
		for r := 1; r < m-i; r++ {
			vi[r] = f[(i+r)*ld+i]
		}
		applyLeft(taus[i], vi, q, kq, i, i, m-i, kq-i, scratch)
	}
}
