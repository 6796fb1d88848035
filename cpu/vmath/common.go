package vmath

import (
	"fmt"
	"math"
)

// chunk is how many elements the slice functions examine at once: a chunk
// whose inputs all lie in a function's ordinary range runs the branch-free
// kernel; any other chunk goes element by element through the scalar form,
// which handles every special value. Sixteen keeps the check's cost
// amortised while a rare special value slows only a few neighbours.
const chunk = 16

func checkLen(dst, x int) {
	if dst != x {
		panic(fmt.Sprintf("vmath: len(dst) = %d but len(x) = %d", dst, x))
	}
}

// orderedKey maps a float32's bits to a uint32 that sorts like the float
// values: −0 just below +0, and NaNs of either sign outside ±Inf.
func orderedKey(f float32) uint32 {
	b := math.Float32bits(f)
	return b ^ (uint32(int32(b)>>31) | 1<<31)
}

// allIn reports whether every element of xs lies in [lo, hi]; NaN never
// does. It maps elements to orderedKey and keeps the largest distance above
// lo's key, so the check is branch-free: one compare per chunk.
func allIn(xs *[chunk]float32, lo, hi float32) bool {
	klo := orderedKey(lo)
	var worst uint32
	for _, v := range xs {
		worst = max(worst, orderedKey(v)-klo)
	}
	return worst <= orderedKey(hi)-klo
}

// allAbsAtMost reports whether every element of xs has |x| ≤ m; NaN never
// does. Cheaper than allIn for symmetric ranges.
func allAbsAtMost(xs *[chunk]float32, m float32) bool {
	var worst uint32
	for _, v := range xs {
		worst = max(worst, math.Float32bits(v)&0x7fffffff)
	}
	return worst <= math.Float32bits(m)
}
