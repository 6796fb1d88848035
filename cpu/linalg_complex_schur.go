package cpu

import (
	"math"
	"math/cmplx"
)

// The complex Schur form by the single-shift QR algorithm, and
// eigenvectors from it: eig's kernel for complex matrices.

// givens returns c (real) and s with [c s; -s̄ c]·[x; y] = [r; 0].
func givens(x, y complex128) (c float64, s, r complex128) {
	if y == 0 {
		return 1, 0, x
	}
	if x == 0 {
		ay := cmplx.Abs(y)
		return 0, cmplx.Conj(y) / complex(ay, 0), complex(ay, 0)
	}
	ax := cmplx.Abs(x)
	norm := math.Hypot(ax, cmplx.Abs(y))
	phase := x / complex(ax, 0)
	return ax / norm, phase * cmplx.Conj(y) / complex(norm, 0), phase * complex(norm, 0)
}

// rotateRows applies G = [c s; -s̄ c] to rows p and p+1 of h, columns
// lo..n-1.
func rotateRows(h []complex128, n, p, lo int, c float64, s complex128) {
	cc, sc := complex(c, 0), cmplx.Conj(s)
	rp, rq := h[p*n+lo:(p+1)*n], h[(p+1)*n+lo:(p+2)*n]
	for i := range rp {
		x, y := rp[i], rq[i]
		rp[i], rq[i] = cc*x+s*y, cc*y-sc*x
	}
}

// rotateCols applies Gᴴ from the right to columns p and p+1 of h (leading
// dimension n), rows 0..hi.
func rotateCols(h []complex128, n, p, hi int, c float64, s complex128) {
	cc, sc := complex(c, 0), cmplx.Conj(s)
	for i := 0; i <= hi; i++ {
		x, y := h[i*n+p], h[i*n+p+1]
		h[i*n+p], h[i*n+p+1] = cc*x+sc*y, cc*y-s*x
	}
}

// schurQR reduces the upper Hessenberg h to upper triangular T = Zᴴ·h·Z,
// updating z (z ← z·Z) and writing T's diagonal, the eigenvalues, into
// w; false when an eigenvalue takes more than 30 sweeps.
func schurQR(h, z []complex128, n int, w []complex128) bool {
	const eps = 0x1p-52
	hi := n - 1
	iter := 0
	for hi >= 0 {
		// The active block l..hi ends where a subdiagonal is negligible.
		l := hi
		for ; l > 0; l-- {
			sub := abs1(h[l*n+l-1])
			ref := abs1(h[(l-1)*n+l-1]) + abs1(h[l*n+l])
			if sub <= eps*ref || sub < 0x1p-1020 {
				h[l*n+l-1] = 0
				break
			}
		}
		if l == hi {
			w[hi] = h[hi*n+hi]
			hi--
			iter = 0
			continue
		}
		iter++
		if iter > 30*max(10, n) {
			return false
		}
		mu := wilkinsonShift(h[(hi-1)*n+hi-1], h[(hi-1)*n+hi], h[hi*n+hi-1], h[hi*n+hi])
		if iter%10 == 0 { // an exceptional shift breaks a cycle
			mu = h[hi*n+hi] + complex(0.75*math.Abs(real(h[hi*n+hi-1])), 0)
		}
		x, y := h[l*n+l]-mu, h[(l+1)*n+l]
		for k := l; k < hi; k++ {
			if k > l {
				x, y = h[k*n+k-1], h[(k+1)*n+k-1]
			}
			c, s, r := givens(x, y)
			if k > l {
				h[k*n+k-1], h[(k+1)*n+k-1] = r, 0
				rotateRows(h, n, k, k, c, s)
			} else {
				rotateRows(h, n, k, k, c, s)
			}
			rotateCols(h, n, k, min(k+2, hi), c, s)
			rotateCols(z, n, k, n-1, c, s)
		}
	}
	return true
}

// wilkinsonShift is the eigenvalue of [a b; c d] nearer d.
func wilkinsonShift(a, b, c, d complex128) complex128 {
	half := (a - d) / 2
	disc := cmplx.Sqrt(half*half + b*c)
	m1, m2 := (a+d)/2+disc, (a+d)/2-disc
	if cmplx.Abs(m1-d) < cmplx.Abs(m2-d) {
		return m1
	}
	return m2
}

// eigenvectors writes unit eigenvectors (columns of out) of the matrix
// z·T·zᴴ, T upper triangular (in t): right ones solve (T - λₖ)·x = 0 by
// back substitution, left ones (T - λₖ)ᴴ·y = 0 forwards; each is mapped
// by z, normalized, and turned so that its largest component is real.
func eigenvectors(t, z []complex128, n int, left bool, out []complex128) {
	norm := 0.0
	for i, v := range t {
		if i/n <= i%n {
			norm = math.Max(norm, abs1(v))
		}
	}
	x := make([]complex128, n)
	for k := range n {
		lambda := t[k*n+k]
		smin := math.Max(0x1p-52*abs1(lambda), 0x1p-52*norm)
		smin = math.Max(smin, 0x1p-1000)
		clear(x)
		x[k] = 1
		pivot := func(i int) complex128 {
			p := t[i*n+i] - lambda
			if abs1(p) < smin {
				p = complex(smin, 0)
			}
			return p
		}
		if !left {
			for i := k - 1; i >= 0; i-- {
				var s complex128
				for c := i + 1; c <= k; c++ {
					s += t[i*n+c] * x[c]
				}
				x[i] = -s / pivot(i)
			}
		} else {
			for i := k + 1; i < n; i++ {
				var s complex128
				for c := k; c < i; c++ {
					s += cmplx.Conj(t[c*n+i]) * x[c]
				}
				x[i] = -s / cmplx.Conj(pivot(i))
			}
		}
		// column k of out = z·x, then normalized.
		ss, big, bigAt := 0.0, -1.0, 0
		for r := range n {
			var s complex128
			for c, v := range x {
				if v != 0 {
					s += z[r*n+c] * v
				}
			}
			out[r*n+k] = s
			a := real(s)*real(s) + imag(s)*imag(s)
			ss += a
			if a > big {
				big, bigAt = a, r
			}
		}
		scale := complex(1/math.Sqrt(ss), 0)
		if b := out[bigAt*n+k]; b != 0 {
			scale *= cmplx.Conj(b) / complex(cmplx.Abs(b), 0)
		}
		for r := range n {
			out[r*n+k] *= scale
		}
		out[bigAt*n+k] = complex(real(out[bigAt*n+k]), 0)
	}
}
