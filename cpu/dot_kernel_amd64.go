package cpu

// Assembly matmul micro-kernels (dot_kernel_amd64.s) for float32 and
// float64, chosen at start-up by what the CPU and OS support: AVX-512 (8
// rows × 32 float32 or 16 float64 columns), else AVX2 (6 × 16 or 6 × 8),
// else none (the portable Go kernel).

//go:noescape
func gemmTileF32AVX2(kc int, a, b, c *float32, ldc int, accumulate bool)

//go:noescape
func gemmTileF32AVX512(kc int, a, b, c *float32, ldc int, accumulate bool)

//go:noescape
func gemmTileF64AVX2(kc int, a, b, c *float64, ldc int, accumulate bool)

//go:noescape
func gemmTileF64AVX512(kc int, a, b, c *float64, ldc int, accumulate bool)

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

func dotCPUID(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

func dotXGETBV() (eax, edx uint32)

// The kernels this machine can run, fastest first.
var gemmFloat32Available, gemmFloat64Available = detectGemmKernels()

func detectGemmKernels() (f32 []gemmKernel[float32], f64 []gemmKernel[float64]) {
	maxLeaf, _, _, _ := dotCPUID(0, 0)
	if maxLeaf < 7 {
		return nil, nil
	}
	_, _, ecx1, _ := dotCPUID(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return nil, nil
	}
	xcr0, _ := dotXGETBV()
	_, ebx7, _, _ := dotCPUID(7, 0)
	const avx2, avx512f = 1 << 5, 1 << 16
	// XCR0: SSE and AVX state (bits 1, 2); opmask and upper ZMM state (5-7).
	if ebx7&avx512f != 0 && xcr0&0xe6 == 0xe6 {
		f32 = append(f32, asmKernel(8, 32, gemmTileF32AVX512))
		f64 = append(f64, asmKernel(8, 16, gemmTileF64AVX512))
	}
	if ebx7&avx2 != 0 && xcr0&0x6 == 0x6 {
		f32 = append(f32, asmKernel(6, 16, gemmTileF32AVX2))
		f64 = append(f64, asmKernel(6, 8, gemmTileF64AVX2))
	}
	return f32, f64
}

// asmKernel wraps an assembly tile function, checking the slices are long
// enough before handing their pointers over.
func asmKernel[T float32 | float64](mr, nr int, fn func(kc int, a, b, c *T, ldc int, accumulate bool)) gemmKernel[T] {
	return gemmKernel[T]{mr: mr, nr: nr, tile: func(kc int, a, b, c []T, ldc int, accumulate bool) {
		_, _, _ = a[mr*kc-1], b[nr*kc-1], c[(mr-1)*ldc+nr-1]
		fn(kc, &a[0], &b[0], &c[0], ldc, accumulate)
	}}
}
