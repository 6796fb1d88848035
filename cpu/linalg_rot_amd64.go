package cpu

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
func rank2F64AVX(row, v, w *float64, vi, wi float64, n int)

// rank2Row sets row[j] -= vi·w[j] + wi·v[j], in assembly where the CPU
// has AVX.
func rank2Row(row, v, w []float64, vi, wi float64) {
	done := 0
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
