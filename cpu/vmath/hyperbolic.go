package vmath

import "math"

// The hyperbolic functions and their inverses are built from the exp and
// log kernels in float64, in forms that never cancel: with a = |x| and
// e = expm1(±a),
//
//	tanh x  = e/(e+2),             e = expm1(2x), either sign
//	sinh a  = (e + e/(e+1))/2,     e = expm1(a)
//	cosh a  = (E + 1/E)/2,         E = exp(a)
//	asinh a = log1p(a + a²/(1 + √(1+a²)))
//	acosh x = log1p(t + √(t·(t+2))),  t = x − 1 (exact)
//	atanh a = log1p(2a/(1−a))/2
//
// and the odd functions take x's sign at the end, which also gives ±0.

// tanhFastLimit keeps 2x within the expm1 kernel's range (e stays below
// 2^217, so e/(e+2) cannot become Inf/Inf); beyond it tanh is ±1 in float32
// anyway. For x < 0, e ∈ (−1, 0) and e+2 ∈ (1, 2): no cancellation either
// way, and working on x rather than |x| saves moving it to an integer
// register and back.
const tanhFastLimit = 75

func tanhFast(x []float32) int { return prefixAbsAtMost(x, tanhFastLimit) }

func tanhLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		a := 2 * xd
		scale, n := expReduce(a * (expTableSize / math.Ln2))
		e := scale*expm1Reduced(a-n*(math.Ln2/expTableSize)) + (scale - 1)
		dst[i] = signOf64(float32(e/(e+2)), xd)
	}
}

// Tanh32 returns tanh x.
func Tanh32(x float32) float32 {
	if -tanhFastLimit <= x && x <= tanhFastLimit {
		var out [1]float32
		tanhLanes(out[:], []float32{x})
		return out[0]
	}
	if x != x {
		return x
	}
	return withSignOf(1, x)
}

// Tanh sets dst[i] = tanh x[i].
func Tanh(dst, x []float32) { unary(dst, x, tanhFast, tanhLanes, Tanh32) }

// sinh and cosh share exp's fast range: beyond ±150 they have overflowed.

func sinhLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		a := absWide(b)
		scale, n := expReduce(a * (expTableSize / math.Ln2))
		e := scale*expm1Reduced(a-n*(math.Ln2/expTableSize)) + (scale - 1)
		dst[i] = withSignBit(float32(0.5*(e+e/(e+1))), b)
	}
}

// Sinh32 returns sinh x.
func Sinh32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		var out [1]float32
		sinhLanes(out[:], []float32{x})
		return out[0]
	}
	if x != x {
		return x
	}
	return withSignOf(float32(math.Inf(1)), x)
}

// Sinh sets dst[i] = sinh x[i].
func Sinh(dst, x []float32) { unary(dst, x, expFast, sinhLanes, Sinh32) }

func coshLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		e := expKernel(absWide(b))
		dst[i] = float32(0.5 * (e + 1/e))
	}
}

// Cosh32 returns cosh x.
func Cosh32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		var out [1]float32
		coshLanes(out[:], []float32{x})
		return out[0]
	}
	if x != x {
		return x
	}
	return float32(math.Inf(1))
}

// Cosh sets dst[i] = cosh x[i].
func Cosh(dst, x []float32) { unary(dst, x, expFast, coshLanes, Cosh32) }

// finiteFast accepts every finite value, subnormals and zeros included.
func finiteFast(x []float32) int { return prefixAbsAtMost(x, math.MaxFloat32) }

func asinhLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		a := absWide(b) // a² cannot overflow: a < 2^128
		u, c := log1pSplit(a + a*a/(1+math.Sqrt(1+a*a)))
		k, logC, r := logParts(u)
		dst[i] = withSignBit(float32(k*math.Ln2+logZ(logC, r)+c), b)
	}
}

// Asinh32 returns asinh x.
func Asinh32(x float32) float32 {
	if -math.MaxFloat32 <= x && x <= math.MaxFloat32 {
		var out [1]float32
		asinhLanes(out[:], []float32{x})
		return out[0]
	}
	return x // ±Inf, NaN
}

// Asinh sets dst[i] = asinh x[i].
func Asinh(dst, x []float32) { unary(dst, x, finiteFast, asinhLanes, Asinh32) }

// acoshFast accepts x in [1, MaxFloat32].
func acoshFast(x []float32) int { return prefixPositiveIn(x, 0x3f800000, 0x7f7fffff) }

func acoshLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		t := float64(v) - 1
		u, c := log1pSplit(t + math.Sqrt(t*(t+2)))
		k, logC, r := logParts(u)
		dst[i] = float32(k*math.Ln2 + logZ(logC, r) + c)
	}
}

// Acosh32 returns acosh x; NaN for x < 1.
func Acosh32(x float32) float32 {
	if 1 <= x && x <= math.MaxFloat32 {
		var out [1]float32
		acoshLanes(out[:], []float32{x})
		return out[0]
	}
	if x < 1 {
		return float32(math.NaN())
	}
	return x // +Inf, NaN
}

// Acosh sets dst[i] = acosh x[i].
func Acosh(dst, x []float32) { unary(dst, x, acoshFast, acoshLanes, Acosh32) }

// atanhFastMax is the largest float32 below 1.
var atanhFastMax = math.Nextafter32(1, 0)

func atanhFast(x []float32) int { return prefixAbsAtMost(x, atanhFastMax) }

func atanhLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		a := absWide(b)
		u, c := log1pSplit(2 * a / (1 - a))
		k, logC, r := logParts(u)
		dst[i] = withSignBit(float32(0.5*(k*math.Ln2+logZ(logC, r)+c)), b)
	}
}

// Atanh32 returns atanh x: ±Inf at ±1, NaN beyond.
func Atanh32(x float32) float32 {
	if -atanhFastMax <= x && x <= atanhFastMax {
		var out [1]float32
		atanhLanes(out[:], []float32{x})
		return out[0]
	}
	switch {
	case x == 1 || x == -1:
		return withSignOf(float32(math.Inf(1)), x)
	default: // |x| > 1, NaN
		return float32(math.NaN())
	}
}

// Atanh sets dst[i] = atanh x[i].
func Atanh(dst, x []float32) { unary(dst, x, atanhFast, atanhLanes, Atanh32) }
