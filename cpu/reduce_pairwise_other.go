//go:build !amd64

package cpu

// No assembly on this architecture: the Go loops do all the work.

var reduceHasAVX = false

func sumLeafAsm[T any](x []T) (T, bool) { var zero T; return zero, false }

func addRowsAsm[T any](acc, row []T) int { return 0 }

func minmaxLineAsm[T any](x []T, isMax bool) (m T, done int) { return m, 0 }

func minmaxRowsAsm[T any](acc, row []T, isMax bool) int { return 0 }
