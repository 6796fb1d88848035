package vmath

import (
	"math"
	"math/bits"
)

// Sin and cos reduce by π rather than π/2: x/π = n + f with |f| ≤ ½, and
// sin x = (−1)^n·sin(π·f). One odd polynomial in f then serves every
// quadrant, and the sign is an XOR of n's low bit, so the kernel has no
// data-dependent selection. Cos uses x/π − ½ = n + f, where
// cos x = (−1)^(n+1)·sin(π·f); tan reduces x·2/π = n + f.
//
// For |x| < 2^24 the reduction multiplies by 1/π split in two
// (coeffs_gen.go): x·invPi1 is exact, n is its rounding, and
// f = (x·invPi1 − n) + x·invPi2 has absolute error near 2^-59, far below
// what even the float32 closest to a multiple of π needs: a scan of every
// float32 in [1.5, 2^24) finds the smallest |f| = 2^-28.5 at x = 505.79642,
// where f is still good to 2^-47 relative. This is
// Cody–Waite with the constant inverted, and it leaves f, not x − n·π, so
// the polynomials absorb the factor π. Larger finite x take reduceHuge, a
// Payne–Hanek reduction that yields the same n and f.
//
// Rounding n from x·invPi1 alone, rather than from the whole x/π, saves an
// addition but lets |f| exceed ½ by up to |x·invPi2| ≤ 0.0123 (0.0246 for
// tan): the polynomials are fitted over that wider range. An exhaustive run
// caught this; a fit on |f| ≤ ½ alone gave 0.95 ulp near 2^24.

// trigFastLimit bounds |x| for the two-product reduction: n stays below
// 2^23, where x·invPi2 is small enough for its rounding not to matter.
const trigFastLimit = 0x1p24

var trigFastMax = math.Nextafter32(trigFastLimit, 0)

func trigFast(x []float32) int { return prefixAbsAtMost(x, trigFastMax) }

// sinPiReduced is sin(π·f) for |f| ≤ ½. The product form f·(…) keeps the
// sign of f = ±0.
func sinPiReduced(f float64) float64 {
	s := f * f
	return f * (sinPiPoly[0] + s*(sinPiPoly[1]+s*(sinPiPoly[2]+s*(sinPiPoly[3]+s*sinPiPoly[4]))))
}

// flipSign negates y when the low bit of parityBits is set. It works on
// the float32 result: moving a float64 to an integer register and back
// would cost two transfers, but the float32 bits can be stored straight
// from the integer register.
func flipSign(y float32, parityBits uint64) float32 {
	return math.Float32frombits(math.Float32bits(y) ^ uint32(parityBits)<<31)
}

func sinLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		hi := xd * invPi1
		shifted := hi + roundShift
		f := (hi - (shifted - roundShift)) + xd*invPi2
		dst[i] = flipSign(float32(sinPiReduced(f)), math.Float64bits(shifted))
	}
}

// Sin32 returns sin x.
func Sin32(x float32) float32 {
	if -trigFastMax <= x && x <= trigFastMax {
		var out [1]float32
		sinLanes(out[:], []float32{x})
		return out[0]
	}
	if math.IsInf(float64(x), 0) || x != x {
		return float32(math.NaN())
	}
	n, f := reduceHuge(x, 0, false)
	return flipSign(float32(sinPiReduced(f)), n)
}

// sinSliceKernel and cosSliceKernel are the kernels the slice forms use:
// the portable ones, or bit-identical SIMD ones chosen at start-up in
// GOEXPERIMENT=simd builds (simd_amd64.go).
var sinSliceKernel, cosSliceKernel = sinLanes, cosLanes

// Sin sets dst[i] = sin x[i].
func Sin(dst, x []float32) { unary(dst, x, trigFast, sinSliceKernel, Sin32) }

func cosLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		// hi − ½ may round; it only picks n. hi − (n + ½) is then exact
		// or has an error relative to f of 2^-53.
		hi := xd * invPi1
		shifted := (hi - 0.5) + roundShift
		f := (hi - ((shifted - roundShift) + 0.5)) + xd*invPi2
		dst[i] = flipSign(float32(sinPiReduced(f)), math.Float64bits(shifted)+1)
	}
}

// Cos32 returns cos x.
func Cos32(x float32) float32 {
	if -trigFastMax <= x && x <= trigFastMax {
		var out [1]float32
		cosLanes(out[:], []float32{x})
		return out[0]
	}
	if math.IsInf(float64(x), 0) || x != x {
		return float32(math.NaN())
	}
	// cos is even; reduceHuge's half offset assumes x > 0.
	n, f := reduceHuge(float32(math.Abs(float64(x))), 0, true)
	return flipSign(float32(sinPiReduced(f)), n+1)
}

// Cos sets dst[i] = cos x[i].
func Cos(dst, x []float32) { unary(dst, x, trigFast, cosSliceKernel, Cos32) }

// tanReduced is tan(π/2·(n + f)) for |f| ≤ ½, given n's bits. It is
// split in two so that each half fits the inliner's budget.
func tanReduced(f float64, nBits uint64) float64 {
	sinF, cosF := tanSinCos(f)
	return tanQuotient(sinF, cosF, nBits)
}

// tanSinCos returns sin and cos of π/2·f for |f| ≤ ½.
func tanSinCos(f float64) (sinF, cosF float64) {
	s := f * f
	sinF = f * (tanSinPoly[0] + s*(tanSinPoly[1]+s*(tanSinPoly[2]+s*(tanSinPoly[3]+s*tanSinPoly[4]))))
	cosF = tanCosPoly[0] + s*(tanCosPoly[1]+s*(tanCosPoly[2]+s*(tanCosPoly[3]+s*tanCosPoly[4])))
	return sinF, cosF
}

// tanQuotient is sinF/cosF for even n and −cosF/sinF for odd n, chosen
// with bit masks rather than a branch, which would mispredict on random
// input.
func tanQuotient(sinF, cosF float64, nBits uint64) float64 {
	odd := -(nBits & 1) // all ones when n is odd
	sb, cb := math.Float64bits(sinF), math.Float64bits(cosF)
	num := sb&^odd | (cb^1<<63)&odd
	den := cb&^odd | sb&odd
	return math.Float64frombits(num) / math.Float64frombits(den)
}

func tanLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		hi := xd * twoOverPi1
		shifted := hi + roundShift
		f := (hi - (shifted - roundShift)) + xd*twoOverPi2
		sinF, cosF := tanSinCos(f)
		dst[i] = float32(tanQuotient(sinF, cosF, math.Float64bits(shifted)))
	}
}

// Tan32 returns tan x.
func Tan32(x float32) float32 {
	if -trigFastMax <= x && x <= trigFastMax {
		var out [1]float32
		tanLanes(out[:], []float32{x})
		return out[0]
	}
	if math.IsInf(float64(x), 0) || x != x {
		return float32(math.NaN())
	}
	n, f := reduceHuge(x, 1, false)
	return float32(tanReduced(f, n))
}

// Tan sets dst[i] = tan x[i].
func Tan(dst, x []float32) { unary(dst, x, trigFast, tanLanes, Tan32) }

// reduceHuge is a Payne–Hanek reduction for finite |x| ≥ 2^24. With
// t = x·2^scale/π − (½ if half), it returns n = round(t) (only the low bit
// is meaningful) and f = t − n ∈ [−½, ½]. With half, x must be positive.
//
// x = m·2^e with m < 2^24 and e ≥ 1. Bits of 1/π worth 2^(e+scale−i)·m
// for i < e+scale only add even integers to t, which change neither n's
// parity nor f, so the product needs the 128 bits of 1/π starting at bit
// e+scale. m times that window, taken mod 2^128, is t mod 2 in fixed point
// with the binary point after bit 127. The bits of 1/π beyond the window
// contribute less than m·2^-127 ≤ 2^-103; the closest float32 comes to a
// multiple of π/2 is far larger, so f keeps full relative precision.
func reduceHuge(x float32, scale uint, half bool) (n uint64, f float64) {
	b := math.Float32bits(x)
	m := uint64(b&0x7fffff | 0x800000)
	e := uint(b>>23&0xff) - 150 // x = ±m·2^e
	start := e + scale - 1      // 0-based index of the window's first bit
	q, sh := start/64, start%64
	w0, w1, w2 := invPiWords[q], invPiWords[q+1], invPiWords[q+2]
	hi := w0<<sh | w1>>(64-sh)
	lo := w1<<sh | w2>>(64-sh)
	h1, l1 := bits.Mul64(m, lo)
	_, l2 := bits.Mul64(m, hi)
	hi, lo = l2+h1, l1 // product mod 2^128: bit 63 of hi is t's units bit
	if half {
		hi -= 1 << 62
	}
	// The 64 bits after the binary point, read as signed, are f·2^64
	// rounded towards −∞ with f already in [−½, ½): a negative value means
	// t rounded up.
	frac := int64(hi<<1 | lo>>63)
	n = hi >> 63
	if frac < 0 {
		n++
	}
	f = float64(frac)*0x1p-64 + float64(lo<<1>>11)*0x1p-117
	if b>>31 != 0 {
		f, n = -f, -n
	}
	return n, f
}
