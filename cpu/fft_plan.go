package cpu

import (
	"math"
	"sync"
)

// One-dimensional complex FFTs of any length, in the precision of F
// (float32 arithmetic for complex64, float64 for complex128).
//
// A length whose prime factors are all at most maxDirectPrime runs as a
// mixed-radix self-sorting Stockham transform: one pass per factor, each
// reading the previous pass's array and writing the other, so the result
// comes out in natural order without a bit-reversal pass. Radices 4, 2, 3
// and 5 have hand-written butterflies; other small primes use a direct
// O(p²) butterfly. Any other length runs through Bluestein's algorithm: a
// chirp turns the DFT into a circular convolution of a power-of-two length
// m ≥ 2n-1, computed with two such transforms.
//
// Twiddle factors are computed in float64 from exactly reduced angles and
// rounded once to F, so their error is half an ulp of F; with the pass
// count logarithmic in n, the error of a transform grows as ulp·log2(n).

// parallelFFTLength is the shortest transform whose passes are split
// across the worker pool (shorter ones run in parallel only as a batch).
const parallelFFTLength = 1 << 15

// maxDirectPrime is the largest prime factor a direct (Stockham) plan
// handles; beyond it a butterfly's p² work loses to Bluestein's.
const maxDirectPrime = 61

type float interface{ ~float32 | ~float64 }

// cpx is a complex number with components of type F, laid out as Go's
// complex64 (F = float32) and complex128 (F = float64), so buffers of
// either view as []cpx[F].
type cpx[F float] struct{ re, im F }

func cadd[F float](a, b cpx[F]) cpx[F] { return cpx[F]{a.re + b.re, a.im + b.im} }
func csub[F float](a, b cpx[F]) cpx[F] { return cpx[F]{a.re - b.re, a.im - b.im} }
func cmul[F float](a, b cpx[F]) cpx[F] {
	return cpx[F]{a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re}
}
func cscale[F float](a cpx[F], s F) cpx[F] { return cpx[F]{a.re * s, a.im * s} }

// cmulNegI multiplies by -i.
func cmulNegI[F float](a cpx[F]) cpx[F] { return cpx[F]{a.im, -a.re} }
func cconj[F float](a cpx[F]) cpx[F]    { return cpx[F]{a.re, -a.im} }

// unitRoot is exp(-2πi·k/n) rounded to F, with k reduced into [0, n) and
// the angle folded into the first octant so that sin and cos are taken of
// an angle of at most π/4 (their most accurate range).
func unitRoot[F float](k, n int) cpx[F] {
	k %= n
	if k < 0 {
		k += n
	}
	// exp(-2πi k/n) = cos θ - i sin θ, θ = 2πk/n. Work with 8k against 8n
	// to find the octant exactly.
	c, s := rootCosSin(int64(k), int64(n))
	return cpx[F]{F(c), F(-s)}
}

// rootCosSin returns cos and sin of 2πk/n, 0 ≤ k < n, by symmetry from an
// angle in [0, π/4].
func rootCosSin(k, n int64) (float64, float64) {
	// Reduce to the first half turn, then quarter, then octant.
	negSin := false
	if 2*k > n { // θ in (π, 2π): sin negative, θ' = 2π - θ
		k = n - k
		negSin = true
	}
	negCos := false
	if 4*k > n { // θ in (π/2, π]: θ' = π - θ, cos negative
		k = n - 2*k // in units of π/n... keep exact: θ' = π - 2πk/n = 2π(n-2k)/(2n)
		n *= 2
		negCos = true
	}
	var c, s float64
	if 8*k > n { // θ in (π/4, π/2]: swap with π/2 - θ = 2π(n-4k)/(4n)
		a := 2 * math.Pi * float64(n-4*k) / float64(4*n)
		s, c = math.Cos(a), math.Sin(a)
	} else {
		a := 2 * math.Pi * float64(k) / float64(n)
		s, c = math.Sin(a), math.Cos(a)
	}
	if negCos {
		c = -c
	}
	if negSin {
		s = -s
	}
	return c, s
}

// An fftStage is one Stockham pass of radix p over sub-transforms of
// length l = p·m, with stride s (the product of the earlier radices).
type fftStage[F float] struct {
	p, m, s int
	tw      []cpx[F] // tw[j*(p-1)+r-1] = exp(-2πi·j·r/l), for the outputs r ≥ 1
	roots   []cpx[F] // exp(-2πi·k/p), for a generic radix
}

// An fftPlan transforms one length forward; the inverse conjugates around
// it.
type fftPlan[F float] struct {
	n      int
	stages []fftStage[F]
	blue   *bluestein[F]
}

type bluestein[F float] struct {
	m     int
	chirp []cpx[F] // exp(-iπk²/n), k < n
	bhat  []cpx[F] // the transform of the conjugate chirp, scaled by 1/m
	sub   *fftPlan[F]
}

// factorize splits n into Stockham radices (4s first, then 2, 3, 5 and
// other primes); ok is false when a prime factor exceeds maxDirectPrime.
func factorize(n int) (radices []int, ok bool) {
	for n%4 == 0 {
		radices = append(radices, 4)
		n /= 4
	}
	for p := 2; p*p <= n; p++ {
		for n%p == 0 {
			radices = append(radices, p)
			n /= p
		}
	}
	if n > 1 {
		radices = append(radices, n)
	}
	for _, p := range radices {
		if p > maxDirectPrime {
			return nil, false
		}
	}
	return radices, true
}

func newFFTPlan[F float](n int) *fftPlan[F] {
	plan := &fftPlan[F]{n: n}
	radices, ok := factorize(n)
	if !ok {
		plan.blue = newBluestein[F](n)
		return plan
	}
	l, s := n, 1
	for _, p := range radices {
		m := l / p
		st := fftStage[F]{p: p, m: m, s: s}
		if p > 1 {
			st.tw = make([]cpx[F], m*(p-1))
			for j := range m {
				for r := 1; r < p; r++ {
					st.tw[j*(p-1)+r-1] = unitRoot[F](j*r, l)
				}
			}
		}
		if p != 2 && p != 3 && p != 4 && p != 5 {
			st.roots = make([]cpx[F], p)
			for k := range p {
				st.roots[k] = unitRoot[F](k, p)
			}
		}
		plan.stages = append(plan.stages, st)
		l, s = m, s*p
	}
	return plan
}

func newBluestein[F float](n int) *bluestein[F] {
	m := 1
	for m < 2*n-1 {
		m *= 2
	}
	b := &bluestein[F]{m: m, chirp: make([]cpx[F], n), sub: newFFTPlan[F](m)}
	conj := make([]cpx[F], m)
	for k := range n {
		// exp(-iπk²/n) = exp(-2πi·(k² mod 2n)/(2n)), exact in integers.
		kk := int((int64(k) * int64(k)) % int64(2*n))
		w := unitRoot[F](kk, 2*n)
		b.chirp[k] = w
		conj[k] = cconj(w)
		if k > 0 {
			conj[m-k] = cconj(w)
		}
	}
	scratch := make([]cpx[F], m)
	b.sub.forward(conj, scratch)
	inv := 1 / F(m)
	for i := range conj {
		conj[i] = cscale(conj[i], inv)
	}
	b.bhat = conj
	return b
}

// scratchLen is the length of the scratch forward needs.
func (p *fftPlan[F]) scratchLen() int {
	if p.blue != nil {
		return 2 * p.blue.m
	}
	return p.n
}

// forward transforms x in place; scratch has at least scratchLen elements.
func (p *fftPlan[F]) forward(x, scratch []cpx[F]) {
	if p.blue != nil {
		p.blue.forward(x, scratch)
		return
	}
	src, dst := x, scratch[:p.n]
	for i := range p.stages {
		if p.n >= parallelFFTLength {
			p.stages[i].runParallel(src, dst)
		} else {
			p.stages[i].run(src, dst)
		}
		src, dst = dst, src
	}
	if len(p.stages)%2 == 1 {
		copy(x, src)
	}
}

// forwardLines transforms v interleaved lines in place (element i of line
// c at x[i·v + c]); scratch has n·v elements. Each Stockham pass is the
// single line's with its stride s times v: the positions q < s·v of a
// butterfly run over the v lines together, so the innermost loops are v
// times longer and every twiddle load serves v lines. Not for Bluestein
// plans.
func (p *fftPlan[F]) forwardLines(x, scratch []cpx[F], v int) {
	src, dst := x, scratch[:p.n*v]
	for i := range p.stages {
		st := p.stages[i]
		st.s *= v
		st.run(src, dst)
		src, dst = dst, src
	}
	if len(p.stages)%2 == 1 {
		copy(x, src)
	}
}

// inverse transforms x in place without the 1/n scaling:
// conj(F(conj(x))).
func (p *fftPlan[F]) inverse(x, scratch []cpx[F]) {
	for i := range x {
		x[i].im = -x[i].im
	}
	p.forward(x, scratch)
	for i := range x {
		x[i].im = -x[i].im
	}
}

func (b *bluestein[F]) forward(x, scratch []cpx[F]) {
	n, m := len(b.chirp), b.m
	a, sub := scratch[:m], scratch[m:2*m]
	for j := range n {
		a[j] = cmul(x[j], b.chirp[j])
	}
	clear(a[n:])
	b.sub.forward(a, sub)
	for i := range a {
		// conjugate now for the inverse transform that follows
		a[i] = cconj(cmul(a[i], b.bhat[i]))
	}
	b.sub.forward(a, sub)
	for k := range n {
		x[k] = cmul(cconj(a[k]), b.chirp[k])
	}
}

// A stageSpan is the part of a pass one worker runs: butterflies j0 ≤ j <
// j1, and of each the positions q0 ≤ q < q1.
type stageSpan struct{ j0, j1, q0, q1 int }

func (st *fftStage[F]) run(x, y []cpx[F]) {
	st.runSpan(x, y, stageSpan{0, st.m, 0, st.s})
}

// runParallel splits the pass across the worker pool: along the
// butterflies when there are many, else along the positions.
func (st *fftStage[F]) runParallel(x, y []cpx[F]) {
	const grain = 1 << 13 // elements per chunk
	if st.m >= st.s {
		per := max(1, grain/(st.s*st.p))
		pool.parallelFor(nil, st.m, per, func(lo, hi int) { st.runSpan(x, y, stageSpan{lo, hi, 0, st.s}) })
		return
	}
	per := max(1, grain/(st.m*st.p))
	pool.parallelFor(nil, st.s, per, func(lo, hi int) { st.runSpan(x, y, stageSpan{0, st.m, lo, hi}) })
}

func (st *fftStage[F]) runSpan(x, y []cpx[F], sp stageSpan) {
	switch st.p {
	case 1:
		copy(y, x)
	case 2:
		st.radix2(x, y, sp)
	case 3:
		st.radix3(x, y, sp)
	case 4:
		st.radix4(x, y, sp)
	case 5:
		st.radix5(x, y, sp)
	default:
		st.generic(x, y, sp)
	}
}

// Each pass: for butterfly j < m and q < s, the inputs are
// x[q + s·(j + r·m)], r < p; output r, times the twiddle of (j, r), goes
// to y[q + s·(p·j + r)].

func (st *fftStage[F]) radix2(x, y []cpx[F], sp stageSpan) {
	m, s := st.m, st.s
	for j := sp.j0; j < sp.j1; j++ {
		w := cpx[F]{1, 0}
		if j > 0 {
			w = st.tw[j]
		}
		q0, q1 := sp.q0, sp.q1
		x0, x1 := x[s*j+q0:s*j+q1], x[s*(j+m)+q0:s*(j+m)+q1]
		y0, y1 := y[s*2*j+q0:s*2*j+q1], y[s*(2*j+1)+q0:s*(2*j+1)+q1]
		for q := range x0 {
			a, b := x0[q], x1[q]
			y0[q] = cadd(a, b)
			y1[q] = cmul(csub(a, b), w)
		}
	}
}

func (st *fftStage[F]) radix4(x, y []cpx[F], sp stageSpan) {
	m, s := st.m, st.s
	for j := sp.j0; j < sp.j1; j++ {
		tw := st.tw[3*j : 3*j+3]
		w1, w2, w3 := tw[0], tw[1], tw[2]
		q0, q1 := sp.q0, sp.q1
		x0, x1 := x[s*j+q0:s*j+q1], x[s*(j+m)+q0:s*(j+m)+q1]
		x2, x3 := x[s*(j+2*m)+q0:s*(j+2*m)+q1], x[s*(j+3*m)+q0:s*(j+3*m)+q1]
		o := s * 4 * j
		y0, y1, y2, y3 := y[o+q0:o+q1], y[o+s+q0:o+s+q1], y[o+2*s+q0:o+2*s+q1], y[o+3*s+q0:o+3*s+q1]
		if j == 0 {
			for q := range x0 {
				t0, t1 := cadd(x0[q], x2[q]), csub(x0[q], x2[q])
				t2, t3 := cadd(x1[q], x3[q]), cmulNegI(csub(x1[q], x3[q]))
				y0[q], y1[q], y2[q], y3[q] = cadd(t0, t2), cadd(t1, t3), csub(t0, t2), csub(t1, t3)
			}
			continue
		}
		for q := range x0 {
			t0, t1 := cadd(x0[q], x2[q]), csub(x0[q], x2[q])
			t2, t3 := cadd(x1[q], x3[q]), cmulNegI(csub(x1[q], x3[q]))
			y0[q] = cadd(t0, t2)
			y1[q] = cmul(cadd(t1, t3), w1)
			y2[q] = cmul(csub(t0, t2), w2)
			y3[q] = cmul(csub(t1, t3), w3)
		}
	}
}

func (st *fftStage[F]) radix3(x, y []cpx[F], sp stageSpan) {
	m, s := st.m, st.s
	sin60 := F(math.Sqrt(3) / 2)
	for j := sp.j0; j < sp.j1; j++ {
		w1, w2 := st.tw[2*j], st.tw[2*j+1]
		for q := sp.q0; q < sp.q1; q++ {
			a0, a1, a2 := x[q+s*j], x[q+s*(j+m)], x[q+s*(j+2*m)]
			t1 := cadd(a1, a2)
			t2 := csub(a0, cscale(t1, 0.5))
			t3 := cscale(cmulNegI(csub(a1, a2)), sin60)
			o := q + s*3*j
			y[o] = cadd(a0, t1)
			y[o+s] = cmul(cadd(t2, t3), w1)
			y[o+2*s] = cmul(csub(t2, t3), w2)
		}
	}
}

func (st *fftStage[F]) radix5(x, y []cpx[F], sp stageSpan) {
	m, s := st.m, st.s
	c1, c2 := F(math.Cos(2*math.Pi/5)), F(math.Cos(4*math.Pi/5))
	s1, s2 := F(math.Sin(2*math.Pi/5)), F(math.Sin(4*math.Pi/5))
	for j := sp.j0; j < sp.j1; j++ {
		tw := st.tw[4*j : 4*j+4]
		for q := sp.q0; q < sp.q1; q++ {
			a0 := x[q+s*j]
			a1, a2, a3, a4 := x[q+s*(j+m)], x[q+s*(j+2*m)], x[q+s*(j+3*m)], x[q+s*(j+4*m)]
			b1, b2, d1, d2 := cadd(a1, a4), cadd(a2, a3), csub(a1, a4), csub(a2, a3)
			ta := cadd(a0, cadd(cscale(b1, c1), cscale(b2, c2)))
			tb := cadd(a0, cadd(cscale(b1, c2), cscale(b2, c1)))
			tc := cmulNegI(cadd(cscale(d1, s1), cscale(d2, s2)))
			td := cmulNegI(csub(cscale(d1, s2), cscale(d2, s1)))
			o := q + s*5*j
			y[o] = cadd(a0, cadd(b1, b2))
			y[o+s] = cmul(cadd(ta, tc), tw[0])
			y[o+2*s] = cmul(cadd(tb, td), tw[1])
			y[o+3*s] = cmul(csub(tb, td), tw[2])
			y[o+4*s] = cmul(csub(ta, tc), tw[3])
		}
	}
}

func (st *fftStage[F]) generic(x, y []cpx[F], sp stageSpan) {
	p, m, s := st.p, st.m, st.s
	var in [maxDirectPrime]cpx[F]
	for j := sp.j0; j < sp.j1; j++ {
		for q := sp.q0; q < sp.q1; q++ {
			for r := range p {
				in[r] = x[q+s*(j+r*m)]
			}
			o := q + s*p*j
			for r := range p {
				acc := in[0]
				k := 0
				for t := 1; t < p; t++ {
					k += r
					if k >= p {
						k -= p
					}
					acc = cadd(acc, cmul(in[t], st.roots[k]))
				}
				if r > 0 {
					acc = cmul(acc, st.tw[j*(p-1)+r-1])
				}
				y[o+s*r] = acc
			}
		}
	}
}

// Plans are cached per length and precision; they are immutable.
var (
	fftPlans32 sync.Map // int -> *fftPlan[float32]
	fftPlans64 sync.Map // int -> *fftPlan[float64]
)

func planFor[F float](n int) *fftPlan[F] {
	var cache *sync.Map
	var zero F
	switch any(zero).(type) {
	case float32:
		cache = &fftPlans32
	default:
		cache = &fftPlans64
	}
	if p, ok := cache.Load(n); ok {
		return p.(*fftPlan[F])
	}
	p, _ := cache.LoadOrStore(n, newFFTPlan[F](n))
	return p.(*fftPlan[F])
}
