//go:build !amd64

package cpu

// No vector kernels on this architecture: the Go loops do all the work.

func binaryAsm[T any](simdKind) (func(dst, x, y *T, n int), int) { return nil, 0 }

func unaryAsm[T, R any](simdKind) (func(dst *R, x *T, n int), int) { return nil, 0 }
