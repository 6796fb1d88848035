package cpu

import (
	"math/cmplx"

	"gonum.org/v1/gonum/blas"
)

// The complex eigenvalue and singular value kernels. eigh and svd reduce
// the matrix by unitary reflectors to a real tridiagonal or bidiagonal
// one (the reflectors leave real off-diagonals, as zhetrd and zgebrd do),
// whose real problem gonum solves (Dsteqr, Dbdsqr); the vectors are the
// reflectors' product times the real ones. eig has no real reduction: a
// Hessenberg reduction, then the single-shift complex QR algorithm to the
// Schur form T = Zᴴ·H·Z, and eigenvectors by back substitution in T.

// eighComplex: eigenvalues ascending (real) and unit eigenvectors of a
// Hermitian matrix, read from its lower or upper triangle.
func eighComplex(j *matrixJob) {
	a, v, w := j.in[0], j.out[0].c, j.out[1].f
	n := a.rows
	if n == 0 {
		return
	}
	h := make([]complex128, n*n)
	lower := j.params.Bool("lower")
	for r := range n {
		for c := range n {
			switch {
			case r == c:
				h[r*n+c] = complex(real(a.c[r*n+c]), 0)
			case (r > c) == lower:
				h[r*n+c] = a.c[r*n+c]
				h[c*n+r] = cmplx.Conj(a.c[r*n+c])
			}
		}
	}
	d, e := w, make([]float64, max(0, n-1))
	taus := make([]complex128, max(0, n-1))
	y, vec := make([]complex128, n), make([]complex128, n)
	for k := 0; k+1 < n; k++ {
		// Hᴴ·B·H for the trailing B, with H from column k below the
		// diagonal: B - w·vᴴ - v·wᴴ, w = τ·B·v - ½|τ|²(vᴴ·B·v)·v.
		m := n - k - 1
		tau, beta := reflector(h[(k+1)*n+k:], m, n)
		v := column(h, n, k+1, k, m, vec)
		taus[k], e[k] = tau, beta
		if tau == 0 {
			continue
		}
		var vBv float64
		for r := range m {
			var s complex128
			row := h[(k+1+r)*n+k+1 : (k+2+r)*n]
			for c, x := range row {
				s += x * v[c]
			}
			y[r] = s
			vBv += real(cmplx.Conj(v[r]) * s)
		}
		t2 := (real(tau)*real(tau) + imag(tau)*imag(tau)) * vBv / 2
		for r := range m {
			y[r] = tau*y[r] - complex(t2, 0)*v[r]
		}
		for r := range m {
			row := h[(k+1+r)*n+k+1 : (k+2+r)*n]
			wr, vr := y[r], v[r]
			for c := range row {
				row[c] -= wr*cmplx.Conj(v[c]) + vr*cmplx.Conj(y[c])
			}
		}
	}
	for k := range n {
		d[k] = real(h[k*n+k])
	}
	z := make([]float64, n*n)
	if !symTridiagEigen(d, e, z) {
		fillNaN(w)
		fillComplexNaN(v)
		return
	}
	// The reflectors' product Q (reflector k lives in column k below the
	// subdiagonal), then V = Q·Z.
	q := make([]complex128, n*n)
	sub := make([]complex128, n*n)
	for k := 0; k+1 < n; k++ {
		for r := k + 1; r < n; r++ {
			sub[r*n+k] = h[r*n+k]
		}
	}
	formQShifted(sub, n, taus, q)
	complexTimesReal(q, z, n, n, n, v)
}

// formQShifted is formQ for reflectors that start one row below the
// diagonal (reflector k in column k from row k+1): the n×n product
// H₀·…·H_{n-2}, the identity on the first row and column.
func formQShifted(f []complex128, n int, taus []complex128, q []complex128) {
	clear(q)
	q[0] = 1
	if n == 1 {
		return
	}
	// The reflectors of the trailing (n-1)×(n-1) block, as formQ reads them.
	g := make([]complex128, (n-1)*(n-1))
	for r := 1; r < n; r++ {
		for c := 0; c+1 < n; c++ {
			g[(r-1)*(n-1)+c] = f[r*n+c]
		}
	}
	inner := make([]complex128, (n-1)*(n-1))
	formQ(g, n-1, n-1, n-1, taus, inner)
	for r := 1; r < n; r++ {
		copy(q[r*n+1:(r+1)*n], inner[(r-1)*(n-1):r*(n-1)])
	}
}

// complexTimesReal sets out (m×n) = a (m×k, complex) · b (k×n, real).
func complexTimesReal(a []complex128, b []float64, m, k, n int, out []complex128) {
	clear(out[:m*n])
	for r := range m {
		row := out[r*n : (r+1)*n]
		for i, x := range a[r*k : (r+1)*k] {
			if x == 0 {
				continue
			}
			xr, xi := real(x), imag(x)
			for c, y := range b[i*n : (i+1)*n] {
				row[c] += complex(xr*y, xi*y)
			}
		}
	}
}

// svdComplex: singular values descending and, with compute_uv, u and vh
// with a = u·diag(s)·vh.
func svdComplex(j *matrixJob) {
	a := j.in[0]
	m, n := a.rows, a.cols
	s := j.out[0].f
	uv := len(j.out) == 3
	if min(m, n) == 0 {
		if uv {
			for _, o := range j.out[1:] {
				clear(o.c)
				for i := range min(o.rows, o.cols) {
					o.c[i*o.cols+i] = 1
				}
			}
		}
		return
	}
	if m >= n {
		var u, vh *matrix
		if uv {
			u, vh = &j.out[1], &j.out[2]
		}
		if !svdTall(a.c, m, n, s, u, vh) {
			fillSVDNaN(j)
		}
		return
	}
	// a = (aᴴ)ᴴ: the SVD of the tall aᴴ = u'·s·vh' gives u = vh'ᴴ and
	// vh = u'ᴴ.
	at := make([]complex128, n*m)
	for r := range m {
		for c := range n {
			at[c*m+r] = cmplx.Conj(a.c[r*n+c])
		}
	}
	if !uv {
		if !svdTall(at, n, m, s, nil, nil) {
			fillSVDNaN(j)
		}
		return
	}
	u, vh := j.out[1], j.out[2]
	u2 := matrix{rows: n, cols: vh.rows, c: make([]complex128, n*vh.rows)}
	vh2 := matrix{rows: m, cols: m, c: make([]complex128, m*m)}
	if !svdTall(at, n, m, s, &u2, &vh2) {
		fillSVDNaN(j)
		return
	}
	conjTranspose(vh2.c, m, m, u.c)
	conjTranspose(u2.c, n, vh.rows, vh.c)
}

func fillSVDNaN(j *matrixJob) {
	fillNaN(j.out[0].f)
	for _, o := range j.out[1:] {
		fillComplexNaN(o.c)
	}
}

// conjTranspose writes aᴴ (cols×rows) into out.
func conjTranspose(a []complex128, rows, cols int, out []complex128) {
	for r := range rows {
		for c := range cols {
			out[c*rows+r] = cmplx.Conj(a[r*cols+c])
		}
	}
}

// svdTall is the SVD of an m×n matrix with m ≥ n: bidiagonalization
// a = Q_L·B·Q_Rᴴ by reflectors alternating from the left (columns) and
// right (rows), B real upper bidiagonal, then B = U_B·S·V_Bᵀ by Dbdsqr.
// u (m×n or m×m) and vh (n×n) are nil when not asked for.
func svdTall(a []complex128, m, n int, s []float64, u, vh *matrix) bool {
	f := append([]complex128(nil), a...)
	d, e := s, make([]float64, max(0, n-1))
	tauL, tauR := make([]complex128, n), make([]complex128, max(0, n-1))
	vecL, vecR := make([]complex128, m), make([]complex128, n)
	scratch := make([]complex128, max(m, n))
	vR := make([]complex128, n*n) // the right reflectors, row k from column k+1
	for k := range n {
		tau, beta := reflector(f[k*n+k:], m-k, n)
		v := column(f, n, k, k, m-k, vecL)
		applyLeft(cmplx.Conj(tau), v, f, n, k, k+1, m-k, n-k-1, scratch)
		tauL[k], d[k] = tau, beta
		if k+1 >= n {
			continue
		}
		// The row right of the diagonal, conjugated, is a column whose
		// reflector H satisfies row·H = β·e₁ᵀ.
		row := f[k*n+k+1 : (k+1)*n]
		for i := range row {
			row[i] = cmplx.Conj(row[i])
		}
		tau, beta = reflector(row, n-k-1, 1)
		vr := vecR[:n-k-1]
		copy(vr, row)
		copy(vR[k*n+k+1:(k+1)*n], row)
		applyRight(tau, vr, f, n, k+1, k+1, m-k-1, n-k-1)
		tauR[k], e[k] = tau, beta
	}
	if u == nil {
		return lapackImpl.Dbdsqr(blas.Upper, n, 0, 0, 0, d, e, nil, 1, nil, 1, nil, 1, make([]float64, 4*n))
	}
	ub, vtb := make([]float64, n*n), make([]float64, n*n)
	for i := range n {
		ub[i*n+i], vtb[i*n+i] = 1, 1
	}
	if !lapackImpl.Dbdsqr(blas.Upper, n, n, n, 0, d, e, vtb, n, ub, n, nil, 1, make([]float64, 4*n)) {
		return false
	}
	// u = Q_L·diag(U_B, I): the reflectors applied backwards to that
	// block matrix.
	ku := u.cols
	clear(u.c)
	for r := range n {
		for c := range n {
			u.c[r*ku+c] = complex(ub[r*n+c], 0)
		}
	}
	for i := n; i < ku; i++ {
		u.c[i*ku+i] = 1
	}
	sc := make([]complex128, ku)
	for k := n - 1; k >= 0; k-- {
		v := vecL[:m-k]
		v[0] = 1
		for r := 1; r < m-k; r++ {
			v[r] = f[(k+r)*n+k]
		}
		applyLeft(tauL[k], v, u.c, ku, k, 0, m-k, ku, sc)
	}
	// vh = V_Bᵀ·Q_Rᴴ = (Q_R·V_B)ᴴ.
	w := make([]complex128, n*n)
	for r := range n {
		for c := range n {
			w[r*n+c] = complex(vtb[c*n+r], 0)
		}
	}
	for k := n - 2; k >= 0; k-- {
		v := vecR[:n-k-1]
		copy(v, vR[k*n+k+1:(k+1)*n])
		applyLeft(tauR[k], v, w, n, k+1, 0, n-k-1, n, sc)
	}
	conjTranspose(w, n, n, vh.c)
	return true
}

// eigComplex: the eigenvalues of a general complex matrix, in the order
// the Schur form leaves them, and unit left and right eigenvectors with
// their largest component real (as zgeev normalizes them).
func eigComplex(j *matrixJob) {
	a := j.in[0]
	n := a.rows
	if n == 0 {
		return
	}
	// Hessenberg reduction h = Qᴴ·a·Q, reflector k acting on rows and
	// columns k+1.. (kept in vs, row k from column k+1).
	h := append([]complex128(nil), a.c...)
	taus := make([]complex128, n)
	vs := make([]complex128, n*n)
	scratch := make([]complex128, n)
	for k := 0; k+2 < n; k++ {
		m := n - k - 1
		tau, beta := reflector(h[(k+1)*n+k:], m, n)
		v := column(h, n, k+1, k, m, vs[k*n+k+1:(k+1)*n])
		taus[k] = tau
		h[(k+1)*n+k] = complex(beta, 0)
		for r := k + 2; r < n; r++ {
			h[r*n+k] = 0
		}
		applyLeft(cmplx.Conj(tau), v, h, n, k+1, k+1, m, m, scratch)
		applyRight(tau, v, h, n, 0, k+1, n, m)
	}
	z := make([]complex128, n*n)
	for i := range n {
		z[i*n+i] = 1
	}
	for k := n - 3; k >= 0; k-- {
		applyLeft(taus[k], vs[k*n+k+1:(k+1)*n], z, n, k+1, 0, n-k-1, n, scratch)
	}
	w := j.out[0].c
	if !schurQR(h, z, n, w) {
		fillComplexNaN(w)
		for _, o := range j.out[1:] {
			fillComplexNaN(o.c)
		}
		return
	}
	next := 1
	if j.params.Bool("compute_left_eigenvectors") {
		eigenvectors(h, z, n, true, j.out[next].c)
		next++
	}
	if j.params.Bool("compute_right_eigenvectors") {
		eigenvectors(h, z, n, false, j.out[next].c)
	}
}
