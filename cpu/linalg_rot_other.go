//go:build !amd64

package cpu

// rotSweepPanels runs one sweep on the four panels at p (see
// rotationPlan.applyPanels); no assembly on this architecture.
func rotSweepPanels(p []float64, stride int, cs []float64, lo, hi int) {
	rotSweepPanelsGo(p, stride, cs, lo, hi)
}
