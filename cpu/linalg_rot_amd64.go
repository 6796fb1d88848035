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
