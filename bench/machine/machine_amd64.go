package machine

import xcpu "golang.org/x/sys/cpu"

//go:noescape
func fmaLoopAVX512(n int)

//go:noescape
func fmaLoopAVX2(n int)

//go:noescape
func readLoopAVX2(x *float32, n int) float32

//go:noescape
func triadLoopAVX2(a, b, c *float32, s float32, n int)

// fmaLoop runs n iterations of the widest FMA loop this CPU has and
// returns the flops it did, or 0 without FMA.
func fmaLoop(n int) float64 {
	switch {
	case xcpu.X86.HasAVX512F:
		fmaLoopAVX512(n)
		return float64(n) * 24 * 16 * 2
	case xcpu.X86.HasAVX2 && xcpu.X86.HasFMA:
		fmaLoopAVX2(n)
		return float64(n) * 12 * 8 * 2
	}
	return 0
}

func readLoop(x []float32) float32 {
	if !xcpu.X86.HasAVX2 {
		return readLoopGo(x)
	}
	n := len(x) &^ 63
	s := float32(0)
	if n > 0 {
		s = readLoopAVX2(&x[0], n)
	}
	return s + readLoopGo(x[n:])
}

func triadLoop(a, b, c []float32, s float32) {
	if !(xcpu.X86.HasAVX2 && xcpu.X86.HasFMA) {
		triadLoopGo(a, b, c, s)
		return
	}
	n := len(a) &^ 31
	if n > 0 {
		_, _ = b[n-1], c[n-1]
		triadLoopAVX2(&a[0], &b[0], &c[0], s, n)
	}
	triadLoopGo(a[n:], b[n:], c[n:], s)
}
