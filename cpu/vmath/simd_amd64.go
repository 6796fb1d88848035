//go:build goexperiment.simd && amd64

package vmath

import (
	"math"
	"simd/archsimd"
)

// SIMD kernels for builds with GOEXPERIMENT=simd, chosen at start-up on
// CPUs that have the instructions. Each performs exactly the float64
// operations of its portable kernel, in the same order and without fused
// multiply-adds, on 4 (AVX2) or 8 (AVX-512) elements at a time, so results
// are bit-identical to the portable path: the scalar forms, which keep
// using the portable kernels, and the tests comparing them with the slice
// forms check that. Table lookups use AVX-512's two-source permutes, so
// exp has no AVX2 kernel. Tails shorter than a vector go to the portable
// kernel.
//
// Every kernel ends with ClearAVXUpperBits (VZEROUPPER), which the
// compiler does not emit: with the upper halves of the vector registers
// left dirty, the SSE instructions of ordinary scalar Go code that runs
// next on the thread were measured 160× slower.
//
// Measured on the development machine (AVX-512), with the range checks and
// driver: exp 1080, sin 1125, cos 1030 Melem/s against 380, 320, 280 for
// the portable kernels. Caution for GOEXPERIMENT=simd builds in general:
// with Go 1.26.8 there, ordinary scalar float code was seen running
// 100–200× slower at random moments even when none of these kernels had
// run (never in default builds), as if something else left the upper
// register halves dirty.

func init() {
	switch {
	case archsimd.X86.AVX512():
		sinSliceKernel = sinLanesAVX512
		cosSliceKernel = cosLanesAVX512
		expSliceKernel = expLanesAVX512
	case archsimd.X86.AVX2():
		sinSliceKernel = sinLanesAVX2
		cosSliceKernel = cosLanesAVX2
	}
}

func sinLanesAVX2(dst, x []float32) {
	dst = dst[:len(x)]
	invPiHi, invPiLo := archsimd.BroadcastFloat64x4(invPi1), archsimd.BroadcastFloat64x4(invPi2)
	shift := archsimd.BroadcastFloat64x4(roundShift)
	c0, c1 := archsimd.BroadcastFloat64x4(sinPiPoly[0]), archsimd.BroadcastFloat64x4(sinPiPoly[1])
	c2, c3 := archsimd.BroadcastFloat64x4(sinPiPoly[2]), archsimd.BroadcastFloat64x4(sinPiPoly[3])
	c4 := archsimd.BroadcastFloat64x4(sinPiPoly[4])
	i := 0
	for ; i+4 <= len(x); i += 4 {
		xd := archsimd.LoadFloat32x4Slice(x[i:]).ConvertToFloat64()
		hi := xd.Mul(invPiHi)
		shifted := hi.Add(shift)
		f := hi.Sub(shifted.Sub(shift)).Add(xd.Mul(invPiLo))
		s := f.Mul(f)
		y := f.Mul(c0.Add(s.Mul(c1.Add(s.Mul(c2.Add(s.Mul(c3.Add(s.Mul(c4)))))))))
		// flipSign on the float64 is the same as on the rounded float32.
		y = y.AsUint64x4().Xor(shifted.AsUint64x4().ShiftAllLeft(63)).AsFloat64x4()
		y.ConvertToFloat32().StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	sinLanes(dst[i:], x[i:])
}

func sinLanesAVX512(dst, x []float32) {
	dst = dst[:len(x)]
	invPiHi, invPiLo := archsimd.BroadcastFloat64x8(invPi1), archsimd.BroadcastFloat64x8(invPi2)
	shift := archsimd.BroadcastFloat64x8(roundShift)
	c0, c1 := archsimd.BroadcastFloat64x8(sinPiPoly[0]), archsimd.BroadcastFloat64x8(sinPiPoly[1])
	c2, c3 := archsimd.BroadcastFloat64x8(sinPiPoly[2]), archsimd.BroadcastFloat64x8(sinPiPoly[3])
	c4 := archsimd.BroadcastFloat64x8(sinPiPoly[4])
	i := 0
	for ; i+8 <= len(x); i += 8 {
		xd := archsimd.LoadFloat32x8Slice(x[i:]).ConvertToFloat64()
		hi := xd.Mul(invPiHi)
		shifted := hi.Add(shift)
		f := hi.Sub(shifted.Sub(shift)).Add(xd.Mul(invPiLo))
		s := f.Mul(f)
		y := f.Mul(c0.Add(s.Mul(c1.Add(s.Mul(c2.Add(s.Mul(c3.Add(s.Mul(c4)))))))))
		y = y.AsUint64x8().Xor(shifted.AsUint64x8().ShiftAllLeft(63)).AsFloat64x8()
		y.ConvertToFloat32().StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	sinLanes(dst[i:], x[i:])
}

func cosLanesAVX2(dst, x []float32) {
	dst = dst[:len(x)]
	invPiHi, invPiLo := archsimd.BroadcastFloat64x4(invPi1), archsimd.BroadcastFloat64x4(invPi2)
	shift, half := archsimd.BroadcastFloat64x4(roundShift), archsimd.BroadcastFloat64x4(0.5)
	one := archsimd.BroadcastUint64x4(1)
	c0, c1 := archsimd.BroadcastFloat64x4(sinPiPoly[0]), archsimd.BroadcastFloat64x4(sinPiPoly[1])
	c2, c3 := archsimd.BroadcastFloat64x4(sinPiPoly[2]), archsimd.BroadcastFloat64x4(sinPiPoly[3])
	c4 := archsimd.BroadcastFloat64x4(sinPiPoly[4])
	i := 0
	for ; i+4 <= len(x); i += 4 {
		xd := archsimd.LoadFloat32x4Slice(x[i:]).ConvertToFloat64()
		hi := xd.Mul(invPiHi)
		shifted := hi.Sub(half).Add(shift)
		f := hi.Sub(shifted.Sub(shift).Add(half)).Add(xd.Mul(invPiLo))
		s := f.Mul(f)
		y := f.Mul(c0.Add(s.Mul(c1.Add(s.Mul(c2.Add(s.Mul(c3.Add(s.Mul(c4)))))))))
		y = y.AsUint64x4().Xor(shifted.AsUint64x4().Add(one).ShiftAllLeft(63)).AsFloat64x4()
		y.ConvertToFloat32().StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	cosLanes(dst[i:], x[i:])
}

func cosLanesAVX512(dst, x []float32) {
	dst = dst[:len(x)]
	invPiHi, invPiLo := archsimd.BroadcastFloat64x8(invPi1), archsimd.BroadcastFloat64x8(invPi2)
	shift, half := archsimd.BroadcastFloat64x8(roundShift), archsimd.BroadcastFloat64x8(0.5)
	one := archsimd.BroadcastUint64x8(1)
	c0, c1 := archsimd.BroadcastFloat64x8(sinPiPoly[0]), archsimd.BroadcastFloat64x8(sinPiPoly[1])
	c2, c3 := archsimd.BroadcastFloat64x8(sinPiPoly[2]), archsimd.BroadcastFloat64x8(sinPiPoly[3])
	c4 := archsimd.BroadcastFloat64x8(sinPiPoly[4])
	i := 0
	for ; i+8 <= len(x); i += 8 {
		xd := archsimd.LoadFloat32x8Slice(x[i:]).ConvertToFloat64()
		hi := xd.Mul(invPiHi)
		shifted := hi.Sub(half).Add(shift)
		f := hi.Sub(shifted.Sub(shift).Add(half)).Add(xd.Mul(invPiLo))
		s := f.Mul(f)
		y := f.Mul(c0.Add(s.Mul(c1.Add(s.Mul(c2.Add(s.Mul(c3.Add(s.Mul(c4)))))))))
		y = y.AsUint64x8().Xor(shifted.AsUint64x8().Add(one).ShiftAllLeft(63)).AsFloat64x8()
		y.ConvertToFloat32().StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	cosLanes(dst[i:], x[i:])
}

// expLanesAVX512 looks up 2^(j/32) in the 32-entry table with two
// two-source permutes (16 entries each, indexed by the low 4 bits of n)
// and a blend on bit 4.
func expLanesAVX512(dst, x []float32) {
	dst = dst[:len(x)]
	t := &expScaleTable
	t0, t1 := archsimd.LoadUint64x8((*[8]uint64)(t[0:8])), archsimd.LoadUint64x8((*[8]uint64)(t[8:16]))
	t2, t3 := archsimd.LoadUint64x8((*[8]uint64)(t[16:24])), archsimd.LoadUint64x8((*[8]uint64)(t[24:32]))
	bit4 := archsimd.BroadcastUint64x8(16)
	toN := archsimd.BroadcastFloat64x8(expTableSize / math.Ln2)
	cellWidth := archsimd.BroadcastFloat64x8(math.Ln2 / expTableSize)
	shift, one := archsimd.BroadcastFloat64x8(roundShift), archsimd.BroadcastFloat64x8(1)
	c0, c1 := archsimd.BroadcastFloat64x8(expPoly[0]), archsimd.BroadcastFloat64x8(expPoly[1])
	i := 0
	for ; i+8 <= len(x); i += 8 {
		xd := archsimd.LoadFloat32x8Slice(x[i:]).ConvertToFloat64()
		shifted := xd.Mul(toN).Add(shift)
		r := xd.Sub(shifted.Sub(shift).Mul(cellWidth))
		bits := shifted.AsUint64x8()
		low, high := t0.ConcatPermute(t1, bits), t2.ConcatPermute(t3, bits)
		entry := high.Merge(low, bits.And(bit4).Equal(bit4))
		scale := entry.Add(bits.ShiftAllLeft(52 - expTableBits)).AsFloat64x8()
		y := scale.Mul(one.Add(r).Add(r.Mul(r).Mul(c0.Add(r.Mul(c1)))))
		y.ConvertToFloat32().StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	expLanes(dst[i:], x[i:])
}
