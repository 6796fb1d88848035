package vmath

import "math"

// Pow computes exp(y·log|x|) in float64, with log to about 2^-39 (its
// error is multiplied by |y·log x|, up to ~104 before the result leaves
// float32's range) and y·log|x| clamped to ±200, where the result has
// long since rounded to 0 or +Inf. Negative x is on the fast path too: an
// integer y gives the sign (−1)^y, any other y NaN, as C99 requires. Zero,
// infinite and NaN operands go to math.Pow's float64 rules, which are
// C99's (pow(x, ±0) = 1 even for NaN x, pow(1, y) = 1 even for NaN y, and
// so on); float64 represents every float32 exactly, so rounding its result
// gives the float32 answer.

// powFast accepts chunks where every x is finite and nonzero and every y
// finite.
func powFast(x, y []float32) int {
	y = y[:len(x)]
	for i := 0; i+chunk <= len(x); i += chunk {
		var wx, wy uint32
		for j := i; j < i+chunk; j++ {
			wx = max(wx, math.Float32bits(x[j])&0x7fffffff-1) // ±0 wraps to the top
			wy = max(wy, math.Float32bits(y[j])&0x7fffffff)
		}
		if wx >= 0x7f7fffff || wy >= 0x7f800000 {
			return i
		}
	}
	return len(x) - len(x)%chunk
}

// b2u is 1 for true and 0 for false, compiled to a flag move.
func b2u(b bool) uint32 {
	var u uint32
	if b {
		u = 1
	}
	return u
}

func powLanes(dst, x, y []float32) {
	dst = dst[:len(x)]
	yb := float32Bits(y[:len(x)])
	for i, xb := range float32Bits(x) {
		k, logC, r := logParts(absWide(xb))
		t := float64(math.Float32frombits(yb[i])) * (k*math.Ln2 + logPreciseZ(logC, r))
		t = selectFloat(t > 200, 200, selectFloat(t < -200, -200, t))
		e := float32(expKernel(t))
		// Negative x: an odd integer y flips the sign, a non-integer
		// gives NaN (ORing in a quiet NaN's exponent and top bit).
		// Every float32 of magnitude ≥ 2^24 is an even integer; clamping
		// there keeps the rounding trick in range.
		ay := absWide(yb[i])
		ay = selectFloat(ay > 0x1p24, 0x1p24, ay)
		shifted := ay + roundShift
		isInt, low := b2u(shifted-roundShift == ay), uint32(math.Float64bits(shifted))&1
		neg := xb >> 31
		dst[i] = math.Float32frombits((math.Float32bits(e) ^ (neg&isInt&low)<<31) | (neg&^isInt)*0x7fc00000)
	}
}

// Pow32 returns x**y, with C99's special cases.
func Pow32(x, y float32) float32 {
	if math.Float32bits(x)&0x7fffffff-1 < 0x7f7fffff && math.Float32bits(y)&0x7fffffff < 0x7f800000 { // as powFast
		var out [1]float32
		powLanes(out[:], []float32{x}, []float32{y})
		return out[0]
	}
	return float32(math.Pow(float64(x), float64(y)))
}

// Pow sets dst[i] = x[i]**y[i]. All three slices must have equal lengths.
func Pow(dst, x, y []float32) { binary(dst, x, y, powFast, powLanes, Pow32) }

// Sqrt32 returns √x. The compiler turns the float64 round trip into a
// single float32 square root instruction, correctly rounded, so Sqrt needs
// no kernel of its own.
func Sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Sqrt sets dst[i] = √x[i].
func Sqrt(dst, x []float32) {
	checkLen(len(dst), len(x), "x")
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = float32(math.Sqrt(float64(v)))
	}
}

// Cbrt: with |x| = m·2^e in float64 (m ∈ [1, 2), subnormal float32s are
// normal there), e = 3q + j with j ∈ {0, 1, 2}, and
// cbrt|x| = 2^q·cbrt(m·2^j). A cubic gives cbrt m to 2^-13.7, the table
// supplies cbrt(2^j), and one Halley step y·(y³ + 2a)/(2y³ + a) cubes the
// error to below 2^-40.

var cbrtOfPowersOfTwo = [4]float64{1, math.Cbrt(2), math.Cbrt(4)}

func nonzeroFiniteFast(x []float32) int {
	for i := 0; i+chunk <= len(x); i += chunk {
		var worst uint32
		for _, v := range (*[chunk]float32)(x[i:]) {
			worst = max(worst, math.Float32bits(v)&0x7fffffff-1) // ±0 wraps to the top
		}
		if worst >= 0x7f7fffff {
			return i
		}
	}
	return len(x) - len(x)%chunk
}

func cbrtLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		b := math.Float64bits(math.Abs(xd))
		e := int(b>>52) - 1023
		q := (e+3*400)/3 - 400 // floor(e/3): the dividend is kept positive
		j := uint(e-3*q) & 3
		m := math.Float64frombits(b&(1<<52-1) | 1023<<52)
		a := m * float64(uint(1)<<j)
		y := (cbrtPoly[0] + m*(cbrtPoly[1]+m*(cbrtPoly[2]+m*cbrtPoly[3]))) * cbrtOfPowersOfTwo[j]
		y3 := y * y * y
		y *= (y3 + 2*a) / (2*y3 + a)
		dst[i] = signOf64(float32(math.Float64frombits(math.Float64bits(y)+uint64(q)<<52)), xd)
	}
}

// Cbrt32 returns the cube root of x.
func Cbrt32(x float32) float32 {
	if x != 0 && -math.MaxFloat32 <= x && x <= math.MaxFloat32 {
		var out [1]float32
		cbrtLanes(out[:], []float32{x})
		return out[0]
	}
	return x // ±0, ±Inf, NaN
}

// Cbrt sets dst[i] = ∛x[i].
func Cbrt(dst, x []float32) { unary(dst, x, nonzeroFiniteFast, cbrtLanes, Cbrt32) }
