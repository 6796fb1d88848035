package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// randomFloat32Buffer fills a float32 buffer of shape with uniform values
// in [lo, hi).
func randomFloat32Buffer(shape []int, seed uint64, lo, hi float32) *Buffer {
	b := newBuffer(testDevice().(*Device), trace.AVal{Shape: shape, DType: trace.Float32})
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range view[float32](b) {
		view[float32](b)[i] = lo + (hi-lo)*rng.Float32()
	}
	return b
}

// neumaierSum is a compensated float64 sum: far below a float32 ulp of
// error for any input here, so it serves as the exact sum.
func neumaierSum(x []float32) float64 {
	var s, c float64
	for _, v := range x {
		f := float64(v)
		t := s + f
		if math.Abs(s) >= math.Abs(f) {
			c += (s - t) + f
		} else {
			c += (f - t) + s
		}
		s = t
	}
	return s + c
}

// ulps is |got - want| in units of float32's ulp at want.
func ulps(got float32, want float64) float64 {
	_, e := math.Frexp(want)
	return math.Abs(float64(got)-want) / math.Ldexp(1, e-24)
}

// A 16M-element float32 sum stays within 2·log2(n) ulp of the exact sum
// (pairwise summation's bound; a sequential float32 sum of these values is
// off by millions of ulp, as the second check shows).
func TestReduceSumAccuracy16M(t *testing.T) {
	const n = 1 << 24
	x := randomFloat32Buffer([]int{n}, 3, 0, 1)
	want := neumaierSum(view[float32](x))
	got := float32(reduceApply(t, opSum, x, 0).Element(0).(float64))
	bound := 2 * math.Log2(n)
	if e := ulps(got, want); e > bound {
		t.Errorf("sum of %d float32 = %v, exact %v: %.1f ulp, bound %.0f", n, got, want, e, bound)
	} else {
		t.Logf("sum of %d float32: %.2f ulp from exact (bound %.0f)", n, e, bound)
	}
	var seq float32
	for _, v := range view[float32](x) {
		seq += v
	}
	if e := ulps(seq, want); e <= bound {
		t.Errorf("a sequential sum is within %.1f ulp: the data does not tell pairwise from sequential", e)
	}

	// Down the rows of a [4096, 4096] array, pairwise too.
	m := randomFloat32Buffer([]int{4096, 4096}, 4, 0, 1)
	cols := reduceApply(t, opSum, m, 0)
	col := make([]float32, 4096)
	worst := 0.0
	for j := 0; j < 4096; j += 97 {
		for i := range col {
			col[i] = view[float32](m)[i*4096+j]
		}
		worst = max(worst, ulps(view[float32](cols)[j], neumaierSum(col)))
	}
	if bound := 2 * math.Log2(4096); worst > bound {
		t.Errorf("column sums: %.1f ulp from exact, bound %.0f", worst, bound)
	}
}

// float16 and bfloat16 accumulate in float32 and round once: summing ones
// past where a 16-bit accumulator stalls (2048 and 256) stays exact.
func TestReduceSumHalfAccumulatesInFloat32(t *testing.T) {
	for _, tc := range []struct {
		dt trace.DType
		n  int
	}{{trace.Float16, 4096}, {trace.BFloat16, 1000}} {
		ones := make([]any, tc.n)
		for i := range ones {
			ones[i] = 1.0
		}
		x := bufferOf(t, tc.dt, []int{tc.n}, ones...)
		checkElements(t, tc.dt.String()+" line", reduceApply(t, opSum, x, 0), float64(tc.n))
		y := bufferOf(t, tc.dt, []int{tc.n / 2, 2}, ones...)
		checkElements(t, tc.dt.String()+" rows", reduceApply(t, opSum, y, 0), float64(tc.n/2), float64(tc.n/2))
	}
}

// BenchmarkReduceSum16MFloat32 sums 16M float32 (64 MiB) to a scalar; the
// reported MB/s is the read bandwidth.
func BenchmarkReduceSum16MFloat32(b *testing.B) {
	x := randomFloat32Buffer([]int{1 << 24}, 1, 0, 1)
	b.SetBytes(4 << 24)
	for b.Loop() {
		reduceApply(b, opSum, x, 0)
	}
}

// BenchmarkReduceSumAxis0 sums a [4096, 4096] float32 array down its
// rows (an outer-axis reduction).
func BenchmarkReduceSumAxis0(b *testing.B) {
	x := randomFloat32Buffer([]int{4096, 4096}, 2, 0, 1)
	b.SetBytes(4 << 24)
	for b.Loop() {
		reduceApply(b, opSum, x, 0)
	}
}

// BenchmarkReduceMaxAxis1 takes the max along the rows of [4096, 4096].
func BenchmarkReduceMaxAxis1(b *testing.B) {
	x := randomFloat32Buffer([]int{4096, 4096}, 2, 0, 1)
	b.SetBytes(4 << 24)
	for b.Loop() {
		reduceApply(b, opMax, x, 1)
	}
}

// BenchmarkReduceMaxAxis0 takes the max down the rows of [4096, 4096].
func BenchmarkReduceMaxAxis0(b *testing.B) {
	x := randomFloat32Buffer([]int{4096, 4096}, 2, 0, 1)
	b.SetBytes(4 << 24)
	for b.Loop() {
		reduceApply(b, opMax, x, 0)
	}
}
