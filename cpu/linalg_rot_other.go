//go:build !amd64

package cpu

// rotSweepPanels runs one sweep on the four panels at p (see
// rotationPlan.applyPanels); no assembly on this architecture.
func rotSweepPanels(p []float64, stride int, cs []float64, lo, hi int) {
	rotSweepPanelsGo(p, stride, cs, lo, hi)
}

// rank2Row sets row[j] -= vi·w[j] + wi·v[j].
func rank2Row(row, v, w []float64, vi, wi float64) { rank2RowGo(row, v, w, vi, wi) }

// axpyRow sets out[j] += a·x[j].
func axpyRow(out, x []float64, a float64) {
	for j := range out {
		out[j] += x[j] * a
	}
}

// rowDots sets out[i] = Σ_j a[i*ld+j]·v[j] for i < len(out), j < len(v).
func rowDots(a []float64, ld int, v, out []float64) { rowDotsGo(a, ld, v, out) }

// rowKernelsHaveFMA: no fused row kernels on this architecture.
var rowKernelsHaveFMA = false
