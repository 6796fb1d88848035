package vmath

import "math"

// Erf is piecewise: |x| ∈ [0, 4) is cut into 32 cells of width 1/8, each
// with its own degree-6 polynomial in the offset from the cell's centre
// (coeffs_gen.go). The cell index is a truncated multiply, so the kernel
// has no branches; a table row is 64 bytes, one cache line. Cell 0 is
// centred on 0 with no constant term, keeping relative accuracy for tiny
// x. erf rounds to ±1 in float32 beyond |x| ≈ 3.92, so larger |x| are
// clamped into the last cell.

// erfClamp is the largest argument evaluated; erf(erfClamp) rounds to 1.
const erfClamp = 3.99

// erfClampBits is erfClamp's float32 bit pattern.
var erfClampBits = math.Float32bits(erfClamp)

func erfLanes(dst, x []float32) {
	dst = dst[:len(x)]
	for i, b := range float32Bits(x) {
		// |x|, its clamp and the sign are taken on the bits in an integer
		// register; only the clamped |x| moves to a float register.
		a := float64(math.Float32frombits(min(b&0x7fffffff, erfClampBits)))
		c := &erfCells[int(a*erfCellsPerUnit)&(len(erfCells)-1)]
		t := a - c[0]
		p := c[1] + t*(c[2]+t*(c[3]+t*(c[4]+t*(c[5]+t*(c[6]+t*c[7])))))
		dst[i] = math.Float32frombits(math.Float32bits(float32(p)) | b&(1<<31))
	}
}

// erfCellsPerUnit is the reciprocal of the cell width.
const erfCellsPerUnit = 8

// Erf32 returns the error function of x.
func Erf32(x float32) float32 {
	if -math.MaxFloat32 <= x && x <= math.MaxFloat32 {
		var out [1]float32
		erfLanes(out[:], []float32{x})
		return out[0]
	}
	if x != x {
		return x
	}
	return withSignOf(1, x)
}

// Erf sets dst[i] = erf x[i].
func Erf(dst, x []float32) { unary(dst, x, finiteFast, erfLanes, Erf32) }
