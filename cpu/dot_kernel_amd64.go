package cpu

import (
	"unsafe"

	xcpu "golang.org/x/sys/cpu"
)

// Assembly matmul micro-kernels (dot_gemm_amd64.s, written by
// internal/cmd/gengemm), chosen at start-up by what the CPU and OS support:
// AVX-512 tiles of 6 rows by 64 or 32 float32 (32 or 16 float64) columns,
// AVX2 with FMA tiles of 6 by 16 float32 (8 float64), else none (the
// portable Go kernel). The driver picks among them by the matmul's width.

//go:generate go run ./internal/cmd/gengemm -o dot_gemm_amd64.s

//go:noescape
func gemmF32AVX512x64(kc int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, accumulate bool, next int)

//go:noescape
func gemmF32AVX512x32(kc int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, accumulate bool, next int)

//go:noescape
func gemmF32AVX2x16(kc int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, accumulate bool, next int)

//go:noescape
func gemmF64AVX512x32(kc int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, accumulate bool, next int)

//go:noescape
func gemmF64AVX512x16(kc int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, accumulate bool, next int)

//go:noescape
func gemmF64AVX2x8(kc int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, accumulate bool, next int)

//go:noescape
func gemvF32AVX512x16(blocks int, x *float32, ldx int, v, out *float32)

//go:noescape
func gemvF32AVX8(blocks int, x *float32, ldx int, v, out *float32)

// gemvRows is how many rows the matrix-vector kernel takes at a time: 16
// with AVX-512, 8 with AVX, 0 without either (tests narrow it).
var gemvRows = func() int {
	switch {
	case xcpu.X86.HasAVX512F:
		return 16
	case xcpu.X86.HasAVX:
		return 8
	}
	return 0
}()

// gemvAsm computes the row sums of dotRowsContiguous for a prefix of the
// rows, gemvRows at a time, in assembly, and returns how many rows it did
// (0 for other types or without AVX). The assembly sums whole blocks of
// gemvRows contracting indices; the rest of each row is added here, in
// order.
func gemvAsm[T any](x []T, starts dotOffsets, k int, v, out []T) int {
	o, ok := any(out).([]float32)
	n := gemvRows
	if !ok || n == 0 || starts.table != nil || k < n {
		return 0
	}
	kernel := gemvF32AVX8
	if n == 16 {
		kernel = gemvF32AVX512x16
	}
	xs, vs := any(x).([]float32), any(v).([]float32)[:k]
	rows, blocks, ld := starts.n/n*n, k/n, starts.stride
	for r := 0; r < rows; r += n {
		row0 := starts.at(r)
		_, _ = xs[row0+(n-1)*ld+k-1], o[r+n-1]
		kernel(blocks, &xs[row0], ld, &vs[0], &o[r])
		for i := range n {
			acc, row := o[r+i], xs[row0+i*ld:][:k]
			for kk := blocks * n; kk < k; kk++ {
				acc += float32(row[kk] * vs[kk])
			}
			o[r+i] = acc
		}
	}
	return rows
}

//go:noescape
func axpyF32AVX(out, x *float32, w float32, n int)

//go:noescape
func axpyF64AVX(out, x *float64, w float64, n int)

// axpyAsm does out[i] += T(x[i]*w) for a prefix of out in assembly and
// returns its length (0 for other types or without AVX).
func axpyAsm[T any](out, x []T, w T) int {
	if !reduceHasAVX {
		return 0
	}
	switch o := any(out).(type) {
	case []float32:
		n := len(o) &^ 31
		if n > 0 {
			v := any(x).([]float32)[:n]
			axpyF32AVX(&o[0], &v[0], any(w).(float32), n)
		}
		return n
	case []float64:
		n := len(o) &^ 15
		if n > 0 {
			v := any(x).([]float64)[:n]
			axpyF64AVX(&o[0], &v[0], any(w).(float64), n)
		}
		return n
	}
	return 0
}

//go:noescape
func outerRowsF32AVX(out, y, a *float32, aStride, rows, n int)

//go:noescape
func outerRowsF64AVX(out, y, a *float64, aStride, rows, n int)

// outerRowsAsm writes out[r*n+j] = T(y[j]*a[r*aStride]) + 0 for r < rows
// and the columns j of a prefix of each row, in assembly, and returns the
// prefix's length (0 for other types or without AVX). n is len(y).
func outerRowsAsm[T any](out, y, a []T, aStride, rows int) int {
	n := len(y)
	if !reduceHasAVX || rows == 0 {
		return 0
	}
	// Bounds the assembly cannot check.
	_ = out[rows*n-1]
	_ = a[(rows-1)*aStride]
	switch o := any(out).(type) {
	case []float32:
		done := n &^ 7
		if done > 0 {
			outerRowsF32AVX(&o[0], &any(y).([]float32)[0], &any(a).([]float32)[0], aStride, rows, n)
		}
		return done
	case []float64:
		done := n &^ 3
		if done > 0 {
			outerRowsF64AVX(&o[0], &any(y).([]float64)[0], &any(a).([]float64)[0], aStride, rows, n)
		}
		return done
	}
	return 0
}

func dotCPUID(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

func dotXGETBV() (eax, edx uint32)

// The kernels this machine can run, widest first.
var gemmFloat32Available, gemmFloat64Available = detectGemmKernels()

// detectGemmKernels asks x/sys/cpu, which checks both the CPU's feature
// bits and that the OS saves the wider registers.
func detectGemmKernels() (f32 []gemmKernel[float32], f64 []gemmKernel[float64]) {
	if xcpu.X86.HasAVX512F {
		f32 = append(f32, asmKernel(64, 64, gemmF32AVX512x64), asmKernel(32, 64, gemmF32AVX512x32))
		f64 = append(f64, asmKernel(32, 64, gemmF64AVX512x32), asmKernel(16, 64, gemmF64AVX512x16))
	}
	if xcpu.X86.HasAVX2 && xcpu.X86.HasFMA {
		f32 = append(f32, asmKernel(16, 32, gemmF32AVX2x16))
		f64 = append(f64, asmKernel(8, 32, gemmF64AVX2x8))
	}
	return f32, f64
}

// asmKernel wraps an assembly tile function of gemmRows rows and nr
// columns on vecBytes-wide vectors, checking the slices are long enough
// before handing their pointers over.
func asmKernel[T float32 | float64](nr, vecBytes int, fn func(kc int, a *T, lda int, b *T, ldb int, c *T, ldc int, accumulate bool, next int)) gemmKernel[T] {
	const mr = gemmRows
	return gemmKernel[T]{nr: nr, vecBytes: vecBytes, tile: func(kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, accumulate bool, next int) {
		_, _, _ = a[(mr-1)*lda+kc-1], b[(kc-1)*ldb+nr-1], c[(mr-1)*ldc+nr-1]
		var t T
		fn(kc, &a[0], lda, &b[0], ldb, &c[0], ldc, accumulate, next*int(unsafe.Sizeof(t)))
	}}
}
