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
	// expFastLimit bounds |x| on the fast path. exp(±150) is far outside
	// float32's range, so results there already round to +Inf or 0, and
	// 2^k stays a normal float64.
	expFastLimit = 150
)

// expFastMax is the largest float32 below expFastLimit.
var expFastMax = math.Nextafter32(expFastLimit, 0)

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
// 2^(n/32), n = round(z), and n itself as a float64. Valid for |z| < 2^15
// or so (|x| ≤ 700), where 2^(n/32) is a normal float64.
func expReduce(z float64) (scale, n float64) {
	shifted := z + roundShift
	bits := math.Float64bits(shifted)
	scale = math.Float64frombits(expScaleTable[bits&(expTableSize-1)] + bits<<(52-expTableBits))
	return scale, shifted - roundShift
}

// expReduced is exp(r) for |r| ≤ ln2/64.
func expReduced(r float64) float64 {
	return 1 + r + r*r*(expPoly[0]+r*expPoly[1])
}

// expm1Reduced is exp(r)−1 for |r| ≤ ln2/64, relative to exp(r)−1.
func expm1Reduced(r float64) float64 {
	return r + r*r*(expm1Poly[0]+r*(expm1Poly[1]+r*expm1Poly[2]))
}

// expKernel is exp(x) for |x| ≤ 700.
func expKernel(x float64) float64 {
	scale, n := expReduce(x * (expTableSize / math.Ln2))
	return scale * expReduced(x-n*(math.Ln2/expTableSize))
}

func expFast(x []float32) int { return prefixAbsAtMost(x, expFastMax) }

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

func expLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = float32(expKernel(float64(v)))
	}
}

// Exp32 returns e^x.
func Exp32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		return float32(expKernel(float64(x)))
	}
	return expSpecial(x)
}

// Exp sets dst[i] = e^x[i]. dst and x must have equal lengths; they may be
// the same slice but must not otherwise overlap. The same holds for every
// slice function in the package.
func Exp(dst, x []float32) { unary(dst, x, expFast, expSliceKernel, Exp32) }

// expSliceKernel is the kernel Exp uses: expLanes, or a bit-identical SIMD
// one chosen at start-up in GOEXPERIMENT=simd builds (simd_amd64.go).
var expSliceKernel = expLanes

func exp2Lanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		// Scaling by 32 is exact, so r = x − n/32 is too, and integer x
		// gives r = 0: an exact power of two.
		xd := float64(v)
		scale, n := expReduce(xd * expTableSize)
		dst[i] = float32(scale * expReduced((xd-n*(1.0/expTableSize))*math.Ln2))
	}
}

// Exp2_32 returns 2^x.
func Exp2_32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		var out [1]float32
		exp2Lanes(out[:], []float32{x})
		return out[0]
	}
	return expSpecial(x)
}

// Exp2 sets dst[i] = 2^x[i].
func Exp2(dst, x []float32) { unary(dst, x, expFast, exp2Lanes, Exp2_32) }

// expm1Lanes is exp(x)−1 with small relative error:
// exp(x)−1 = s·q + (s−1), s = 2^(n/32), q = expm1(r). Near zero s = 1 and
// the result is q itself; elsewhere s−1 is exact (Sterbenz) or large
// enough that no cancellation occurs. The float64 arithmetic loses the
// sign of a zero result, so x's sign is copied: expm1 keeps it.
func expm1Lanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		scale, n := expReduce(xd * (expTableSize / math.Ln2))
		e := scale*expm1Reduced(xd-n*(math.Ln2/expTableSize)) + (scale - 1)
		dst[i] = signOf64(float32(e), xd)
	}
}

// Expm1_32 returns e^x − 1, accurate for x near 0.
func Expm1_32(x float32) float32 {
	if -expFastMax <= x && x <= expFastMax {
		var out [1]float32
		expm1Lanes(out[:], []float32{x})
		return out[0]
	}
	if x < 0 {
		return -1
	}
	return expSpecial(x)
}

// Expm1 sets dst[i] = e^x[i] − 1.
func Expm1(dst, x []float32) { unary(dst, x, expFast, expm1Lanes, Expm1_32) }
