package cpu

import (
	"math"
	"slices"
)

// The SVD of a real upper bidiagonal matrix by implicit-shift QR sweeps
// (Golub and Reinsch's algorithm, as EISPACK's svd runs it), for svd with
// singular vectors. Like the tridiagonal QL iteration (linalg_tridiag.go)
// it records each sweep's rotations and applies them to U and V
// afterwards in panels, instead of rotating strided columns as it goes
// (gonum's Dbdsqr: two thirds of a 512×512 SVD, RATIONALE.md). A sweep
// here chases down the matrix, rotating columns (j, j+1) for j rising;
// the panel kernel runs i falling, so U and V are held with their
// columns reversed while the plans apply.

// bidiagSVD computes B = U_B·diag(s)·V_Bᵀ for the n×n upper bidiagonal B
// with diagonal d and superdiagonal e (e[i] couples i and i+1; both
// destroyed), and applies it to u (rows×n, leading dimension ldu) and v
// (n×n): u ← u·U_B, v ← v·V_B; d ends as s, descending and nonnegative.
// False when a singular value takes more than 75 sweeps.
func bidiagSVD(d, e []float64, u []float64, rows, ldu int, v []float64) bool {
	n := len(d)
	const eps = 0x1p-52
	// f[i] is the superdiagonal element above d[i]; f[0] = 0.
	f := make([]float64, n)
	copy(f[1:], e)
	norm := 0.0
	for i := range n {
		norm = math.Max(norm, math.Abs(d[i])+math.Abs(f[i]))
	}
	tiny := eps * norm
	ur, vr := reversedColumns(u, rows, n, ldu), reversedColumns(v, n, n, n)
	planU, planV := newRotationPlan(), newRotationPlan()
	defer planU.release()
	defer planV.release()
	// record appends the rotation of columns (j, j+1) to the sweep that
	// runs from column lo, in the reversed numbering.
	startSweep := func(p *rotationPlan, l, k int) {
		p.sweeps = append(p.sweeps, rotationSweep{lo: n - 1 - k, hi: n - 1 - l, off: len(p.cs)})
	}
	negate := make([]bool, n)
	for k := n - 1; k >= 0; k-- {
		for iter := 0; ; iter++ {
			// The block l..k: f[l] negligible (it splits), or d[l-1]
			// negligible (then f[l] is chased out along row l-1).
			l, split := k, false
			for ; l >= 0; l-- {
				if l == 0 || math.Abs(f[l]) <= tiny { // f[0] is 0 (even when tiny is NaN)
					split = true
					break
				}
				if math.Abs(d[l-1]) <= tiny {
					break
				}
			}
			if !split {
				// Rotations of U's columns (l-1, i), not neighbours: the
				// recorded ones go first, then these, one by one.
				planU.apply(ur, rows, n)
				planU.reset()
				c, s := 0.0, 1.0
				for i := l; i <= k; i++ {
					g := s * f[i]
					f[i] *= c
					if math.Abs(g) <= tiny {
						break
					}
					h := math.Hypot(g, d[i])
					c, s = d[i]/h, -g/h
					d[i] = h
					rotatePair(ur, rows, n, n-1-(l-1), n-1-i, c, s)
				}
			}
			z := d[k]
			if l == k {
				if z < 0 {
					d[k] = -z
					negate[k] = true
				}
				break
			}
			if iter == 75 {
				return false
			}
			// The shift from the trailing 2×2 block, then one sweep.
			x, y := d[l], d[k-1]
			g, h := f[k-1], f[k]
			ff := ((y-z)*(y+z) + (g-h)*(g+h)) / (2 * h * y)
			g = math.Hypot(ff, 1)
			ff = ((x-z)*(x+z) + h*(y/(ff+math.Copysign(g, ff))-h)) / x
			c, s := 1.0, 1.0
			startSweep(planU, l, k)
			startSweep(planV, l, k)
			for j := l; j < k; j++ {
				i := j + 1
				g, y = f[i], d[i]
				h, g = s*g, c*g
				z = math.Hypot(ff, h)
				f[j] = z
				c, s = ff/z, h/z
				ff, g = x*c+g*s, g*c-x*s
				h, y = y*s, y*c
				planV.cs = append(planV.cs, c, s)
				z = math.Hypot(ff, h)
				d[j] = z
				if z != 0 {
					c, s = ff/z, h/z
				}
				ff, x = c*g+s*y, c*y-s*g
				planU.cs = append(planU.cs, c, s)
			}
			f[l], f[k], d[k] = 0, ff, x
		}
	}
	planU.apply(ur, rows, n)
	planV.apply(vr, n, n)
	for k, neg := range negate {
		if neg {
			for r := range n {
				vr[r*n+n-1-k] = -vr[r*n+n-1-k]
			}
		}
	}
	// Descending singular values, the columns following.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case d[a] > d[b]:
			return -1
		case d[a] < d[b]:
			return 1
		}
		return 0
	})
	s := make([]float64, n)
	for j, o := range order {
		s[j] = d[o]
	}
	copy(d, s)
	unreverse := func(dst, src []float64, rows, ld int) {
		for r := range rows {
			for j, o := range order {
				dst[r*ld+j] = src[r*n+n-1-o]
			}
		}
	}
	unreverse(u, ur, rows, ldu)
	unreverse(v, vr, n, n)
	return true
}

// reversedColumns copies the first n columns of a (rows × ld) into a
// rows×n matrix with their order reversed.
func reversedColumns(a []float64, rows, n, ld int) []float64 {
	out := make([]float64, rows*n)
	for r := range rows {
		for j := range n {
			out[r*n+n-1-j] = a[r*ld+j]
		}
	}
	return out
}

// rotatePair rotates columns p and q of a (rows×n): (x, y) ←
// (x·c + y·s, y·c - x·s).
func rotatePair(a []float64, rows, n, p, q int, c, s float64) {
	for r := range rows {
		x, y := a[r*n+p], a[r*n+q]
		a[r*n+p], a[r*n+q] = x*c+y*s, y*c-x*s
	}
}
