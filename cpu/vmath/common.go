package vmath

import (
	"fmt"
	"math"
	"unsafe"
)

// Every slice function follows one scheme. A function's lanes kernel is a
// branch-free loop that is correct only for inputs in the function's
// ordinary range; its scalar form handles everything, special values
// included, by sending ordinary inputs through the same arithmetic (so the
// two forms agree bit for bit) and the rest through a slow path. The slice
// function checks the input a chunk at a time, hands runs of ordinary
// chunks to the kernel in one call, and sends the rare chunk holding a
// special value element by element through the scalar form.
//
// Kernels must be single loops whose bodies the compiler fully inlines: a
// call per element costs more than the arithmetic. Helpers they use are
// kept under the inliner's budget.

// chunk is how many elements one range check covers. Sixteen amortises
// the check's final compare and branch while a rare special value slows
// only a few neighbours.
const chunk = 16

// maxRun bounds how far the check runs ahead of the kernel, so that the
// inputs it read are still in L1 when the kernel reads them again (4 KiB).
const maxRun = 64 * chunk

func checkLen(dst, n int, name string) {
	if dst != n {
		panic(fmt.Sprintf("vmath: len(dst) = %d but len(%s) = %d", dst, name, n))
	}
}

// unary drives a one-input function over x. ordinary returns how many
// leading elements of its argument, a multiple of chunk, are in the
// kernel's range; it is called once per run of up to maxRun elements and
// stops at the first chunk holding a special value, which then goes
// element by element through scalar. dst and x may be the same slice:
// each run is checked before the kernel overwrites it, and the kernel and
// the scalar form read each element before writing it.
func unary(dst, x []float32, ordinary func([]float32) int, lanes func(dst, x []float32), scalar func(float32) float32) {
	checkLen(len(dst), len(x), "x")
	end := len(x) - len(x)%chunk
	for i := 0; i < end; {
		stop := min(i+maxRun, end)
		n := ordinary(x[i:stop])
		lanes(dst[i:i+n], x[i:i+n])
		if i += n; i < stop {
			for j := i; j < i+chunk; j++ {
				dst[j] = scalar(x[j])
			}
			i += chunk
		}
	}
	for j := end; j < len(x); j++ {
		dst[j] = scalar(x[j])
	}
}

// binary is unary for two-input functions: a chunk is ordinary when both
// its x and y parts are.
func binary(dst, x, y []float32, ordinary func(x, y []float32) int, lanes func(dst, x, y []float32), scalar func(x, y float32) float32) {
	checkLen(len(dst), len(x), "x")
	checkLen(len(dst), len(y), "y")
	end := len(x) - len(x)%chunk
	for i := 0; i < end; {
		stop := min(i+maxRun, end)
		n := ordinary(x[i:stop], y[i:stop])
		lanes(dst[i:i+n], x[i:i+n], y[i:i+n])
		if i += n; i < stop {
			for j := i; j < i+chunk; j++ {
				dst[j] = scalar(x[j], y[j])
			}
			i += chunk
		}
	}
	for j := end; j < len(x); j++ {
		dst[j] = scalar(x[j], y[j])
	}
}

// prefixAbsAtMost, prefixPositiveIn and prefixAbsAtMostBySign return how
// many leading chunks of x, in elements, pass allAbsAtMost, allPositiveIn
// or allAbsAtMostBySign.

func prefixAbsAtMost(x []float32, m float32) int {
	for i := 0; i+chunk <= len(x); i += chunk {
		if !allAbsAtMost((*[chunk]float32)(x[i:]), m) {
			return i
		}
	}
	return len(x) - len(x)%chunk
}

func prefixPositiveIn(x []float32, lo, hi uint32) int {
	for i := 0; i+chunk <= len(x); i += chunk {
		if !allPositiveIn((*[chunk]float32)(x[i:]), lo, hi) {
			return i
		}
	}
	return len(x) - len(x)%chunk
}

func prefixAbsAtMostBySign(x []float32, posMax, negMax uint32) int {
	for i := 0; i+chunk <= len(x); i += chunk {
		if !allAbsAtMostBySign((*[chunk]float32)(x[i:]), posMax, negMax) {
			return i
		}
	}
	return len(x) - len(x)%chunk
}

// The checks below read a chunk as 64-bit words, two float32s at a time,
// and test both halves with one add (SWAR): each half is first masked to
// its low 31 bits, so adding a constant below 2^31 per half never carries
// into the other half, and bit 31 of a half then says whether it crossed
// the limit. Reading the bits straight into integer registers also avoids
// moving each float from a vector register, which competes with the
// kernels' arithmetic for the same execution ports.

const (
	lowBits31 = 0x7fffffff_7fffffff
	halfSigns = 0x80000000_80000000
)

func words(xs *[chunk]float32) *[chunk / 2]uint64 {
	return (*[chunk / 2]uint64)(unsafe.Pointer(xs))
}

// allAbsAtMost reports whether every element of xs has |x| ≤ m; NaN never
// does.
func allAbsAtMost(xs *[chunk]float32, m float32) bool {
	bias := uint64(0x7fffffff-math.Float32bits(m)) * 0x1_00000001
	var acc uint64
	for _, w := range words(xs) {
		acc |= w&lowBits31 + bias
	}
	return acc&halfSigns == 0
}

// allPositiveIn reports whether every element of xs is positive with bits
// in [lo, hi] (hi below +Inf's): one sum per half reaches bit 31 above hi,
// another below lo.
func allPositiveIn(xs *[chunk]float32, lo, hi uint32) bool {
	var bad uint64
	inRange := uint64(halfSigns)
	for _, w := range words(xs) {
		abs := w & lowBits31
		bad |= w | (abs + uint64(0x7fffffff-hi)*0x1_00000001) // sign, or above hi
		inRange &= abs + uint64(0x80000000-lo)*0x1_00000001   // clear below lo
	}
	return bad&halfSigns == 0 && inRange == halfSigns
}

// allAbsAtMostBySign reports whether every element of xs has |x|'s bits at
// most posMax if x is positive and at most negMax (≤ posMax) if negative.
// The limit is chosen per half by adding the sign bit times the difference.
func allAbsAtMostBySign(xs *[chunk]float32, posMax, negMax uint32) bool {
	base := uint64(0x7fffffff-posMax) * 0x1_00000001
	var acc uint64
	for _, w := range words(xs) {
		neg := w >> 31 & 0x1_00000001
		acc |= w&lowBits31 + base + neg*uint64(posMax-negMax)
	}
	return acc&halfSigns == 0
}

// absWide is |x| widened to float64, for x's bits b. Clearing the sign on
// the integer bits, which kernels load anyway, is cheaper than math.Abs on
// a float64, which moves the value to an integer register and back.
func absWide(b uint32) float64 { return float64(math.Float32frombits(b & 0x7fffffff)) }

// withSignBit returns r with the sign bit of the float32 whose bits are b.
func withSignBit(r float32, b uint32) float32 {
	const sign = 1 << 31
	return math.Float32frombits(math.Float32bits(r)&^sign | b&sign)
}

// float32Bits views x's elements as their bit patterns, so kernels can load
// them straight into integer registers.
func float32Bits(x []float32) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
}

// signOf64 is withSignOf for a float64 x. Kernels take signs from the
// widened input, never from the float32 they loaded: keeping that float32
// alive makes the compiler widen it into another register, and
// CVTSS2SD's merge into the old contents of that register chains every
// iteration to the previous one, costing about 5× in throughput.
func signOf64(r float32, x float64) float32 {
	const sign = 1 << 31
	return math.Float32frombits(math.Float32bits(r)&^sign | uint32(math.Float64bits(x)>>32)&sign)
}

// withSignOf returns r with the sign bit of x: for functions whose result
// always has x's sign (expm1, log1p, tanh, …) this restores signed zeros
// that float64 arithmetic dropped.
func withSignOf(r, x float32) float32 {
	const sign = 1 << 31
	return math.Float32frombits(math.Float32bits(r)&^sign | math.Float32bits(x)&sign)
}

// roundShift is 1.5·2^52: adding it to a float64 of magnitude below 2^51
// rounds it to an integer, which is then the low bits of the mantissa.
const roundShift = 0x1.8p52
