package cpu

import (
	"math"

	"github.com/jaxsh/jaxsh/cpu/vmath"
)

// erfInv32Block is XLA's float32 erf_inv, which jax.random.normal's bits
// depend on (normal is sqrt(2) * erf_inv(uniform in (-1, 1))): M. Giles'
// single-precision approximation, "Approximating the erfinv function"
// (GPU Computing Gems, 2010), evaluated as XLA's ErfInv32 does — w =
// -log1p(-x*x), then a degree-8 polynomial in w-2.5 (w < 5) or sqrt(w)-3 —
// in float32 with plain multiply-adds. A correctly rounded erf_inv differs
// from it in the last bits for most inputs, and so would every normal
// sample. Its error is within a few ulp of the exact function.
func erfInv32Block(dst, x []float32) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = erfInv32(v)
	}
}

var (
	erfInvCentral = [...]float32{
		2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
		-0.00125372503, -0.00417768164, 0.246640727, 1.50140941,
	}
	erfInvTail = [...]float32{
		-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
		-0.0076224613, 0.00943887047, 1.00167406, 2.83297682,
	}
)

func erfInv32(x float32) float32 {
	if x == 1 || x == -1 {
		return float32(math.Inf(int(x)))
	}
	w := -vmath.Log1p32(-x * x)
	coef := &erfInvCentral
	if w < 5 {
		w -= 2.5
	} else {
		coef = &erfInvTail
		w = float32(math.Sqrt(float64(w))) - 3
	}
	p := coef[0]
	for _, c := range coef[1:] {
		p = c + float32(p*w) // the conversion forbids fusing into an FMA (Go may on arm64)
	}
	// Outside [-1, 1], log1p of a negative below -1 is nan and so is p.
	return p * x
}
