package cpu

// Vector kernels for the hottest float block ops. simdBinary, simdUnary
// and friends wrap a Go loop: on machines with a kernel for the op and
// element type (elementwise_simd_amd64.go) the wrapper runs the kernel over
// the longest whole-vector prefix of the run and the Go loop over the
// rest; elsewhere they return the Go loop itself. Kernels compute the same
// IEEE operations per element as the loops, so results are bit-identical
// either way (elementwise_simd_test.go checks this).

// A simdKind names the operation a vector kernel computes.
type simdKind uint8

const (
	simdAdd simdKind = iota
	simdSub
	simdMul
	simdDiv
	simdMax // XLA's max: NaN propagates, ties keep the first operand
	simdMin
	simdNeg
	simdSquare
	simdAbs
	simdConvert // convert_element_type, element by element
)

// simdOn switches the kernels at run time; tests clear it to force the Go
// loops.
var simdOn = true

// simdBinary returns f, or f backed by the kernel for kind on T.
func simdBinary[T any](kind simdKind, f func(dst, x, y []T)) func(dst, x, y []T) {
	asm, step := binaryAsm[T](kind)
	if asm == nil {
		return f
	}
	return func(dst, x, y []T) {
		n := 0
		if simdOn {
			n = len(dst) &^ (step - 1)
		}
		if n > 0 {
			asm(&dst[0], &x[:n][0], &y[:n][0], n)
		}
		if n < len(dst) {
			f(dst[n:], x[n:len(dst)], y[n:len(dst)])
		}
	}
}

// simdUnary returns f, or f backed by the kernel for kind from T to R.
func simdUnary[T, R any](kind simdKind, f func(dst []R, x []T)) func(dst []R, x []T) {
	asm, step := unaryAsm[T, R](kind)
	if asm == nil {
		return f
	}
	return func(dst []R, x []T) {
		n := 0
		if simdOn {
			n = len(dst) &^ (step - 1)
		}
		if n > 0 {
			asm(&dst[0], &x[:n][0], n)
		}
		if n < len(dst) {
			f(dst[n:], x[n:len(dst)])
		}
	}
}

// simdIntegerPow backs integer_pow with y = 2, which is x*x (integerPow
// squares once and takes that), with the square kernel.
func simdIntegerPow[T numElem](y int, f func(dst, x []T)) func(dst, x []T) {
	if y != 2 {
		return f
	}
	return simdUnary(simdSquare, f)
}
