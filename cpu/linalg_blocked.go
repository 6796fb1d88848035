package cpu

import "math"

// Blocked Cholesky, LU and triangular solves on row-major float64
// matrices, in place of gonum's Dpotrf, Dgetrf and Dtrsm, whose trailing
// updates run through gonum's pure-Go Dgemm: a 512×512 solve spent most
// of its time there (RATIONALE.md). Each is LAPACK's right-looking
// scheme: a panel of nb columns factored by the unblocked algorithm, then
// the rest of the matrix updated with one matrix product through the
// float64 micro-kernel of dot_general (linalg_update.go), shared over
// the pool. Only the arrangement of the work differs from the unblocked
// algorithms, so results agree with them to rounding.

// Panel widths: wide enough that the kernel's inner loop is long next to
// its loads and stores of C, narrow enough that the unblocked panel work
// (row-sized axpys and dot products) stays a small share.
const (
	choleskyBlock    = 64
	choleskySubBlock = 16 // columns of L21 solved by dot products between products
	luBlock          = 48
	luSubBlock       = 16 // rows of U12 solved by substitution between products
	luPanelLeaf      = 8  // panel columns factored column by column
	trsmBlock        = 64
)

// choleskyLower factors the symmetric positive definite a (n×n, lower
// triangle read) in place into L with A = L·Lᵀ, leaving the strict upper
// triangle unspecified; false when a is not positive definite (a pivot
// is ≤ 0 or NaN).
func choleskyLower(a []float64, n int) bool {
	for k0 := 0; k0 < n; k0 += choleskyBlock {
		k1 := min(k0+choleskyBlock, n)
		if !choleskyDiagonalBlock(a, n, k0, k1) {
			return false
		}
		if k1 == n {
			break
		}
		// L21 = A21·L11⁻ᵀ: each row below solves x·L11ᵀ = a forwards, a
		// few columns at a time by dot products, each group then
		// subtracted from the columns after it with a matrix product, so
		// that most of the work runs in the kernel.
		const rowsPerTask = 48
		pool.parallelFor(nil, ceilDiv(n-k1, rowsPerTask), 1, func(lo, hi int) {
			r0, r1 := k1+lo*rowsPerTask, min(n, k1+hi*rowsPerTask)
			for c0 := 0; c0 < k1-k0; c0 += choleskySubBlock {
				c1 := min(c0+choleskySubBlock, k1-k0)
				for i := r0; i < r1; i++ {
					row := a[i*n+k0 : i*n+k1]
					for j := c0; j < c1; j++ {
						lj := a[(k0+j)*n+k0 : (k0+j)*n+k0+j+1]
						row[j] = (row[j] - dotShort(row[c0:j], lj[c0:j])) / lj[j]
					}
				}
				if c1 < k1-k0 {
					productUpdate{m: r1 - r0, n: k1 - k0 - c1, k: c1 - c0,
						a: a[r0*n+k0+c0:], lda: n, b: a[(k0+c1)*n+k0+c0:], ldb: n, bTransposed: true,
						c: a[r0*n+k0+c1:], ldc: n}.run(false)
				}
			}
		})
		productUpdate{m: n - k1, n: n - k1, k: k1 - k0,
			a: a[k1*n+k0:], lda: n, b: a[k1*n+k0:], ldb: n, bTransposed: true,
			c: a[k1*n+k1:], ldc: n, lowerOnly: true}.run(true)
	}
	return true
}

// choleskyDiagonalBlock factors rows and columns [k0, k1) of a, whose
// earlier columns have already been subtracted, row by row (each entry a
// dot product of two rows of L).
func choleskyDiagonalBlock(a []float64, n, k0, k1 int) bool {
	for i := k0; i < k1; i++ {
		row := a[i*n+k0 : i*n+i+1]
		for j := range row {
			s := row[j] - dotRow(row[:j], a[(k0+j)*n+k0:(k0+j)*n+k0+j])
			if k0+j < i {
				row[j] = s / a[(k0+j)*n+k0+j]
				continue
			}
			if !(s > 0) {
				return false
			}
			row[j] = math.Sqrt(s)
		}
	}
	return true
}

// dotRow is Σ x[i]·y[i].
func dotRow(x, y []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return blasImpl.Ddot(len(x), x, 1, y[:len(x)], 1)
}

// dotShort is Σ x[i]·y[i] for a short x, where a call into an assembly
// loop would cost more than it saves.
func dotShort(x, y []float64) float64 {
	y = y[:len(x)]
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// luPartialPivot factors the m×n a in place into L\U with partial
// pivoting, as LAPACK's dgetrf: pivots[i] is the row swapped with row i
// at step i. A zero pivot leaves its column unscaled and the
// factorization goes on, as LAPACK's does.
func luPartialPivot(a []float64, m, n int, pivots []int) {
	steps := min(m, n)
	panel := make([]float64, min(luBlock, steps)*m)
	for k0 := 0; k0 < steps; k0 += luBlock {
		kb := min(luBlock, steps-k0)
		rows := m - k0
		// The panel's columns, transposed: each one contiguous, so the
		// pivot search and the column updates run along rows.
		p := panel[:kb*rows]
		for i := range rows {
			for c, v := range a[(k0+i)*n+k0 : (k0+i)*n+k0+kb] {
				p[c*rows+i] = v
			}
		}
		luPanel(p, kb, rows, 0, kb, pivots[k0:k0+kb])
		for i := range rows {
			dst := a[(k0+i)*n+k0 : (k0+i)*n+k0+kb]
			for c := range dst {
				dst[c] = p[c*rows+i]
			}
		}
		// The panel's row interchanges on the columns left and right of it.
		for j := range kb {
			pivots[k0+j] += k0
			if r := pivots[k0+j]; r != k0+j {
				x, y := a[(k0+j)*n:(k0+j+1)*n], a[r*n:(r+1)*n]
				for c := range k0 {
					x[c], y[c] = y[c], x[c]
				}
				for c := k0 + kb; c < n; c++ {
					x[c], y[c] = y[c], x[c]
				}
			}
		}
		c0 := k0 + kb
		if c0 == n {
			continue
		}
		// U12 = L11⁻¹·A12 (unit lower), by rows in groups, each group
		// then subtracted from the rows after it with a matrix product;
		// the groups' columns are shared out over the pool.
		const colsPerTask = 128
		pool.parallelFor(nil, ceilDiv(n-c0, colsPerTask), 1, func(lo, hi int) {
			j0, j1 := c0+lo*colsPerTask, min(n, c0+hi*colsPerTask)
			for s0 := 0; s0 < kb; s0 += luSubBlock {
				s1 := min(s0+luSubBlock, kb)
				for i := s0 + 1; i < s1; i++ {
					ri := a[(k0+i)*n+j0 : (k0+i)*n+j1]
					for j := s0; j < i; j++ {
						if l := a[(k0+i)*n+k0+j]; l != 0 {
							axpyRow(ri, a[(k0+j)*n+j0:(k0+j)*n+j1], -l)
						}
					}
				}
				if s1 < kb {
					productUpdate{m: kb - s1, n: j1 - j0, k: s1 - s0,
						a: a[(k0+s1)*n+k0+s0:], lda: n, b: a[(k0+s0)*n+j0:], ldb: n,
						c: a[(k0+s1)*n+j0:], ldc: n}.run(false)
				}
			}
		})
		if c0 == m {
			continue
		}
		productUpdate{m: m - c0, n: n - c0, k: kb,
			a: a[c0*n+k0:], lda: n, b: a[k0*n+c0:], ldb: n,
			c: a[c0*n+c0:], ldc: n}.run(true)
	}
}

// luPanel factors columns [c0, c1) of a rows×kb panel stored transposed
// (column c of the panel is p[c*rows:(c+1)*rows]), the columns before c0
// already factored, recursively as LAPACK's dgetrf2: the left half, then
// the right half's rows of U by substitution and the rest of it updated
// with a matrix product, then the right half. Row interchanges apply to
// the whole panel; pivots get panel-relative row indices.
func luPanel(p []float64, kb, rows, c0, c1 int, pivots []int) {
	if c1-c0 <= luPanelLeaf || c1 > rows {
		luPanelColumns(p, kb, rows, c0, c1, pivots)
		return
	}
	h := c0 + (c1-c0)/2
	luPanel(p, kb, rows, c0, h, pivots)
	for c := h; c < c1; c++ {
		// column c's rows [c0, h) = L11⁻¹ times themselves (unit lower;
		// L11's column q is row c0+q of p)
		x := p[c*rows+c0 : c*rows+h]
		for q, xq := range x {
			if xq != 0 {
				axpyRow(x[q+1:], p[(c0+q)*rows+c0+q+1:(c0+q)*rows+h], -xq)
			}
		}
	}
	productUpdate{m: c1 - h, n: rows - h, k: h - c0,
		a: p[h*rows+c0:], lda: rows, b: p[c0*rows+h:], ldb: rows,
		c: p[h*rows+h:], ldc: rows}.run(false)
	luPanel(p, kb, rows, h, c1, pivots)
}

// luPanelColumns is the unblocked LU with partial pivoting (LAPACK's
// dgetf2) of columns [c0, c1) of the transposed panel.
func luPanelColumns(p []float64, kb, rows, c0, c1 int, pivots []int) {
	const safeMin = 0x1p-1022
	for j := c0; j < c1 && j < rows; j++ {
		col := p[j*rows : (j+1)*rows]
		best, bestAbs := j, math.Abs(col[j])
		for i := j + 1; i < rows; i++ {
			if v := math.Abs(col[i]); v > bestAbs {
				best, bestAbs = i, v
			}
		}
		pivots[j] = best
		if col[best] != 0 {
			if best != j {
				for c := range kb {
					p[c*rows+j], p[c*rows+best] = p[c*rows+best], p[c*rows+j]
				}
			}
			below := col[j+1:]
			if pivot := col[j]; math.Abs(pivot) >= safeMin {
				r := 1 / pivot
				for i := range below {
					below[i] *= r
				}
			} else {
				for i := range below {
					below[i] /= pivot
				}
			}
		}
		for c := j + 1; c < c1; c++ {
			if w := p[c*rows+j]; w != 0 {
				axpyRow(p[c*rows+j+1:(c+1)*rows], col[j+1:], -w)
			}
		}
	}
}

// triangularSolveLeft solves T·X = B in place (x holds B: n×cols, row
// stride ldx) for the n×n triangular t (lower or upper, row-major), by
// blocks of rows: each diagonal block by substitution, then the rows
// still to be solved updated with one matrix product.
func triangularSolveLeft(t []float64, n int, lower, unit bool, x []float64, cols, ldx int) {
	if cols < 4 {
		triangularSolveColumns(t, n, lower, unit, x, cols, ldx)
		return
	}
	row := func(i int) []float64 { return x[i*ldx : i*ldx+cols] }
	solveRow := func(i, j0, j1 int) {
		xi := row(i)
		for j := j0; j < j1; j++ {
			if l := t[i*n+j]; l != 0 {
				axpyRow(xi, row(j), -l)
			}
		}
		if !unit {
			d := t[i*n+i]
			for c := range xi {
				xi[c] /= d
			}
		}
	}
	for b := 0; b < n; b += trsmBlock {
		if lower {
			i0, i1 := b, min(b+trsmBlock, n)
			for i := i0; i < i1; i++ {
				solveRow(i, i0, i)
			}
			if i1 == n {
				break
			}
			productUpdate{m: n - i1, n: cols, k: i1 - i0, a: t[i1*n+i0:], lda: n,
				b: x[i0*ldx:], ldb: ldx, c: x[i1*ldx:], ldc: ldx}.run(false)
			continue
		}
		i0, i1 := max(0, n-b-trsmBlock), n-b
		for i := i1 - 1; i >= i0; i-- {
			solveRow(i, i+1, i1)
		}
		productUpdate{m: i0, n: cols, k: i1 - i0, a: t[i0:], lda: n,
			b: x[i0*ldx:], ldb: ldx, c: x, ldc: ldx}.run(false)
	}
}

// triangularSolveColumns is the substitution for few right-hand sides:
// each unknown a dot product of a row of t with the solved ones.
func triangularSolveColumns(t []float64, n int, lower, unit bool, x []float64, cols, ldx int) {
	col := make([]float64, n)
	for c := range cols {
		for i := range n {
			col[i] = x[i*ldx+c]
		}
		for k := range n {
			i, j0, j1 := k, 0, k
			if !lower {
				i, j0, j1 = n-1-k, n-k, n
			}
			s := col[i] - dotRow(t[i*n+j0:i*n+j1], col[j0:j1])
			if !unit {
				s /= t[i*n+i]
			}
			col[i] = s
		}
		for i := range n {
			x[i*ldx+c] = col[i]
		}
	}
}
