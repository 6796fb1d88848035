package cpu

import (
	"math"

	xcpu "golang.org/x/sys/cpu"
)

//go:noescape
func rotSweepPanelsAVX(panels *float64, stride int, cs *float64, lo, hi int)

// rotSweepPanels runs one sweep on the four panels at p (see
// rotationPlan.applyPanels), in assembly where the CPU has AVX.
func rotSweepPanels(p []float64, stride int, cs []float64, lo, hi int) {
	if !reduceHasAVX {
		rotSweepPanelsGo(p, stride, cs, lo, hi)
		return
	}
	_ = p[3*stride+4*hi+3] // the last element the kernel touches
	_ = cs[2*(hi-lo)-1]
	rotSweepPanelsAVX(&p[0], stride, &cs[0], lo, hi)
}

//go:noescape
func rank2F64FMA(row, v, w *float64, vi, wi float64, n int)

//go:noescape
func rank2F64AVX(row, v, w *float64, vi, wi float64, n int)

// rank2Row sets row[j] -= vi·w[j] + wi·v[j], in assembly where the CPU
// has AVX: as two fused multiply-adds where it has FMA too (one rounding
// fewer, so not the portable loop's bits; the tail as math.FMA so every
// element is rounded alike).
func rank2Row(row, v, w []float64, vi, wi float64) {
	done := 0
	if rowKernelsHaveFMA {
		done = len(row) &^ 7
		if done > 0 {
			_, _ = v[done-1], w[done-1]
			rank2F64FMA(&row[0], &v[0], &w[0], vi, wi, done)
		}
		rank2RowFMAGo(row[done:], v[done:], w[done:], vi, wi)
		return
	}
	if reduceHasAVX {
		done = len(row) &^ 7
		if done > 0 {
			_, _ = v[done-1], w[done-1]
			rank2F64AVX(&row[0], &v[0], &w[0], vi, wi, done)
		}
	}
	rank2RowGo(row[done:], v[done:], w[done:], vi, wi)
}

// axpyRow sets out[j] += a·x[j], in assembly where the CPU has AVX.
func axpyRow(out, x []float64, a float64) {
	done := axpyAsm(out, x[:len(out)], a)
	for j := done; j < len(out); j++ {
		out[j] += x[j] * a
	}
}

//go:noescape
func dot4RowsF64FMA(a *float64, ld int, v *float64, n int, out *float64)

// rowKernelsHaveFMA says dot4RowsF64FMA and rank2F64FMA can run here (a
// variable so tests can compare them with the portable paths).
var rowKernelsHaveFMA = xcpu.X86.HasAVX2 && xcpu.X86.HasFMA

// rowDots sets out[i] = Σ_j a[i*ld+j]·v[j] for i < len(out), j < len(v):
// four rows at a time in assembly where the CPU has AVX2 and FMA, each
// row's sum in its own order (not the Go loop's bits).
func rowDots(a []float64, ld int, v, out []float64) {
	n, rows, i := len(v), len(out), 0
	if rowKernelsHaveFMA && n >= 8 {
		body := n &^ 7
		for ; i+4 <= rows; i += 4 {
			row := a[i*ld:]
			_ = row[3*ld+n-1]
			var sums [4]float64
			dot4RowsF64FMA(&row[0], ld, &v[0], body, &sums[0])
			for r := range 4 {
				s, x := sums[r], row[r*ld:r*ld+n]
				for j := body; j < n; j++ {
					s += x[j] * v[j]
				}
				out[i+r] = s
			}
		}
	}
	if i < rows {
		rowDotsGo(a[i*ld:], ld, v, out[i:])
	}
}

// rank2RowFMAGo is rank2F64FMA's operations in Go.
func rank2RowFMAGo(row, v, w []float64, vi, wi float64) {
	for j := range row {
		row[j] = math.FMA(-wi, v[j], math.FMA(-vi, w[j], row[j]))
	}
}
