package arrayfmt

import "math"

// float16ToFloat64 converts IEEE 754 binary16 bits to the float64 of the same
// value. Every float16 is exactly representable as a float64, so this is exact.
func float16ToFloat64(bits uint16) float64 {
	sign := 1.0
	if bits&0x8000 != 0 {
		sign = -1.0
	}
	exponent := int(bits>>10) & 0x1f
	mantissa := float64(bits & 0x3ff)
	switch exponent {
	case 0x1f:
		if mantissa != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	case 0:
		// Subnormal (or zero): mantissa × 2^-24, sign kept so -0 stays -0.
		return sign * math.Ldexp(mantissa, -24)
	default:
		return sign * math.Ldexp(1024+mantissa, exponent-25)
	}
}

// float64ToFloat16 rounds a float64 to the nearest binary16, ties to even, as
// an IEEE conversion does. It is used to test whether a short decimal reads
// back as the same float16 (shortest-digit search) and to reproduce NumPy's
// float16 arithmetic in the scientific-notation decision.
func float64ToFloat16(f float64) uint16 {
	var sign uint16
	if math.Signbit(f) {
		sign = 0x8000
	}
	a := math.Abs(f)
	switch {
	case math.IsNaN(f):
		return sign | 0x7e00
	case a >= 65520:
		// 65520 is the midpoint between 65504 (odd mantissa) and 2^16, so it
		// and everything above rounds to infinity.
		return sign | 0x7c00
	case a < 0x1p-14:
		// Subnormal range: a multiple of 2^-24. Rounding up to 1024 yields the
		// smallest normal's encoding, which is what the bit layout wants.
		return sign | uint16(math.RoundToEven(a*0x1p24))
	}
	frac, exp := math.Frexp(a) // a = frac × 2^exp, frac in [0.5, 1)
	mantissa := math.RoundToEven((frac*2 - 1) * 1024)
	biased := exp - 1 + 15
	if mantissa == 1024 {
		mantissa = 0
		biased++
	}
	if biased >= 0x1f {
		return sign | 0x7c00
	}
	return sign | uint16(biased)<<10 | uint16(mantissa)
}

// bfloat16ToFloat64 converts bfloat16 bits (the top half of a float32) to
// float64; exact.
func bfloat16ToFloat64(bits uint16) float64 {
	return float64(math.Float32frombits(uint32(bits) << 16))
}
