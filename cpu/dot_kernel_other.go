//go:build !amd64

package cpu

// No assembly kernels on this architecture: matmuls use the portable one.
var (
	gemmFloat32Available []gemmKernel[float32]
	gemmFloat64Available []gemmKernel[float64]
)

func axpyAsm[T any](out, x []T, w T) int { return 0 }

func outerRowsAsm[T any](out, y, a []T, aStride, rows int) int { return 0 }

// gemvRows is 0: no matrix-vector kernels, the Go loop does every row.
var gemvRows int

func gemvAsm[T any](x []T, starts dotOffsets, k int, v, out []T) int { return 0 }
