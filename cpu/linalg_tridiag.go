package cpu

import (
	"math"
	"slices"
	"sync"
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

// Plans keep their storage from one decomposition to the next: a 512×512
// eigh records about 10 MB of rotations, and growing the slices by
// doubling took a sixth of its time.
var rotationPlans = sync.Pool{New: func() any { return new(rotationPlan) }}

func newRotationPlan() *rotationPlan { return rotationPlans.Get().(*rotationPlan) }

// reset empties p, keeping its storage.
func (p *rotationPlan) reset() { p.sweeps, p.cs = p.sweeps[:0], p.cs[:0] }

// release empties p and hands its storage to the next decomposition.
func (p *rotationPlan) release() {
	p.reset()
	rotationPlans.Put(p)
}

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
				r = rotationNorm(p, off[i])
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
// the plan: v ← v·R₁·R₂·… for the recorded rotations in order. Each
// worker copies its rows into panels of four interleaved rows (element i
// of the four rows side by side, one vector), sixteen rows at a time
// taking a chunk of sweeps while that chunk stays in L2, and copies them
// back.
func (p *rotationPlan) apply(v []float64, rows, ld int) {
	if len(p.cs) == 0 {
		return
	}
	n := 0 // the columns any rotation reaches
	for _, sw := range p.sweeps {
		n = max(n, sw.hi+1)
	}
	pool.parallelFor(nil, rows, 16, func(lo, hi int) {
		blocks := (hi - lo + 15) / 16
		stride := 4 * n // one panel: n elements of four rows
		panels := make([]float64, blocks*4*stride)
		for r := lo; r < hi; r++ {
			k := r - lo
			panel := panels[(k/4)*stride:]
			for i, x := range v[r*ld : r*ld+n] {
				panel[4*i+k%4] = x
			}
		}
		const chunkFloats = 1 << 15
		for first := 0; first < len(p.sweeps); {
			last := first + 1
			for last < len(p.sweeps) && p.sweeps[last].off-p.sweeps[first].off < chunkFloats {
				last++
			}
			for b := range blocks {
				block := panels[b*4*stride : (b+1)*4*stride]
				for _, sw := range p.sweeps[first:last] {
					rotSweepPanels(block, stride, p.cs[sw.off:sw.off+2*(sw.hi-sw.lo)], sw.lo, sw.hi)
				}
			}
			first = last
		}
		for r := lo; r < hi; r++ {
			k := r - lo
			panel := panels[(k/4)*stride:]
			row := v[r*ld : r*ld+n]
			for i := range row {
				row[i] = panel[4*i+k%4]
			}
		}
	})
}

// rotSweepPanelsGo is the portable sweep on four panels of four rows:
// rotation i mixes elements i and i+1 of each row, (x, y) ←
// (c·x - s·y, s·x + c·y); within a sweep the new element i is the next
// rotation's y, so it is carried rather than stored and reloaded.
func rotSweepPanelsGo(p []float64, stride int, cs []float64, lo, hi int) {
	for q := range 16 {
		row := p[(q/4)*stride+q%4:]
		t := row[4*hi]
		for k, i := 0, hi-1; i >= lo; k, i = k+2, i-1 {
			c, s := cs[k], cs[k+1]
			x := row[4*i]
			row[4*(i+1)] = s*x + c*t
			t = c*x - s*t
		}
		row[4*lo] = t
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
	plan := newRotationPlan()
	defer plan.release()
	if !tridiagQL(d, e, plan) {
		return false
	}
	plan.apply(z, n, n)
	sortEigen(d, z, n)
	return true
}

// rotationNorm is √(a²+b²), directly where a²+b² neither overflows nor
// comes near the subnormals (then neither square loses anything that
// matters to the sum), else by math.Hypot, whose scaling costs a
// division: it sits on the QL sweep's serial chain, once a rotation.
func rotationNorm(a, b float64) float64 {
	if ss := a*a + b*b; ss > 0x1p-900 && ss < 0x1p900 {
		return math.Sqrt(ss)
	}
	return math.Hypot(a, b)
}
