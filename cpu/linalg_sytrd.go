package cpu

import "math"

// Householder reduction of a real symmetric matrix to tridiagonal form,
// T = Qᵀ·A·Q, for eigh. gonum's Dsytrd reads one triangle through its
// symmetric BLAS (Dsymv, Dsyr2k), written for column-major storage and
// slow on row-major rows: two thirds of a 512×512 eigh after the
// rotations were fixed (RATIONALE.md). Here the matrix is kept whole
// (both triangles), so every step is contiguous row work — a
// matrix-vector product as dot products of rows, then the symmetric
// rank-2 update as two axpys per row — shared out over rows across the
// pool, with vector kernels (linalg_rot_amd64.s, the dot products
// gonum's).

// realReflector makes H = I - τ·v·vᵀ with H·x = β·e₁ for x (len ≥ 1),
// overwriting x with v (v[0] = 1); τ = 0 when x is already β·e₁.
func realReflector(x []float64) (tau, beta float64) {
	alpha := x[0]
	x[0] = 1
	xnorm := blasImpl.Dnrm2(len(x)-1, x[1:], 1)
	if xnorm == 0 {
		return 0, alpha
	}
	beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	tau = (beta - alpha) / beta
	blasImpl.Dscal(len(x)-1, 1/(alpha-beta), x[1:], 1)
	return tau, beta
}

// rowGrain is how many rows of m columns make a pool task worth its
// dispatch.
func rowGrain(m int) int { return max(1, (1<<14)/max(1, m)) }

// tridiagonalize reduces the symmetric a (n×n, both triangles, destroyed)
// to the tridiagonal (d, e), e[i] coupling i and i+1, and writes Q into q
// (n×n).
func tridiagonalize(a []float64, n int, d, e, q []float64) {
	vs := make([]float64, n*n) // reflector k in row k from column k+1
	taus := make([]float64, n)
	y := make([]float64, n)
	for k := 0; k+1 < n; k++ {
		m := n - k - 1
		d[k] = a[k*n+k]
		x := a[k*n+k+1 : (k+1)*n] // column k below the diagonal, by symmetry
		tau, beta := realReflector(x)
		e[k], taus[k] = beta, tau
		v := vs[k*n+k+1 : (k+1)*n]
		copy(v, x)
		if tau == 0 {
			continue
		}
		// B ← H·B·H for the trailing B: B - v·wᵀ - w·vᵀ with y = τ·B·v
		// and w = y - ½τ(yᵀv)·v.
		base := (k+1)*n + k + 1
		yk := y[:m]
		pool.parallelFor(nil, m, rowGrain(m), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				yk[i] = tau * blasImpl.Ddot(m, a[base+i*n:base+i*n+m], 1, v, 1)
			}
		})
		alpha := -0.5 * tau * blasImpl.Ddot(m, yk, 1, v, 1)
		blasImpl.Daxpy(m, alpha, v, 1, yk, 1)
		pool.parallelFor(nil, m, rowGrain(m), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				rank2Row(a[base+i*n:base+i*n+m], v, yk, v[i], yk[i])
			}
		})
	}
	d[n-1] = a[n*n-1]
	// Q = H₀·H₁·…, accumulated backwards on the identity: reflector k
	// changes only rows and columns k+1.. of the product so far.
	clear(q)
	for i := range n {
		q[i*n+i] = 1
	}
	w := make([]float64, n)
	for k := n - 2; k >= 0; k-- {
		tau := taus[k]
		if tau == 0 {
			continue
		}
		m := n - k - 1
		v := vs[k*n+k+1 : (k+1)*n]
		base := (k+1)*n + k + 1
		wk := w[:m]
		// wᵀ = vᵀ·Q', by columns shared out, then Q' -= τ·v·wᵀ by rows.
		pool.parallelFor(nil, m, rowGrain(m), func(lo, hi int) {
			clear(wk[lo:hi])
			for i := range m {
				if v[i] != 0 {
					axpyRow(wk[lo:hi], q[base+i*n+lo:base+i*n+hi], v[i])
				}
			}
		})
		pool.parallelFor(nil, m, rowGrain(m), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				axpyRow(q[base+i*n:base+i*n+m], wk, -tau*v[i])
			}
		})
	}
}

// rank2RowGo is rank2Row's portable loop, the assembly's operations in
// the same order.
func rank2RowGo(row, v, w []float64, vi, wi float64) {
	for j := range row {
		row[j] -= vi*w[j] + wi*v[j]
	}
}
