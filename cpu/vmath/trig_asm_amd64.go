//go:build amd64 && !goexperiment.simd

package vmath

// Hand-written AVX kernels for sin and cos (trig_asm_amd64.s), for default
// builds; GOEXPERIMENT=simd builds use simd_amd64.go instead. They perform
// exactly the float64 operations of sinLanes and cosLanes, in the same
// order and without fused multiply-adds, on 4 elements at a time, so the
// slice forms give the same bits as the portable kernels (and as the
// scalar forms, which keep using those): trig_asm_amd64_test.go checks
// this. Only the range the slice forms send to the kernels (|x| < 2^24)
// reaches them; the driver handles the rest per element as before.

//go:noescape
func sinLanesAVXAsm(dst, x *float32, n int, k *[9]float64)

//go:noescape
func cosLanesAVXAsm(dst, x *float32, n int, k *[9]float64)

func trigCPUID(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

func trigXGETBV() (eax, edx uint32)

// trigAsmConsts are the kernels' constants: the reduction, the polynomial,
// and ½ for cos.
var trigAsmConsts = [9]float64{invPi1, invPi2, roundShift,
	sinPiPoly[0], sinPiPoly[1], sinPiPoly[2], sinPiPoly[3], sinPiPoly[4], 0.5}

var trigHasAVX = func() bool {
	_, _, ecx1, _ := trigCPUID(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	xcr0, _ := trigXGETBV()
	return xcr0&0x6 == 0x6 // the OS saves SSE and AVX state
}()

func sinLanesAsm(dst, x []float32) {
	dst = dst[:len(x)]
	n := len(x) &^ 3
	if n > 0 {
		sinLanesAVXAsm(&dst[0], &x[0], n, &trigAsmConsts)
	}
	sinLanes(dst[n:], x[n:])
}

func cosLanesAsm(dst, x []float32) {
	dst = dst[:len(x)]
	n := len(x) &^ 3
	if n > 0 {
		cosLanesAVXAsm(&dst[0], &x[0], n, &trigAsmConsts)
	}
	cosLanes(dst[n:], x[n:])
}

func init() {
	if trigHasAVX {
		sinSliceKernel = sinLanesAsm
		cosSliceKernel = cosLanesAsm
	}
}
