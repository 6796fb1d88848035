package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// refReduce reduces values of shape over axes in float64, element by element
// in index order: the reference the kernels must match (exactly for
// integers and exactly representable float results).
func refReduce(shape, axes []int, vals []float64, op reduceOp) (outShape []int, out []float64) {
	strides := make([]int, len(shape))
	st := 1
	for d := len(shape) - 1; d >= 0; d-- {
		strides[d] = st
		st *= shape[d]
	}
	var keptDims []int
	for d := range shape {
		if !slices.Contains(axes, d) {
			keptDims = append(keptDims, d)
			outShape = append(outShape, shape[d])
		}
	}
	size := 1
	for _, n := range outShape {
		size *= n
	}
	out = make([]float64, size)
	for i := range out {
		out[i] = map[reduceOp]float64{opSum: 0, opProd: 1, opMax: math.Inf(-1), opMin: math.Inf(1)}[op]
	}
	idx := make([]int, len(shape))
	for flat := range vals {
		rem := flat
		for d := range shape {
			idx[d] = rem / strides[d]
			rem %= strides[d]
		}
		o := 0
		for _, d := range keptDims {
			o = o*shape[d] + idx[d]
		}
		v := vals[flat]
		switch op {
		case opSum:
			out[o] += v
		case opProd:
			out[o] *= v
		case opMax:
			if v > out[o] || v != v {
				out[o] = math.Max(out[o], v)
			}
		case opMin:
			if v < out[o] || v != v {
				out[o] = math.Min(out[o], v)
			}
		}
	}
	return outShape, out
}

// allAxisSets lists every subset of [0, rank).
func allAxisSets(rank int) [][]int {
	var sets [][]int
	for mask := 0; mask < 1<<rank; mask++ {
		var axes []int
		for d := 0; d < rank; d++ {
			if mask&(1<<d) != 0 {
				axes = append(axes, d)
			}
		}
		sets = append(sets, axes)
	}
	return sets
}

func anys(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

var reduceNames = map[reduceOp]string{opSum: "reduce_sum", opProd: "reduce_prod", opMax: "reduce_max", opMin: "reduce_min", opAnd: "reduce_and", opOr: "reduce_or"}

func reduceApply(t testing.TB, op reduceOp, x *Buffer, axes ...int) *Buffer {
	t.Helper()
	if axes == nil {
		axes = []int{}
	}
	return apply(t, reduceNames[op], trace.Params{"axes": axes}, x)[0]
}

// Every axis subset of a 3-D array, for every dtype and the four
// arithmetic reductions, against the element-by-element reference. The
// values are small integers, so float32 computes every sum and product
// exactly and the result is the exact one rounded or wrapped once.
func TestReduceAllAxesAllDTypes(t *testing.T) {
	shape := []int{2, 3, 4}
	vals := make([]float64, 24)
	for i := range vals {
		vals[i] = float64((i*7)%5) - 1 // -1..3
	}
	dtypes := []trace.DType{trace.Int8, trace.Int16, trace.Int32, trace.Int64, trace.Float16,
		trace.BFloat16, trace.Float32, trace.Float64, trace.Complex64, trace.Complex128}
	for _, dt := range dtypes {
		x := bufferOf(t, dt, shape, anys(vals)...)
		for _, op := range []reduceOp{opSum, opProd, opMax, opMin} {
			for _, axes := range allAxisSets(3) {
				what := fmt.Sprintf("%s %s axes=%v", reduceNames[op], dt, axes)
				outShape, want := refReduce(shape, axes, vals, op)
				got := reduceApply(t, op, x, axes...)
				if !slices.Equal(got.Shape(), outShape) {
					t.Fatalf("%s: shape %v, want %v", what, got.Shape(), outShape)
				}
				// The reference rounded (or wrapped) once into dt.
				checkElements(t, what, got, elements(bufferOf(t, dt, outShape, anys(want)...))...)
			}
		}
	}
}

func ints(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

func TestReduceUnsignedAndBool(t *testing.T) {
	x := bufferOf(t, trace.Uint8, []int{2, 3}, 200, 100, 7, 1, 255, 0)
	checkElements(t, "sum wraps", reduceApply(t, opSum, x, 1), (200+100+7)%256, 256%256)
	checkElements(t, "max", reduceApply(t, opMax, x, 0), 200, 255, 7)
	checkElements(t, "min", reduceApply(t, opMin, x, 0), 1, 100, 0)
	checkElements(t, "and", reduceApply(t, opAnd, x, 1), 200&100&7, 0)
	checkElements(t, "or", reduceApply(t, opOr, x, 1), 200|100|7, 255)

	b := bufferOf(t, trace.Bool, []int{2, 3}, true, false, true, true, true, true)
	checkElements(t, "bool and", reduceApply(t, opAnd, b, 1), false, true)
	checkElements(t, "bool or", reduceApply(t, opOr, b, 0), true, true, true)
	checkElements(t, "bool max", reduceApply(t, opMax, b, 1), true, true)
	checkElements(t, "bool min", reduceApply(t, opMin, b, 0), true, false, true)
	checkElements(t, "bool and all", reduceApply(t, opAnd, b, 0, 1), false)

	i := bufferOf(t, trace.Int32, []int{3}, 6, -3, 12)
	checkElements(t, "int and", reduceApply(t, opAnd, i, 0), 6&-3&12)
	checkElements(t, "int or", reduceApply(t, opOr, i, 0), 6|-3|12)
}

func TestReduceIntegerOverflowWraps(t *testing.T) {
	x := bufferOf(t, trace.Int32, []int{3}, math.MaxInt32, 1, 1)
	checkElements(t, "int32 sum", reduceApply(t, opSum, x, 0), math.MinInt32+1)
	y := bufferOf(t, trace.Int8, []int{2, 2}, 100, 100, 64, 4)
	checkElements(t, "int8 rows", reduceApply(t, opSum, y, 0), 164-256, 104)
	checkElements(t, "int8 prod", reduceApply(t, opProd, y, 1), 10000%256, 256%256)
	z := bufferOf(t, trace.Int64, []int{2}, int64(math.MaxInt64), int64(math.MaxInt64))
	checkElements(t, "int64 sum", reduceApply(t, opSum, z, 0), int64(-2))
}

func TestReduceEmpty(t *testing.T) {
	inf := math.Inf(1)
	f := bufferOf(t, trace.Float32, []int{2, 0})
	checkElements(t, "sum", reduceApply(t, opSum, f, 1), 0.0, 0.0)
	checkElements(t, "prod", reduceApply(t, opProd, f, 1), 1.0, 1.0)
	checkElements(t, "max", reduceApply(t, opMax, f, 1), -inf, -inf)
	checkElements(t, "min", reduceApply(t, opMin, f, 1), inf, inf)
	if got := reduceApply(t, opSum, f, 0); got.Len() != 0 {
		t.Errorf("sum over a non-empty axis of an empty array: %d elements", got.Len())
	}
	i := bufferOf(t, trace.Int16, []int{0, 3})
	checkElements(t, "int max", reduceApply(t, opMax, i, 0), math.MinInt16, math.MinInt16, math.MinInt16)
	checkElements(t, "int min", reduceApply(t, opMin, i, 0), math.MaxInt16, math.MaxInt16, math.MaxInt16)
	checkElements(t, "int and", reduceApply(t, opAnd, i, 0), -1, -1, -1)
	u := bufferOf(t, trace.Uint16, []int{0})
	checkElements(t, "uint and", reduceApply(t, opAnd, u, 0), math.MaxUint16)
	checkElements(t, "uint min", reduceApply(t, opMin, u, 0), math.MaxUint16)
	b := bufferOf(t, trace.Bool, []int{0})
	checkElements(t, "bool and", reduceApply(t, opAnd, b, 0), true)
	checkElements(t, "bool or", reduceApply(t, opOr, b, 0), false)
	h := bufferOf(t, trace.BFloat16, []int{0, 2})
	checkElements(t, "bf16 max", reduceApply(t, opMax, h, 0), -inf, -inf)
	c := bufferOf(t, trace.Complex64, []int{0})
	checkElements(t, "complex prod", reduceApply(t, opProd, c, 0), complex(1, 0))
}

// Reducing no axes, or only axes of size 1, copies.
func TestReduceNoAxes(t *testing.T) {
	x := bufferOf(t, trace.Float16, []int{2, 1}, 1.5, -2.0)
	checkElements(t, "no axes", reduceApply(t, opSum, x), 1.5, -2.0)
	checkElements(t, "size-1 axis", reduceApply(t, opMax, x, 1), 1.5, -2.0)
}

func TestReduceNaNAndSignedZeros(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, dt := range []trace.DType{trace.Float32, trace.Float64, trace.Float16} {
		x := bufferOf(t, dt, []int{2, 3}, 1.0, nan, 3.0, -inf, 2.0, -1.0)
		checkElements(t, dt.String()+" max rows", reduceApply(t, opMax, x, 1), nan, 2.0)
		checkElements(t, dt.String()+" min cols", reduceApply(t, opMin, x, 0), -inf, nan, -1.0)
		checkElements(t, dt.String()+" sum", reduceApply(t, opSum, x, 0, 1), nan)

		z := bufferOf(t, dt, []int{2, 2}, -0.0, 0.0, 0.0, -0.0)
		checkElements(t, "max zeros line", reduceApply(t, opMax, z, 1), 0.0, 0.0)
		checkElements(t, "min zeros line", reduceApply(t, opMin, z, 1), -0.0, -0.0)
		checkElements(t, "max zeros rows", reduceApply(t, opMax, z, 0), 0.0, 0.0)
		checkElements(t, "min zeros rows", reduceApply(t, opMin, z, 0), -0.0, -0.0)
		n := bufferOf(t, dt, []int{2}, -0.0, -0.0)
		checkElements(t, "sum of -0.0 starts from +0.0", reduceApply(t, opSum, n, 0), 0.0)
		checkElements(t, "max of -0.0", reduceApply(t, opMax, n, 0), -0.0)
		checkElements(t, "prod of -0.0", reduceApply(t, opProd, n, 0), 0.0)
		nr := bufferOf(t, dt, []int{2, 1, 2}, -0.0, -0.0, -0.0, -0.0)
		checkElements(t, "row sum of -0.0", reduceApply(t, opSum, nr, 0), 0.0, 0.0)
	}
	c := bufferOf(t, trace.Complex128, []int{3}, complex(1, 5), complex(2, -1), complex(2, -3))
	checkElements(t, "complex max", reduceApply(t, opMax, c, 0), complex(2, -1))
	checkElements(t, "complex min", reduceApply(t, opMin, c, 0), complex(1, 5))
	cn := bufferOf(t, trace.Complex64, []int{2}, complex(1, 0), complex(0, nan))
	if v := reduceApply(t, opMax, cn, 0).Element(0).(complex128); !math.IsNaN(imag(v)) {
		t.Errorf("complex max with a NaN: %v", v)
	}
}

// Larger shapes take the parallel paths: long lines split across the
// pool, row blocks, and row blocks split by rows. Integer results must be
// exact; float sums within a pairwise bound of the float64 reference.
func TestReduceLargeShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []struct {
		shape []int
		axes  []int
	}{
		{[]int{1 << 20}, []int{0}},
		{[]int{3, 300001}, []int{1}},
		{[]int{600000, 3}, []int{0}},
		{[]int{4, 2000, 1500}, []int{1}},
		{[]int{3000, 700}, []int{0}},
		{[]int{50, 40, 30, 20}, []int{0, 2}},
		{[]int{50, 40, 30, 20}, []int{1, 3}},
		{[]int{2, 1 << 19, 3}, []int{0, 1}},
	}
	for _, tc := range shapes {
		n := 1
		for _, d := range tc.shape {
			n *= d
		}
		ivals := make([]float64, n)
		fvals := make([]float64, n)
		for i := range ivals {
			ivals[i] = float64(rng.IntN(2001) - 1000)
			fvals[i] = float64(float32(rng.Float64()*2 - 0.5))
		}
		what := fmt.Sprintf("shape %v axes %v", tc.shape, tc.axes)
		ib := bufferOf(t, trace.Int32, tc.shape, anys(ivals)...)
		for _, op := range []reduceOp{opSum, opMax, opMin} {
			_, want := refReduce(tc.shape, tc.axes, ivals, op)
			checkElements(t, what+" int32 "+reduceNames[op], reduceApply(t, op, ib, tc.axes...), ints(want)...)
		}
		fb := bufferOf(t, trace.Float32, tc.shape, anys(fvals)...)
		_, want := refReduce(tc.shape, tc.axes, fvals, opSum)
		got := reduceApply(t, opSum, fb, tc.axes...)
		reduced := n / len(want)
		for i, w := range want {
			g := got.Element(i).(float64)
			// Pairwise bound: (block + log2 n) ulp of the sum of magnitudes,
			// which is at most twice the sum here (values lie in [-0.5, 1.5)).
			tol := (pairwiseRows + 8 + 5 + math.Log2(float64(reduced)) + 2) * 0x1p-24 * 2 * math.Abs(w)
			if math.Abs(g-w) > tol+1e-6 {
				t.Fatalf("%s: float32 sum %d = %v, want %v ± %g", what, i, g, w, tol)
			}
		}
	}
}
