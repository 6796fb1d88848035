package vmath

import "math"

// The log family works in float64 on x = 2^k·z with z ∈ [0.699, 1.398):
// the top 8 mantissa bits of z (after offsetting, so the range is centred
// on 1) pick a table cell with centre c, and
//
//	log x = k·ln2 + log c + log1p(r),  r = z/c − 1,  |r| ≤ 2^-8,
//
// log1p(r) from a cubic. 256 cells (4 KiB) rather than 128 save the
// polynomial a term: two of about twenty float operations per element.
//
// The two cells touching 1 use c = 1 so that near x = 1, where log x → 0,
// the result is the polynomial in the exact r = z − 1 alone and keeps its
// relative accuracy.
//
// The Log, Log2 and Log10 kernels split the float32 bits directly
// (logParts32), which spares moving each value between vector and integer
// registers twice; they take normal inputs only. The scalar forms widen to
// float64 first (logParts), which makes subnormals normal, and get the
// same k, cell and z, so identical results: only x ≤ 0, subnormals, +Inf
// and NaN leave the kernels.

const (
	logTableBits = 8
	logTableSize = 1 << logTableBits
	// logOffset is the float64 bit pattern of 0.69921875, the bottom of
	// z's range; its mantissa bits below the table index are zero.
	logOffset = 0x3fe6600000000000
	logCell   = 52 - logTableBits
)

type logCellEntry struct{ invC, logC float64 }

var logTable = func() (t [logTableSize]logCellEntry) {
	for i := range t {
		lo := math.Float64frombits(logOffset + uint64(i)<<logCell)
		hi := math.Float64frombits(logOffset + uint64(i+1)<<logCell)
		c := (lo + hi) / 2
		if lo == 1 || hi == 1 {
			c = 1
		}
		t[i] = logCellEntry{1 / c, math.Log(c)}
	}
	return t
}()

// logParts splits positive normal float64 x = 2^k·z into k, log c and
// r = z/c − 1 for z's table cell.
func logParts(x float64) (k, logC, r float64) {
	bits := math.Float64bits(x)
	tmp := bits - logOffset
	cell := &logTable[(tmp>>logCell)&(logTableSize-1)]
	z := math.Float64frombits(bits - tmp&(0xfff<<52))
	return float64(int64(tmp) >> 52), cell.logC, z*cell.invC - 1
}

// logOffset32 is logOffset as a float32 bit pattern.
const logOffset32 = 0x3f330000

// logParts32 is logParts for the bits of a positive normal float32.
func logParts32(b uint32) (k, logC, r float64) {
	tmp := b - logOffset32
	cell := &logTable[(tmp>>(23-logTableBits))&(logTableSize-1)]
	// z's float32 bits, re-biased and widened into float64 bits.
	z := math.Float64frombits(uint64(b-tmp&0xff800000)<<29 + (1023-127)<<52)
	return float64(int32(tmp) >> 23), cell.logC, z*cell.invC - 1
}

// logZ is log z = log c + log1p(r), the part of log x below the exponent.
func logZ(logC, r float64) float64 {
	r2 := r * r
	return logC + (r + r2*(logPoly[0]+r*logPoly[1]))
}

// logPreciseZ is logZ with about 2^-39 relative error in the polynomial,
// for pow: there an error in log x is multiplied by |y·log x| up to ~100.
func logPreciseZ(logC, r float64) float64 {
	r2 := r * r
	return logC + (r + r2*(logPrecisePoly[0]+r*logPrecisePoly[1]+r2*logPrecisePoly[2]))
}

// logKernel is log x for positive normal float64 x. It is over the
// inliner's budget; kernels inline logParts and logZ themselves.
func logKernel(x float64) float64 {
	k, logC, r := logParts(x)
	return k*math.Ln2 + logZ(logC, r)
}

// logSpecial handles the inputs outside (0, +Inf): log of ±0 is −Inf,
// of negative numbers NaN, and +Inf and NaN pass through.
func logSpecial(x float32) float32 {
	switch {
	case x == 0:
		return float32(math.Inf(-1))
	case x < 0:
		return float32(math.NaN())
	default: // +Inf, NaN
		return x
	}
}

// logFast accepts positive normal floats, the kernels' domain.
func logFast(x []float32) int { return prefixPositiveIn(x, 0x00800000, 0x7f7fffff) }

// logFastMin and logFastMax bound the scalar forms' fast path: positive
// finite floats, subnormals included.
var logFastMin, logFastMax = math.Float32frombits(1), float32(math.MaxFloat32)

func logLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		k, logC, r := logParts32(b)
		dst[i] = float32(k*math.Ln2 + logZ(logC, r))
	}
}

// Log32 returns the natural logarithm of x.
func Log32(x float32) float32 {
	if logFastMin <= x && x <= logFastMax {
		return float32(logKernel(float64(x)))
	}
	return logSpecial(x)
}

// Log sets dst[i] = ln x[i].
func Log(dst, x []float32) { unary(dst, x, logFast, logLanes, Log32) }

func log2Lanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		// Powers of two come out exact: r = 0 and log c = 0.
		k, logC, r := logParts32(b)
		dst[i] = float32(k + logZ(logC, r)*(1/math.Ln2))
	}
}

// Log2_32 returns log₂ x.
func Log2_32(x float32) float32 {
	if logFastMin <= x && x <= logFastMax {
		k, logC, r := logParts(float64(x)) // as log2Lanes
		return float32(k + logZ(logC, r)*(1/math.Ln2))
	}
	return logSpecial(x)
}

// Log2 sets dst[i] = log₂ x[i].
func Log2(dst, x []float32) { unary(dst, x, logFast, log2Lanes, Log2_32) }

func log10Lanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		k, logC, r := logParts32(b)
		dst[i] = float32(k*(math.Ln2/math.Ln10) + logZ(logC, r)*(1/math.Ln10))
	}
}

// Log10_32 returns log₁₀ x.
func Log10_32(x float32) float32 {
	if logFastMin <= x && x <= logFastMax {
		k, logC, r := logParts(float64(x)) // as log10Lanes
		return float32(k*(math.Ln2/math.Ln10) + logZ(logC, r)*(1/math.Ln10))
	}
	return logSpecial(x)
}

// Log10 sets dst[i] = log₁₀ x[i].
func Log10(dst, x []float32) { unary(dst, x, logFast, log10Lanes, Log10_32) }

// log1pSplit prepares log1p for float64 x in (−1, +Inf): u = 1+x may be
// rounded, and then c = x − (u−1) is the part lost: log1p x ≈ log u + c/u.
func log1pSplit(x float64) (u, correction float64) {
	u = 1 + x
	return u, (x - (u - 1)) / u
}

// log1pFastMax bounds Log1p's fast path. Below it, 1 + x is exact for
// float32 x unless |x| < 2^-29, where u ≈ 1 and c/u ≈ c·(2−u) to 2^-58:
// the kernel then needs no division. (From 2^53 on, 1 + x can round with
// c = 1, as at x = 2^53, and c·(2−u) would be wrong.)
const log1pFastMax = 0x1p52

func log1pLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		xd := float64(v)
		u := 1 + xd
		c := (xd - (u - 1)) * (2 - u)
		k, logC, r := logParts(u)
		dst[i] = signOf64(float32(k*math.Ln2+logZ(logC, r)+c), xd)
	}
}

// Log1p32 returns ln(1+x), accurate for x near 0.
func Log1p32(x float32) float32 {
	if -1 < x && x <= log1pFastMax {
		var out [1]float32
		log1pLanes(out[:], []float32{x})
		return out[0]
	}
	switch {
	case log1pFastMax < x && x <= logFastMax:
		// log1p x = log x + log1p(1/x), and 1/x ≤ 2^-52 is far below
		// log x's float32 ulp.
		return float32(logKernel(float64(x)))
	case x == -1:
		return float32(math.Inf(-1))
	case x < -1:
		return float32(math.NaN())
	default: // +Inf, NaN
		return x
	}
}

// log1pFast accepts x in (−1, log1pFastMax]: positive up to 2^52, negative
// up to the float32 just below 1 in magnitude.
func log1pFast(x []float32) int {
	return prefixAbsAtMostBySign(x, math.Float32bits(log1pFastMax), math.Float32bits(math.Nextafter32(1, 0)))
}

// Log1p sets dst[i] = ln(1 + x[i]).
func Log1p(dst, x []float32) { unary(dst, x, log1pFast, log1pLanes, Log1p32) }
