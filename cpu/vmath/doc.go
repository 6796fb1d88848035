// Package vmath is the float32 math library of the CPU backend's kernels.
package vmath

//go:generate go run ./internal/cmd/gencoeffs -o coeffs_gen.go
