// Package remez fits minimax polynomials with the Remez exchange algorithm.
// cpu/vmath's coefficient generator uses it; it is not on any kernel's path.
//
// A fit approximates g(x) on [Lo, Hi] by Σ c_i·x^Powers[i], minimising
// max |W(x)·(g(x) − p(x))|. Choosing g, the powers and the weight lets one
// routine produce every shape the kernels evaluate: an odd tail r³·P(r²)
// after a fixed leading r (g = sin r − r, weight 1/sin r gives relative
// error), a plain polynomial, and so on. Relative weights should be 1/|f|,
// not 1/f: where f changes sign inside the interval the weighted error
// then only touches zero there instead of crossing it, which would count as
// a spurious alternation. Arithmetic is float64: the fits
// target errors near 2^-30..2^-45, far above float64 rounding.
package remez

import (
	"errors"
	"math"
	"sort"
)

// Problem describes one fit.
type Problem struct {
	G      func(x float64) float64 // function to approximate
	W      func(x float64) float64 // error weight, e.g. 1/|f(x)| for relative error
	Powers []int                   // exponents of the basis monomials
	Lo, Hi float64                 // interval
}

// Result is a fitted polynomial and its weighted error.
type Result struct {
	Coeffs []float64 // Coeffs[i] multiplies x^Powers[i]
	MaxErr float64   // max weighted error measured on a dense grid
}

const gridSize = 8000

// Fit runs the exchange until the reference errors level out.
func Fit(p Problem) (Result, error) {
	n := len(p.Powers)
	grid := make([]float64, gridSize)
	for i := range grid {
		// Chebyshev-distributed grid: extrema crowd towards the ends.
		t := math.Cos(math.Pi * float64(gridSize-1-i) / float64(gridSize-1))
		grid[i] = p.Lo + (p.Hi-p.Lo)*(t+1)/2
	}
	// Scale x by s so the linear system is well conditioned.
	s := math.Max(math.Abs(p.Lo), math.Abs(p.Hi))
	ref := make([]float64, n+1)
	for j := range ref {
		t := math.Cos(math.Pi * float64(n-j) / float64(n))
		ref[j] = p.Lo + (p.Hi-p.Lo)*(t+1)/2
	}
	nudgeOffZero(ref, p)
	var coeffs []float64
	best := Result{MaxErr: math.Inf(1)}
	for iter := 0; iter < 60; iter++ {
		c, err := solve(p, ref, s)
		if err != nil {
			return Result{}, err
		}
		coeffs = c
		errs := make([]float64, len(grid))
		maxErr := 0.0
		for i, x := range grid {
			errs[i] = weightedErr(p, coeffs, x)
			maxErr = math.Max(maxErr, math.Abs(errs[i]))
		}
		if maxErr < best.MaxErr {
			best = Result{Coeffs: append([]float64(nil), coeffs...), MaxErr: maxErr}
		}
		next := extrema(grid, errs, n+1)
		if len(next) < n+1 {
			break
		}
		minRef := math.Inf(1)
		for _, i := range next {
			minRef = math.Min(minRef, math.Abs(errs[i]))
		}
		for j, i := range next {
			ref[j] = grid[i]
		}
		nudgeOffZero(ref, p)
		if maxErr <= minRef*(1+1e-6) {
			break
		}
	}
	if best.Coeffs == nil {
		return Result{}, errors.New("remez: no fit")
	}
	return best, nil
}

// nudgeOffZero keeps reference points off x = 0, where relative weights are
// undefined.
func nudgeOffZero(ref []float64, p Problem) {
	for j, x := range ref {
		if x == 0 {
			ref[j] = (p.Hi - p.Lo) * 1e-9
		}
	}
}

// Eval evaluates the fitted polynomial. Powers must be ascending.
func Eval(powers []int, coeffs []float64, x float64) float64 {
	sum, xp, p := 0.0, 1.0, 0
	for i, c := range coeffs {
		for ; p < powers[i]; p++ {
			xp *= x
		}
		sum += c * xp
	}
	return sum
}

func weightedErr(p Problem, coeffs []float64, x float64) float64 {
	if x == 0 {
		return 0
	}
	return p.W(x) * (p.G(x) - Eval(p.Powers, coeffs, x))
}

// solve finds c and E with Σ c_i x_j^p_i + (−1)^j E / W(x_j) = g(x_j).
func solve(p Problem, ref []float64, s float64) ([]float64, error) {
	n := len(p.Powers)
	a := make([][]float64, n+1)
	for j, x := range ref {
		row := make([]float64, n+2)
		for i, pw := range p.Powers {
			row[i] = math.Pow(x/s, float64(pw))
		}
		sign := 1.0
		if j%2 == 1 {
			sign = -1
		}
		row[n] = sign / p.W(x)
		row[n+1] = p.G(x)
		a[j] = row
	}
	// Gaussian elimination with partial pivoting.
	for col := 0; col <= n; col++ {
		piv := col
		for r := col + 1; r <= n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if a[piv][col] == 0 {
			return nil, errors.New("remez: singular system")
		}
		a[col], a[piv] = a[piv], a[col]
		for r := col + 1; r <= n; r++ {
			f := a[r][col] / a[col][col]
			for k := col; k <= n+1; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	sol := make([]float64, n+1)
	for r := n; r >= 0; r-- {
		sum := a[r][n+1]
		for k := r + 1; k <= n; k++ {
			sum -= a[r][k] * sol[k]
		}
		sol[r] = sum / a[r][r]
	}
	coeffs := make([]float64, n)
	for i, pw := range p.Powers {
		coeffs[i] = sol[i] / math.Pow(s, float64(pw))
	}
	return coeffs, nil
}

// extrema picks want points of alternating error sign, each the largest
// |error| of its sign run, dropping the weakest until want remain.
func extrema(grid, errs []float64, want int) []int {
	var idx []int
	for i := 0; i < len(grid); {
		j := i
		best := i
		for j < len(grid) && (errs[j] >= 0) == (errs[i] >= 0) {
			if math.Abs(errs[j]) > math.Abs(errs[best]) {
				best = j
			}
			j++
		}
		idx = append(idx, best)
		i = j
	}
	abs := func(k int) float64 { return math.Abs(errs[idx[k]]) }
	for len(idx) > want {
		if (len(idx)-want)%2 == 1 {
			if abs(0) < abs(len(idx)-1) {
				idx = idx[1:]
			} else {
				idx = idx[:len(idx)-1]
			}
			continue
		}
		// Remove the adjacent pair whose stronger member is weakest: keeps
		// the signs alternating.
		drop, dropVal := 0, math.Inf(1)
		for k := 0; k+1 < len(idx); k++ {
			if v := math.Max(abs(k), abs(k+1)); v < dropVal {
				drop, dropVal = k, v
			}
		}
		idx = append(idx[:drop], idx[drop+2:]...)
	}
	sort.Ints(idx)
	return idx
}
