package vmath

import "math"

// Inverse trigonometric functions, in float64.
//
// asin: for a = |x| ≤ ½, asin a = a + a³·P(a²). Above ½,
// asin a = π/2 − 2·asin(s) with s = √((1−a)/2) ≤ ½, the same polynomial;
// 1 − a is exact there, so precision holds up to a = 1. acos reuses both
// pieces: acos x = π/2 − asin x for |x| ≤ ½, 2·asin(s) for x > ½ and
// π − 2·asin(s) for x < −½.
//
// atan: with a = |x|, t = min(a,1)/max(a,1) ∈ [0, 1], atan a = atan t or
// π/2 − atan t, atan t from one polynomial. atan2 is the same on |y|, |x|
// followed by the quadrant fix-ups.
//
// The two branches are chosen per element by masks (selectFloat), not by
// jumps: on mixed data a jump mispredicts about half the time.

// selectFloat returns a if c, else b, without a branch: the compiler
// turns the integer form into a conditional move.
func selectFloat(c bool, a, b float64) float64 {
	ab, bb := math.Float64bits(a), math.Float64bits(b)
	if c {
		bb = ab
	}
	return math.Float64frombits(bb)
}

// ordered returns a and b in increasing order. The operands are never
// NaN here, so it skips the builtin min and max's NaN and signed-zero
// handling, which costs a dozen instructions each.
func ordered(a, b float64) (lo, hi float64) {
	return selectFloat(a < b, a, b), selectFloat(a < b, b, a)
}

// asinReduced is asin s for |s| ≤ ½, given z = s².
func asinReduced(s, z float64) float64 {
	return s + s*z*(asinPoly[0]+z*(asinPoly[1]+z*(asinPoly[2]+z*(asinPoly[3]+z*(asinPoly[4]+z*asinPoly[5])))))
}

func unitFast(x []float32) int { return prefixAbsAtMost(x, 1) }

func asinLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		// The polynomial's argument is s = a (small) or √((1−a)/2)
		// (large), with z = s². (Written out in acosLanes too: as a
		// helper it would exceed the inliner's budget.)
		a := absWide(b)
		large := a > 0.5
		z := selectFloat(large, (1-a)*0.5, a*a)
		p := asinReduced(selectFloat(large, math.Sqrt(z), a), z)
		dst[i] = withSignBit(float32(selectFloat(large, math.Pi/2-2*p, p)), b)
	}
}

// Asin32 returns asin x; NaN for |x| > 1.
func Asin32(x float32) float32 {
	if -1 <= x && x <= 1 {
		var out [1]float32
		asinLanes(out[:], []float32{x})
		return out[0]
	}
	return float32(math.NaN())
}

// Asin sets dst[i] = asin x[i].
func Asin(dst, x []float32) { unary(dst, x, unitFast, asinLanes, Asin32) }

func acosLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		a := absWide(b) // as in asinLanes
		large := a > 0.5
		z := selectFloat(large, (1-a)*0.5, a*a)
		p := asinReduced(selectFloat(large, math.Sqrt(z), a), z)
		// Large |x|: 2p for x > 0, π − 2p for x < 0. Small: π/2 − asin x.
		negative := b>>31 != 0
		largeResult := selectFloat(negative, math.Pi-2*p, 2*p)
		dst[i] = float32(selectFloat(large, largeResult, math.Pi/2-selectFloat(negative, -p, p)))
	}
}

// Acos32 returns acos x; NaN for |x| > 1.
func Acos32(x float32) float32 {
	if -1 <= x && x <= 1 {
		var out [1]float32
		acosLanes(out[:], []float32{x})
		return out[0]
	}
	return float32(math.NaN())
}

// Acos sets dst[i] = acos x[i].
func Acos(dst, x []float32) { unary(dst, x, unitFast, acosLanes, Acos32) }

// atanTail is (atan t − t)/t³ as a polynomial in z = t². Two interleaved
// Horner chains (even and odd coefficients in z²) halve the dependency
// chain of this long polynomial.
func atanTail(z float64) float64 {
	z2 := z * z
	even := atanPoly[0] + z2*(atanPoly[2]+z2*(atanPoly[4]+z2*(atanPoly[6]+z2*atanPoly[8])))
	odd := atanPoly[1] + z2*(atanPoly[3]+z2*(atanPoly[5]+z2*(atanPoly[7]+z2*atanPoly[9])))
	return even + z*odd
}

func atanLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		a := absWide(b)
		lo, hi := ordered(a, 1)
		t := lo / hi
		z := t * t
		p := t + t*z*atanTail(z)
		dst[i] = withSignBit(float32(selectFloat(a > 1, math.Pi/2-p, p)), b)
	}
}

// Atan32 returns atan x.
func Atan32(x float32) float32 {
	if -math.MaxFloat32 <= x && x <= math.MaxFloat32 {
		var out [1]float32
		atanLanes(out[:], []float32{x})
		return out[0]
	}
	if x != x {
		return x
	}
	return withSignOf(math.Pi/2, x)
}

// Atan sets dst[i] = atan x[i].
func Atan(dst, x []float32) { unary(dst, x, finiteFast, atanLanes, Atan32) }

// atan2Fast accepts chunks where x and y are finite and no pair is (±0, ±0):
// the zero-over-zero and infinite cases have their own rules.
func atan2Fast(y, x []float32) int {
	x = x[:len(y)]
	for i := 0; i+chunk <= len(y); i += chunk {
		var worst uint32
		least := uint32(math.MaxUint32)
		for j := i; j < i+chunk; j++ {
			ay, ax := math.Float32bits(y[j])&0x7fffffff, math.Float32bits(x[j])&0x7fffffff
			worst = max(worst, ay, ax)
			least = min(least, ay|ax)
		}
		if worst >= 0x7f800000 || least == 0 {
			return i
		}
	}
	return len(y) - len(y)%chunk
}

func atan2Lanes(dst, y, x []float32) {
	dst = dst[:len(x)]
	yb := float32Bits(y[:len(x)])
	for i, xb := range float32Bits(x) {
		ay, ax := absWide(yb[i]), absWide(xb)
		lo, hi := ordered(ay, ax)
		t := lo / hi
		z := t * t
		p := t + t*z*atanTail(z)
		p = selectFloat(ay > ax, math.Pi/2-p, p)
		p = selectFloat(xb>>31 != 0, math.Pi-p, p)
		dst[i] = withSignBit(float32(p), yb[i])
	}
}

// Atan2_32 returns atan2(y, x), the angle of the point (x, y), with C99's
// rules for zeros and infinities.
func Atan2_32(y, x float32) float32 {
	ay, ax := math.Float32bits(y)&0x7fffffff, math.Float32bits(x)&0x7fffffff
	if ay < 0x7f800000 && ax < 0x7f800000 && ay|ax != 0 { // as atan2Fast
		var out [1]float32
		atan2Lanes(out[:], []float32{y}, []float32{x})
		return out[0]
	}
	return atan2Special(y, x)
}

// atan2Special handles NaNs, infinities and (±0, ±0).
func atan2Special(y, x float32) float32 {
	const pi, halfPi, quarterPi = float32(math.Pi), float32(math.Pi / 2), float32(math.Pi / 4)
	xNeg := math.Signbit(float64(x))
	switch {
	case x != x || y != y:
		return float32(math.NaN())
	case y == 0:
		if xNeg {
			return withSignOf(pi, y)
		}
		return y
	case math.IsInf(float64(x), 0):
		if math.IsInf(float64(y), 0) {
			if xNeg {
				return withSignOf(3*quarterPi, y)
			}
			return withSignOf(quarterPi, y)
		}
		if xNeg {
			return withSignOf(pi, y)
		}
		return withSignOf(0, y)
	default: // y infinite, or x = ±0 with y ≠ 0
		return withSignOf(halfPi, y)
	}
}

// Atan2 sets dst[i] = atan2(y[i], x[i]). All three slices must have equal
// lengths.
func Atan2(dst, y, x []float32) { binary(dst, y, x, atan2Fast, atan2Lanes, Atan2_32) }
