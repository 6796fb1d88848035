package cpu

import (
	"math"
	"slices"
)

// The symmetric tridiagonal eigenproblem for eigh: the implicit QL
// algorithm with Wilkinson-like shifts (the tql2 procedure of the
// Handbook for Automatic Computation, as EISPACK and Dsteqr run it), with
// one difference in how eigenvectors are made. Dsteqr applies each
// sweep's rotations to the n×n eigenvector matrix as it goes, column pair
// by column pair (gonum's Dlasr: 90% of a 512×512 eigh, RATIONALE.md).
// The rotations depend only on the tridiagonal matrix, so here the
// iteration records them and they are applied afterwards, row by row:
// each row of V takes the whole sequence while it stays in L1, several
// rows at once to keep the multiply-add chains busy, the rows split
// across the pool's workers.

// A rotationPlan is a recorded sequence of QL sweeps. Sweep k rotates
// columns (i, i+1) for i = hi-1 down to lo, with cosines and sines
// cs[off+2j], cs[off+2j+1] for i = hi-1-j.
type rotationPlan struct {
	sweeps []rotationSweep
	cs     []float64
}

type rotationSweep struct{ lo, hi, off int }

// tridiagQL overwrites d (n) with the eigenvalues, unsorted, of the
// symmetric tridiagonal matrix with diagonal d and off-diagonal e
// (e[i] couples i and i+1; e has n-1 elements, destroyed), recording
// the rotations in plan when it is not nil. False when an eigenvalue
// takes more than 30 sweeps.
func tridiagQL(d, e []float64, plan *rotationPlan) bool {
	n := len(d)
	if n == 0 {
		return true
	}
	const eps = 0x1p-52
	off := make([]float64, n) // e with a zero after the last element
	copy(off, e)
	shift, norm := 0.0, 0.0
	for l := range n {
		norm = math.Max(norm, math.Abs(d[l])+math.Abs(off[l]))
		m := l
		for m < n-1 && math.Abs(off[m]) > eps*norm {
			m++
		}
		for iter := 0; m > l; iter++ {
			if iter == 30 {
				return false
			}
			// The shift: the eigenvalue of the leading 2×2 block nearer
			// d[l]; every later diagonal element moves by it.
			g := d[l]
			p := (d[l+1] - g) / (2 * off[l])
			r := math.Copysign(math.Hypot(p, 1), p)
			d[l] = off[l] / (p + r)
			d[l+1] = off[l] * (p + r)
			dl1 := d[l+1]
			h := g - d[l]
			for i := l + 2; i < n; i++ {
				d[i] -= h
			}
			shift += h
			// One implicit QL sweep from m up to l.
			p = d[m]
			c, c2, c3 := 1.0, 1.0, 1.0
			el1 := off[l+1]
			s, s2 := 0.0, 0.0
			if plan != nil {
				plan.sweeps = append(plan.sweeps, rotationSweep{lo: l, hi: m, off: len(plan.cs)})
			}
			for i := m - 1; i >= l; i-- {
				c3, c2, s2 = c2, c, s
				g = c * off[i]
				h = c * p
				r = math.Hypot(p, off[i])
				off[i+1] = s * r
				s = off[i] / r
				c = p / r
				p = c*d[i] - s*g
				d[i+1] = h + s*(c*g+s*d[i])
				if plan != nil {
					plan.cs = append(plan.cs, c, s)
				}
			}
			p = -s * s2 * c3 * el1 * off[l] / dl1
			off[l] = s * p
			d[l] = c * p
			if math.Abs(off[l]) <= eps*norm {
				break
			}
		}
		d[l] += shift
		off[l] = 0
	}
	return true
}

// apply rotates the rows of v (rows × ld, the first hi columns used) by
// the plan: v ← v·R₁·R₂·… for the recorded rotations in order.
func (p *rotationPlan) apply(v []float64, rows, ld int) {
	if len(p.cs) == 0 {
		return
	}
	pool.parallelFor(nil, rows, 32, func(lo, hi int) {
		// Sweeps in chunks whose rotations stay in L2 while every row
		// block of this range takes them.
		const chunkFloats = 1 << 15
		for first := 0; first < len(p.sweeps); {
			last := first + 1
			for last < len(p.sweeps) && p.sweeps[last].off-p.sweeps[first].off < chunkFloats {
				last++
			}
			sweeps := p.sweeps[first:last]
			r := lo
			for ; r+4 <= hi; r += 4 {
				p.apply4(sweeps, v[r*ld:(r+1)*ld], v[(r+1)*ld:(r+2)*ld], v[(r+2)*ld:(r+3)*ld], v[(r+3)*ld:(r+4)*ld])
			}
			for ; r < hi; r++ {
				p.apply1(sweeps, v[r*ld:(r+1)*ld])
			}
			first = last
		}
	})
}

// apply1 and apply4 run the sweeps on one row or four. Rotation i mixes
// elements i and i+1: (x, y) ← (c·x - s·y, s·x + c·y); within a sweep the
// new element i is the next rotation's y, so it stays in a register.
func (p *rotationPlan) apply1(sweeps []rotationSweep, a []float64) {
	for _, sw := range sweeps {
		cs := p.cs[sw.off : sw.off+2*(sw.hi-sw.lo)]
		t := a[sw.hi]
		for k, i := 0, sw.hi-1; i >= sw.lo; k, i = k+2, i-1 {
			c, s := cs[k], cs[k+1]
			x := a[i]
			a[i+1] = s*x + c*t
			t = c*x - s*t
		}
		a[sw.lo] = t
	}
}

func (p *rotationPlan) apply4(sweeps []rotationSweep, a, b, c4, d []float64) {
	for _, sw := range sweeps {
		cs := p.cs[sw.off : sw.off+2*(sw.hi-sw.lo)]
		hi, lo := sw.hi, sw.lo
		a, b, c4, d := a[:hi+1], b[:hi+1], c4[:hi+1], d[:hi+1]
		ta, tb, tc, td := a[hi], b[hi], c4[hi], d[hi]
		for k, i := 0, hi-1; i >= lo; k, i = k+2, i-1 {
			c, s := cs[k], cs[k+1]
			xa, xb, xc, xd := a[i], b[i], c4[i], d[i]
			a[i+1], b[i+1], c4[i+1], d[i+1] = s*xa+c*ta, s*xb+c*tb, s*xc+c*tc, s*xd+c*td
			ta, tb, tc, td = c*xa-s*ta, c*xb-s*tb, c*xc-s*tc, c*xd-s*td
		}
		a[lo], b[lo], c4[lo], d[lo] = ta, tb, tc, td
	}
}

// sortEigen orders the eigenvalues w ascending and the columns of v
// (rows × n) with them.
func sortEigen(w []float64, v []float64, rows int) {
	n := len(w)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		switch {
		case w[x] < w[y]:
			return -1
		case w[x] > w[y]:
			return 1
		}
		return 0
	})
	sorted := make([]float64, n)
	for j, o := range order {
		sorted[j] = w[o]
	}
	copy(w, sorted)
	if v == nil {
		return
	}
	row := make([]float64, n)
	for r := range rows {
		vr := v[r*n : (r+1)*n]
		for j, o := range order {
			row[j] = vr[o]
		}
		copy(vr, row)
	}
}

// symTridiagEigen overwrites d with the ascending eigenvalues of the
// symmetric tridiagonal matrix (d, e) and z (n×n) with its eigenvectors
// (columns); false when the iteration does not converge.
func symTridiagEigen(d, e, z []float64) bool {
	n := len(d)
	clear(z)
	for i := range n {
		z[i*n+i] = 1
	}
	var plan rotationPlan
	if !tridiagQL(d, e, &plan) {
		return false
	}
	plan.apply(z, n, n)
	sortEigen(d, z, n)
	return true
}
