package vmath

import (
	"math"
	"math/big"

	"github.com/jaxsh/jaxsh/cpu/vmath/internal/bigpi"
)

// The float64 references of package math lose relative accuracy where
// sin, cos or tan of a huge argument is near zero (math's Payne–Hanek keeps
// about 64 bits of the reduced argument), so for |x| ≥ 2^29 the tests
// reduce exactly here, with big integers, and evaluate math's functions on
// the small reduced argument.

// exactFracBits is how many fraction bits of x·2^scale/π exactReduce
// keeps: truncating 1/π there errs by under 2^(129−200) for float32 x,
// against reduced arguments no smaller than 2^-32.
const exactFracBits = 200

var (
	// invPiExact is floor(2^exactFracBits / π).
	invPiExact = new(big.Int).Div(new(big.Int).Lsh(big.NewInt(1), exactFracBits+400), bigpi.Fixed(400))
	halfExact  = new(big.Int).Lsh(big.NewInt(1), exactFracBits-1)
)

// exactReduce returns, for finite nonzero float32 x with |x| ≥ 1, the low
// bit of n and f = t − n, where t = x·2^scale/π − (½ if half) and n is t
// rounded to nearest.
func exactReduce(x float32, scale uint, half bool) (uint64, float64) {
	b := math.Float32bits(x)
	e := int(b>>23&0xff) - 150 // |x| = m·2^e
	t := new(big.Int).Mul(big.NewInt(int64(b&0x7fffff|0x800000)), invPiExact)
	if shift := e + int(scale); shift >= 0 {
		t.Lsh(t, uint(shift))
	} else {
		t.Rsh(t, uint(-shift)) // drops bits far below float64 precision
	}
	if b>>31 != 0 {
		t.Neg(t)
	}
	if half {
		t.Sub(t, halfExact)
	}
	n := new(big.Int).Add(t, halfExact)
	n.Rsh(n, exactFracBits) // floor(t + ½)
	t.Sub(t, new(big.Int).Lsh(n, exactFracBits))
	f, _ := new(big.Float).SetInt(t).Float64()
	return uint64(n.Bit(0)), math.Ldexp(f, -exactFracBits)
}

// exactSin, exactCos and exactTan are math's functions, reduced exactly
// first for |x| ≥ 2^29.
func exactSin(x float64) float64 {
	if !(math.Abs(x) >= 0x1p29) || math.IsInf(x, 0) {
		return math.Sin(x)
	}
	n, f := exactReduce(float32(x), 0, false)
	return math.Copysign(1, 0.5-float64(n)) * math.Sin(math.Pi*f)
}

func exactCos(x float64) float64 {
	if !(math.Abs(x) >= 0x1p29) || math.IsInf(x, 0) {
		return math.Cos(x)
	}
	n, f := exactReduce(float32(x), 0, true)
	return -math.Copysign(1, 0.5-float64(n)) * math.Sin(math.Pi*f)
}

func exactTan(x float64) float64 {
	if !(math.Abs(x) >= 0x1p29) || math.IsInf(x, 0) {
		return math.Tan(x)
	}
	n, f := exactReduce(float32(x), 1, false)
	if n == 1 {
		return -1 / math.Tan(math.Pi/2*f)
	}
	return math.Tan(math.Pi / 2 * f)
}
