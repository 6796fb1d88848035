package vmath

import "math"

// The exp family works in float64: x = (32·k + j)·ln2/32 + r with
// |r| ≤ ln2/64, so exp(x) = 2^k · 2^(j/32) · exp(r), the last from a short
// polynomial. float64 carries ~2^-30 total error, so rounding the result to
// float32 is within a hair of correct rounding, and float64's exponent range
// covers every float32 result, subnormals and overflow included: the only
// inputs left to a slow path are NaN, ±Inf and |x| beyond expFastLimit.

const (
	expTableBits = 5
	expTableSize = 1 << expTableBits
	// roundShift is 1.5·2^52: adding it rounds a float64 of magnitude below
	// 2^51 to an integer left in the low mantissa bits.
	roundShift = 0x1.8p52
	// expFastLimit bounds |x| on the fast path. exp(±150) is far outside
	// float32's range, so results there already round to +Inf or 0, and
	// 2^k stays a normal float64.
	expFastLimit = 150
)

// expScaleTable[j] is the bit pattern of 2^(j/32) minus j<<47. Adding
// n<<47 for n = 32·k + j then yields the bits of 2^k·2^(j/32) directly:
// the j parts cancel and k lands in the exponent field.
var expScaleTable = func() (t [expTableSize]uint64) {
	for j := range t {
		t[j] = math.Float64bits(math.Exp2(float64(j)/expTableSize)) - uint64(j)<<(52-expTableBits)
	}
	return t
}()

// expReduce splits z = x·32/ln2 (or x·32 for exp2) into the scale
// 2^(n/32), n = round(z), and n itself as a float64.
func expReduce(z float64) (scale, n float64) {
	shifted := z + roundShift
	bits := math.Float64bits(shifted)
	scale = math.Float64frombits(expScaleTable[bits&(expTableSize-1)] + bits<<(52-expTableBits))
	return scale, shifted - roundShift
}

// expKernel is exp(x) for |x| ≤ expFastLimit (and |x| ≤ 700 in general).
func expKernel(x float64) float64 {
	scale, n := expReduce(x * (expTableSize / math.Ln2))
	r := x - n*(math.Ln2/expTableSize)
	return scale * (1 + r + r*r*(expPoly[0]+r*expPoly[1]))
}

// exp2Kernel is 2^x for |x| ≤ expFastLimit; integers give exact powers.
func exp2Kernel(x float64) float64 {
	scale, n := expReduce(x * expTableSize)
	r := (x - n*(1.0/expTableSize)) * math.Ln2
	return scale * (1 + r + r*r*(expPoly[0]+r*expPoly[1]))
}

// expm1Kernel is exp(x)−1 with small relative error for |x| ≤ 700:
// exp(x)−1 = s·q + (s−1), s = 2^(n/32), q = expm1(r). Near zero s = 1 and
// the result is q itself; elsewhere s−1 is exact (Sterbenz) or large
// enough that no cancellation occurs. The sign of a zero result is not
// kept; callers copy x's sign.
func expm1Kernel(x float64) float64 {
	scale, n := expReduce(x * (expTableSize / math.Ln2))
	r := x - n*(math.Ln2/expTableSize)
	q := r + r*r*(expm1Poly[0]+r*(expm1Poly[1]+r*expm1Poly[2]))
	return scale*q + (scale - 1)
}

// withSignOf returns r with the sign bit of x: for functions whose result
// always has x's sign (expm1, log1p, tanh, …) this restores signed zeros
// that float64 arithmetic dropped.
func withSignOf(r, x float32) float32 {
	const sign = 1 << 31
	return math.Float32frombits(math.Float32bits(r)&^sign | math.Float32bits(x)&sign)
}

// expFastMax is the largest float32 below expFastLimit.
var expFastMax = math.Nextafter32(expFastLimit, 0)

// Exp32 returns e^x.
func Exp32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		return float32(expKernel(float64(x)))
	}
	return expSpecial(x)
}

// expSpecial covers NaN, ±Inf and |x| ≥ expFastLimit, for exp, exp2 and
// the positive side of expm1: all saturate to +Inf above and 0 below.
func expSpecial(x float32) float32 {
	switch {
	case x != x:
		return x
	case x > 0:
		return float32(math.Inf(1))
	default:
		return 0
	}
}

// Exp sets dst[i] = e^x[i]. dst and x must have equal lengths; they may be
// the same slice but must not otherwise overlap.
func Exp(dst, x []float32) {
	checkLen(len(dst), len(x))
	x = x[:len(dst)]
	for len(x) >= chunk {
		xs, ds := (*[chunk]float32)(x), (*[chunk]float32)(dst)
		if allAbsAtMost(xs, expFastMax) {
			for j, v := range xs {
				ds[j] = float32(expKernel(float64(v)))
			}
		} else {
			for j, v := range xs {
				ds[j] = Exp32(v)
			}
		}
		x, dst = x[chunk:], dst[chunk:]
	}
	for j, v := range x {
		dst[j] = Exp32(v)
	}
}

// Exp2_32 returns 2^x.
func Exp2_32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		return float32(exp2Kernel(float64(x)))
	}
	return expSpecial(x)
}

// Exp2 sets dst[i] = 2^x[i]; slices as for Exp.
func Exp2(dst, x []float32) {
	checkLen(len(dst), len(x))
	x = x[:len(dst)]
	for len(x) >= chunk {
		xs, ds := (*[chunk]float32)(x), (*[chunk]float32)(dst)
		if allAbsAtMost(xs, expFastMax) {
			for j, v := range xs {
				ds[j] = float32(exp2Kernel(float64(v)))
			}
		} else {
			for j, v := range xs {
				ds[j] = Exp2_32(v)
			}
		}
		x, dst = x[chunk:], dst[chunk:]
	}
	for j, v := range x {
		dst[j] = Exp2_32(v)
	}
}

// Expm1_32 returns e^x − 1, accurate for x near 0.
func Expm1_32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		return withSignOf(float32(expm1Kernel(float64(x))), x)
	}
	if x < 0 {
		return -1
	}
	return expSpecial(x)
}

// Expm1 sets dst[i] = e^x[i] − 1; slices as for Exp.
func Expm1(dst, x []float32) {
	checkLen(len(dst), len(x))
	x = x[:len(dst)]
	for len(x) >= chunk {
		xs, ds := (*[chunk]float32)(x), (*[chunk]float32)(dst)
		if allAbsAtMost(xs, expFastMax) {
			for j, v := range xs {
				ds[j] = withSignOf(float32(expm1Kernel(float64(v))), v)
			}
		} else {
			for j, v := range xs {
				ds[j] = Expm1_32(v)
			}
		}
		x, dst = x[chunk:], dst[chunk:]
	}
	for j, v := range x {
		dst[j] = Expm1_32(v)
	}
}
