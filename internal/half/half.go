// Package half converts between float32/float64 and the two 16-bit float
// formats jaxsh stores: IEEE 754 binary16 (float16) and bfloat16 (the top
// half of a float32). Conversions to 16 bits round to nearest, ties to even,
// as IEEE conversions and NumPy / ml_dtypes do; NaNs stay NaN (quieted).
package half

import "math"

// Float16ToFloat32 returns the float32 with the same value as the binary16
// bits h; every float16 is exactly a float32.
func Float16ToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f: // inf or nan, payload kept
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
	case mant == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: mant × 2^-24, exact in float32.
	v := float32(mant) * 0x1p-24
	if sign != 0 {
		return -v
	}
	return v
}

// Float16FromFloat32 rounds f to the nearest float16.
func Float16FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return sign | 0x7e00 | uint16(mant>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 112 // the float16 biased exponent
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		// Result is subnormal or zero: count units of 2^-24.
		shift := uint(14 - e)
		if exp == 0 || shift > 25 {
			return sign // below half the smallest subnormal
		}
		return sign | uint16(roundShift(mant|0x800000, shift))
	}
	// Normal: a carry out of the mantissa bumps the exponent, and out of the
	// largest exponent gives infinity — both what the encoding wants.
	return sign | uint16(roundShift(uint32(e)<<23|mant, 13))
}

// roundShift returns m >> shift rounded to nearest, ties to even.
func roundShift(m uint32, shift uint) uint32 {
	q := m >> shift
	rem := m & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rem > half || (rem == half && q&1 == 1) {
		q++
	}
	return q
}

// Float16FromFloat64 rounds f to the nearest float16 in one rounding.
func Float16FromFloat64(f float64) uint16 { return Float16FromFloat32(toOddFloat32(f)) }

// BFloat16ToFloat32 returns the float32 with the same value as bfloat16 b.
func BFloat16ToFloat32(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// BFloat16FromFloat32 rounds f to the nearest bfloat16.
func BFloat16FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// BFloat16FromFloat64 rounds f to the nearest bfloat16 in one rounding.
func BFloat16FromFloat64(f float64) uint16 { return BFloat16FromFloat32(toOddFloat32(f)) }

// toOddFloat32 converts f to float32 rounding to odd: an inexact result is
// the truncation with its last bit set. Rounding to odd into a format with at
// least two more bits than the final one makes the second rounding (to
// float16 or bfloat16) give the correctly rounded result — a plain
// float32(f) would round twice and can be off by one ulp on ties.
func toOddFloat32(f float64) float32 {
	r := float32(f)
	if math.IsNaN(f) || float64(r) == f {
		return r
	}
	b := math.Float32bits(r)
	if math.Abs(float64(r)) > math.Abs(f) {
		b-- // step back towards zero: now the truncation
	}
	return math.Float32frombits(b | 1)
}
