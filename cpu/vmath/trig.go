package vmath

import (
	"math"
	"math/bits"
)

// Sin and cos reduce by π rather than π/2: x = n·π + r with |r| ≤ π/2, and
// sin x = (−1)^n·sin r. One odd polynomial over [−π/2, π/2] then serves
// every quadrant, and the sign is an XOR of n's low bit, so the kernel has
// no data-dependent selection. Cos uses x = (n + ½)·π + r, where
// cos x = (−1)^(n+1)·sin r.
//
// For |x| < 2^24 the reduction is Cody–Waite in float64 with π split into
// three parts (coeffs_gen.go): n·π1 and n·π2 are exact products and the
// residual error is far below float32's needs even where r is tiny. Larger
// finite x take reduceHuge, a Payne–Hanek reduction.

// trigFastLimit bounds |x| for the Cody–Waite reduction: n stays below
// 2^23, so n·part is exact for the 29-bit parts.
const trigFastLimit = 0x1p24

var trigFastMax = math.Nextafter32(trigFastLimit, 0)

func trigFast(xs *[chunk]float32) bool { return allAbsAtMost(xs, trigFastMax) }

// sinReduced is sin r for |r| ≤ π/2. The product form r·(1 + …) keeps the
// sign of r = ±0.
func sinReduced(r float64) float64 {
	s := r * r
	return r * (1 + s*(sinPoly[0]+s*(sinPoly[1]+s*(sinPoly[2]+s*(sinPoly[3]+s*sinPoly[4])))))
}

// flipSign negates y when the low bit of parityBits is set.
func flipSign(y float64, parityBits uint64) float64 {
	return math.Float64frombits(math.Float64bits(y) ^ parityBits<<63)
}

func sinLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		shifted := xd*(1/math.Pi) + roundShift
		n := shifted - roundShift
		r := ((xd - n*pi1) - n*pi2) - n*pi3
		dst[i] = float32(flipSign(sinReduced(r), math.Float64bits(shifted)))
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
	return float32(flipSign(sinReduced(f*math.Pi), n))
}

// Sin sets dst[i] = sin x[i].
func Sin(dst, x []float32) { unary(dst, x, trigFast, sinLanes, Sin32) }

func cosLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		shifted := (xd*(1/math.Pi) - 0.5) + roundShift
		m := (shifted - roundShift) + 0.5 // n + ½, exact
		r := ((xd - m*pi1) - m*pi2) - m*pi3
		dst[i] = float32(flipSign(sinReduced(r), math.Float64bits(shifted)+1))
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
	return float32(flipSign(sinReduced(f*math.Pi), n+1))
}

// Cos sets dst[i] = cos x[i].
func Cos(dst, x []float32) { unary(dst, x, trigFast, cosLanes, Cos32) }

// tanReduced is tan(r + n·π/2) for |r| ≤ π/4, given n's bits: sin r / cos r
// for even n, −cos r / sin r for odd n. The choice is made with bit masks
// rather than a branch, which would mispredict on random input.
func tanReduced(r float64, nBits uint64) float64 {
	s := r * r
	sinR := r * (1 + s*(tanSinPoly[0]+s*(tanSinPoly[1]+s*(tanSinPoly[2]+s*tanSinPoly[3]))))
	cosR := 1 + s*(tanCosPoly[0]+s*(tanCosPoly[1]+s*(tanCosPoly[2]+s*tanCosPoly[3])))
	odd := -(nBits & 1) // all ones when n is odd
	sb, cb := math.Float64bits(sinR), math.Float64bits(cosR)
	num := sb&^odd | (cb^1<<63)&odd
	den := cb&^odd | sb&odd
	return math.Float64frombits(num) / math.Float64frombits(den)
}

func tanLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		shifted := xd*(2/math.Pi) + roundShift
		n := shifted - roundShift
		r := ((xd - n*halfPi1) - n*halfPi2) - n*halfPi3
		dst[i] = float32(tanReduced(r, math.Float64bits(shifted)))
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
	return float32(tanReduced(f*(math.Pi/2), n))
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
