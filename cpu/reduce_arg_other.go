//go:build !amd64

package cpu

// No assembly on this architecture: argmax and argmin scan in Go.
func blockExtremeAsm[T elemReal](x []T, isMax bool) (m T, nan bool, done int) { return m, false, 0 }
