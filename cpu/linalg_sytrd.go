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
// pool, with vector kernels (linalg_rot_amd64.s).

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
			rowDots(a[base+lo*n:], n, v, yk[lo:hi])
			for i := lo; i < hi; i++ {
				yk[i] *= tau
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
	accumulateReflectors(reflectorRows{v: vs, ld: n, tau: taus[:n-1], shift: 1}, q, n, n, n)
}

// reflectorBlock is how many reflectors accumulateReflectors applies with
// one pair of matrix products.
const reflectorBlock = 32

// reflectorRows are Householder reflectors H_k = I - τ_k·v_k·v_kᵀ, one per
// row: v_k is row k of v (stride ld), zero before index k+shift, 1 there.
type reflectorRows struct {
	v     []float64
	ld    int
	tau   []float64
	shift int
}

// accumulateReflectors sets q (rows×cols, stride ldq) to the first cols
// columns of H₀·H₁·…, backwards on the identity as LAPACK's dorgtr and
// dorgqr do — but a block of reflectors at a time in the compact WY form
// H_k0·…·H_k1-1 = I - V·T·Vᵀ (T upper triangular, LAPACK's dlarft),
// applied as two matrix products through the float64 kernel:
// Q' -= V·(T·(Vᵀ·Q')). Block k0 changes only rows and columns k0+shift..
// of the product so far.
func accumulateReflectors(h reflectorRows, q []float64, rows, cols, ldq int) {
	for i := range rows {
		clear(q[i*ldq : i*ldq+cols])
		if i < cols {
			q[i*ldq+i] = 1
		}
	}
	count := len(h.tau)
	if count == 0 {
		return
	}
	t := make([]float64, reflectorBlock*reflectorBlock)
	z := make([]float64, reflectorBlock)
	w := make([]float64, reflectorBlock*cols)
	for k0 := (count - 1) / reflectorBlock * reflectorBlock; k0 >= 0; k0 -= reflectorBlock {
		k1 := min(k0+reflectorBlock, count)
		first := k0 + h.shift // the block's first row and column
		b, m, n := k1-k0, rows-first, cols-first
		if m <= 0 || n <= 0 {
			continue
		}
		v := func(i int) []float64 { return h.v[(k0+i)*h.ld+first : (k0+i)*h.ld+rows] } // zero before index i
		// T: column i is τ_i·e_i above -τ_i·T[:i,:i]·(V[:, :i]ᵀ·v_i).
		for i := range b {
			tau := h.tau[k0+i]
			vi := v(i)[i:]
			for j := range i {
				z[j] = -tau * dotRow(v(j)[i:], vi)
			}
			for r := range i {
				s := 0.0
				for c := r; c < i; c++ {
					s += t[r*reflectorBlock+c] * z[c]
				}
				t[r*reflectorBlock+i] = s
			}
			t[i*reflectorBlock+i] = tau
		}
		// W = -Vᵀ·Q', then T·(Vᵀ·Q') = -T·W in place from the top row
		// down (row r reads rows r.. only), then Q' -= V·(T·Vᵀ·Q').
		wb := w[:b*n]
		clear(wb)
		qs := q[first*ldq+first:]
		vs := h.v[k0*h.ld+first:]
		productUpdate{m: b, n: n, k: m, a: vs, lda: h.ld, b: qs, ldb: ldq, c: wb, ldc: n}.run(true)
		for r := range b {
			row := wb[r*n : (r+1)*n]
			d := -t[r*reflectorBlock+r]
			for c := range row {
				row[c] *= d
			}
			for c := r + 1; c < b; c++ {
				if tc := t[r*reflectorBlock+c]; tc != 0 {
					axpyRow(row, wb[c*n:(c+1)*n], -tc)
				}
			}
		}
		productUpdate{m: m, n: n, k: b, a: vs, lda: h.ld, aTransposed: true, b: wb, ldb: n, c: qs, ldc: ldq}.run(true)
	}
}

// rank2RowGo is rank2Row's portable loop, the assembly's operations in
// the same order.
func rank2RowGo(row, v, w []float64, vi, wi float64) {
	for j := range row {
		row[j] -= vi*w[j] + wi*v[j]
	}
}

// rowDotsGo is rowDots' portable loop.
func rowDotsGo(a []float64, ld int, v, out []float64) {
	for i := range out {
		out[i] = dotRow(a[i*ld:i*ld+len(v)], v)
	}
}
