//go:build !amd64

package machine

func fmaLoop(n int) float64 { return 0 }

func readLoop(x []float32) float32 { return readLoopGo(x) }

func triadLoop(a, b, c []float32, s float32) { triadLoopGo(a, b, c, s) }
