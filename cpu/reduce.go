package cpu

import (
	"math"
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// Reductions over any set of axes: reduce_sum, reduce_prod, reduce_max,
// reduce_min, reduce_and, reduce_or.
//
// Geometry. Size-1 dimensions are dropped and neighbouring dimensions that
// are both reduced or both kept are merged, so the operand becomes
// alternating groups. Each run of reduced dimensions is one stage, innermost
// first, and every stage sees its input as a span3 [outer, n, inner]:
// inner == 1 reduces contiguous lines, inner > 1 accumulates whole rows of
// inner elements (outer-axis reductions never stride element by element).
//
// Semantics, following XLA's reduce with lax's init values:
//   - Sums and products of floats are pairwise (reduce_pairwise.go: error
//     ~log2 n ulp, not n, and bit-identical however the work is split);
//     float16 and bfloat16 widen to float32, reduce, and round once. A sum
//     starts from +0.0, so a sum of -0.0s is +0.0.
//   - Integer sums and products wrap.
//   - max/min propagate NaN; between +0.0 and -0.0, max picks +0.0 and min
//     picks -0.0 whatever the order (IEEE 754-2019 maximum/minimum), so the
//     result does not depend on how the work was split. Complex max/min
//     compare (real, imag) lexicographically, NaN in either part propagating.
//   - Empty reductions give the identity: 0, 1, -inf/INT_MIN/False,
//     +inf/INT_MAX/True, all ones/True for and, 0/False for or.

func init() {
	for name, op := range map[string]reduceOp{
		"reduce_sum": opSum, "reduce_prod": opProd, "reduce_max": opMax,
		"reduce_min": opMin, "reduce_and": opAnd, "reduce_or": opOr,
	} {
		registerKernel(name, func(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
			reduceBuffer(op, e.Params.Ints("axes"), in[0], out[0], stop)
			return nil
		})
	}
}

type reduceOp uint8

const (
	opSum reduceOp = iota
	opProd
	opMax
	opMin
	opAnd
	opOr
)

// A span3 views an array around one group of axes as [outer, n, inner]:
// element (p, r, k) lies at (p*n+r)*inner + k.
type span3 struct{ outer, n, inner int }

// spanAround is the span3 of a single axis.
func spanAround(shape []int, axis int) span3 {
	s := span3{outer: 1, n: shape[axis], inner: 1}
	for d, n := range shape {
		switch {
		case d < axis:
			s.outer *= n
		case d > axis:
			s.inner *= n
		}
	}
	return s
}

// reduceStages plans a reduction of a non-empty operand over axes: one
// span3 per run of reduced dimensions, innermost run first; each stage's
// result is the next one's operand. No stages means nothing is reduced
// (every reduced axis has size 1).
func reduceStages(shape []int, axes []int) []span3 {
	type group struct {
		reduced bool
		n       int
	}
	var gs []group
	for d, n := range shape {
		if n == 1 {
			continue
		}
		red := slices.Contains(axes, d)
		if len(gs) > 0 && gs[len(gs)-1].reduced == red {
			gs[len(gs)-1].n *= n
			continue
		}
		gs = append(gs, group{red, n})
	}
	var stages []span3
	for {
		g := slices.IndexFunc(gs, func(x group) bool { return x.reduced })
		for i := len(gs) - 1; i > g; i-- {
			if gs[i].reduced {
				g = i
				break
			}
		}
		if g < 0 {
			return stages
		}
		s := span3{outer: 1, n: gs[g].n, inner: 1}
		for _, x := range gs[:g] {
			s.outer *= x.n
		}
		for _, x := range gs[g+1:] {
			s.inner *= x.n
		}
		stages = append(stages, s)
		// Groups next to g are kept ones; once g is gone they are adjacent.
		if g > 0 && g+1 < len(gs) {
			gs[g-1].n *= gs[g+1].n
			gs = slices.Delete(gs, g, g+2)
		} else {
			gs = slices.Delete(gs, g, g+1)
		}
	}
}

func reduceBuffer(op reduceOp, axes []int, src, dst *Buffer, stop stopSignal) {
	if dst.Len() == 0 {
		return
	}
	if src.Len() == 0 {
		fillReduceIdentity(op, dst)
		return
	}
	stages := reduceStages(src.Shape(), axes)
	if len(stages) == 0 {
		copy(dst.data, src.data)
		return
	}
	switch src.DType() {
	case trace.Bool:
		// Bools are bytes holding 0 or 1: max is or, min is and.
		runReduce(boolReducer(op), view[uint8](src), view[uint8](dst), stages, stop)
	case trace.Int8:
		runReduce(intReducer[int8](op), view[int8](src), view[int8](dst), stages, stop)
	case trace.Int16:
		runReduce(intReducer[int16](op), view[int16](src), view[int16](dst), stages, stop)
	case trace.Int32:
		runReduce(intReducer[int32](op), view[int32](src), view[int32](dst), stages, stop)
	case trace.Int64:
		runReduce(intReducer[int64](op), view[int64](src), view[int64](dst), stages, stop)
	case trace.Uint8:
		runReduce(intReducer[uint8](op), view[uint8](src), view[uint8](dst), stages, stop)
	case trace.Uint16:
		runReduce(intReducer[uint16](op), view[uint16](src), view[uint16](dst), stages, stop)
	case trace.Uint32:
		runReduce(intReducer[uint32](op), view[uint32](src), view[uint32](dst), stages, stop)
	case trace.Float16, trace.BFloat16:
		wide := widenHalf(src)
		acc := newBuffer(dst.dev, trace.AVal{Shape: dst.Shape(), DType: trace.Float32})
		runReduce(floatReducer[float32](op), view[float32](wide), view[float32](acc), stages, stop)
		narrowHalf(acc, dst)
	case trace.Float32:
		runReduce(floatReducer[float32](op), view[float32](src), view[float32](dst), stages, stop)
	case trace.Float64:
		runReduce(floatReducer[float64](op), view[float64](src), view[float64](dst), stages, stop)
	case trace.Complex64:
		runReduce(complexReducer[complex64](op), view[complex64](src), view[complex64](dst), stages, stop)
	case trace.Complex128:
		runReduce(complexReducer[complex128](op), view[complex128](src), view[complex128](dst), stages, stop)
	default:
		panic("cpu: reduction of " + src.DType().String())
	}
}

// fillReduceIdentity fills dst with op's identity for its dtype.
func fillReduceIdentity(op reduceOp, dst *Buffer) {
	dt := dst.DType()
	var v any
	switch op {
	case opSum, opOr:
		v = int64(0)
	case opProd:
		v = int64(1)
	case opAnd:
		v = int64(-1) // all ones; True for bool
		if dt.IsUnsigned() {
			_, hi := intRange(dt)
			v = hi
		}
	case opMax, opMin:
		switch {
		case dt == trace.Bool:
			v = op == opMin
		case dt.IsInteger():
			lo, hi := intRange(dt)
			v = lo
			if op == opMin {
				v = hi
			}
		default:
			v = math.Inf(-1)
			if op == opMin {
				v = math.Inf(1)
			}
		}
	}
	if err := setElement(dst, 0, v); err != nil {
		panic(err)
	}
	// Double the filled prefix until it covers the buffer.
	size := dt.Size()
	for filled := size; filled < len(dst.data); filled *= 2 {
		copy(dst.data[filled:], dst.data[:filled])
	}
}

// A reducer bundles one operation on one element type: a reduction of a
// contiguous line, an elementwise fold of a row into an accumulator row,
// and how to combine partial results.
type reducer[T any] struct {
	identity T
	line     func(x []T) T      // reduce a contiguous line (not empty)
	stop     stopSignal         // the program's (see parallelFor)
	rows     func(acc, row []T) // acc[i] = acc[i] op row[i]
	// pairwise: fold rows (and split lines) as a balanced tree of blocks of
	// pairwiseRows rows, for rounding error that grows with log n.
	pairwise bool
}

func (r reducer[T]) combine(a, b T) T {
	acc, row := []T{a}, []T{b}
	r.rows(acc, row)
	return acc[0]
}

// Work sizes: lines longer than parallelLine split in halves across the
// pool; row blocks are columnWidth elements wide (their accumulators stay
// in L1) and are split by rows when there are too few of them.
const (
	parallelLine = 1 << 18
	columnWidth  = 1024
	pairwiseRows = 16
)

func runReduce[T any](r reducer[T], src, dst []T, stages []span3, stop stopSignal) {
	r.stop = stop
	cur := src
	for i, s := range stages {
		next := dst
		if i < len(stages)-1 {
			next = make([]T, s.outer*s.inner)
		}
		reduceSpan(r, cur, next, s)
		cur = next
	}
}

// reduceSpan reduces x, seen as s, over its middle axis into out
// [outer, inner].
func reduceSpan[T any](r reducer[T], x, out []T, s span3) {
	if s.inner == 1 {
		pool.parallelFor(r.stop, s.outer, max(1, grainElements/s.n), func(lo, hi int) {
			for p := lo; p < hi; p++ {
				out[p] = reduceLine(r, x[p*s.n:(p+1)*s.n])
			}
		})
		return
	}
	width := min(s.inner, columnWidth)
	chunks := (s.inner + width - 1) / width
	units := s.outer * chunks
	// Split rows too when the column blocks cannot keep the pool busy.
	splitRows := units < 2*pool.size && s.n*width >= 2*parallelLine
	pool.parallelFor(r.stop, units, max(1, grainElements/(s.n*width)), func(lo, hi int) {
		f := rowFold[T]{r: r, stride: s.inner}
		for u := lo; u < hi; u++ {
			p, c := u/chunks, u%chunks
			k0 := c * width
			k1 := min(k0+width, s.inner)
			f.x, f.k0, f.width = x[p*s.n*s.inner:], k0, k1-k0
			f.fold(out[p*s.inner+k0:p*s.inner+k1], 0, s.n, splitRows)
		}
	})
}

// reduceLine reduces a contiguous line. Pairwise lines split themselves
// (pairwiseTree); others split in halves on the pool when long, which for
// exact operations cannot change the result.
func reduceLine[T any](r reducer[T], x []T) T {
	if r.pairwise || len(x) <= parallelLine {
		return r.line(x)
	}
	h := len(x) / 2
	var parts [2]T
	pool.parallelFor(r.stop, 2, 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i == 0 {
				parts[0] = reduceLine(r, x[:h])
			} else {
				parts[1] = reduceLine(r, x[h:])
			}
		}
	})
	return r.combine(parts[0], parts[1])
}

// rowFold folds rows of one column block: row i is
// x[i*stride+k0 : i*stride+k0+width].
type rowFold[T any] struct {
	r       reducer[T]
	x       []T
	stride  int
	k0      int
	width   int
	scratch [][]T // one accumulator row per tree level, reused across blocks
}

func (f *rowFold[T]) row(i int) []T {
	return f.x[i*f.stride+f.k0 : i*f.stride+f.k0+f.width]
}

// fold reduces rows [lo, hi) into acc. Sequentially within blocks, then
// as a balanced tree of blocks when the reducer is pairwise; parallel
// halves are folded on the pool, each with its own scratch.
func (f *rowFold[T]) fold(acc []T, lo, hi int, parallel bool) {
	if parallel && (hi-lo)*f.width >= 2*parallelLine && hi-lo >= 2 {
		mid := lo + (hi-lo)/2
		other := make([]T, f.width)
		pool.parallelFor(f.r.stop, 2, 1, func(a, b int) {
			for i := a; i < b; i++ {
				g := rowFold[T]{r: f.r, x: f.x, stride: f.stride, k0: f.k0, width: f.width}
				if i == 0 {
					g.fold(acc, lo, mid, true)
				} else {
					g.fold(other, mid, hi, true)
				}
			}
		})
		f.r.rows(acc, other)
		return
	}
	if !f.r.pairwise {
		f.sequential(acc, lo, hi)
		return
	}
	f.tree(acc, lo, hi, 0)
}

func (f *rowFold[T]) sequential(acc []T, lo, hi int) {
	for i := range acc {
		acc[i] = f.r.identity
	}
	for i := lo; i < hi; i++ {
		f.r.rows(acc, f.row(i))
	}
}

func (f *rowFold[T]) tree(acc []T, lo, hi, depth int) {
	if hi-lo <= pairwiseRows {
		f.sequential(acc, lo, hi)
		return
	}
	for len(f.scratch) <= depth {
		f.scratch = append(f.scratch, make([]T, columnWidth))
	}
	mid := lo + (hi-lo)/2
	f.tree(acc, lo, mid, depth+1)
	other := f.scratch[depth][:f.width]
	f.tree(other, mid, hi, depth+1)
	f.r.rows(acc, other)
}
