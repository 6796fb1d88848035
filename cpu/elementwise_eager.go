package cpu

import (
	"sync"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// The eager kernels of the elementwise primitives: each runs its block op
// over the whole output, split across the worker pool.

func init() {
	for _, name := range elementwisePrimitives {
		registerKernel(name, elementwiseKernel)
	}
}

// elementwisePrimitives are the primitives elementwiseKernel runs: every
// primitive with the Elementwise property.
var elementwisePrimitives = []string{
	// unary
	"neg", "sign", "floor", "ceil", "round", "is_finite", "exp", "exp2", "log", "log1p",
	"expm1", "tanh", "logistic", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
	"asinh", "acosh", "atanh", "sqrt", "rsqrt", "cbrt", "erf", "erfc", "erf_inv", "abs",
	"square", "not", "population_count", "integer_pow", "reduce_precision", "copy",
	// binary
	"add", "sub", "mul", "div", "rem", "max", "min", "atan2", "nextafter", "and", "or", "xor",
	"shift_left", "shift_right_logical", "shift_right_arithmetic",
	"eq", "ne", "lt", "le", "gt", "ge", "pow",
	// others
	"select_n", "clamp", "threefry2x32", "convert_element_type",
	// complex components
	"real", "imag", "conj", "complex",
}

// preparedElementwise returns the block kernel of an elementwise equation,
// found when a program is compiled (its operand dtypes are the equation's),
// so that each run skips the lookup and the op's construction; false when
// the equation is not elementwise or has no block kernel (its kernel then
// reports why when it runs).
func preparedElementwise(e *trace.Eqn) (blockKernel, bool) {
	if _, ok := kernels[e.Prim.Name]; !ok || !writesEveryElement[e.Prim.Name] {
		return blockKernel{}, false
	}
	dts := make([]trace.DType, len(e.In))
	for i, a := range e.In {
		dts[i] = a.Aval().DType
	}
	k, err := elementwiseBlock(e.Prim.Name, e.Params, dts)
	return k, err == nil
}

func elementwiseKernel(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
	dts := make([]trace.DType, len(in))
	for i, b := range in {
		dts[i] = b.DType()
	}
	k, err := elementwiseBlock(e.Prim.Name, e.Params, dts)
	if err != nil {
		return err
	}
	runElementwise(k, in, out, stop)
	return nil
}

// halfPiece is how many elements of float16/bfloat16 operands are widened
// to float32 at a time: the widened runs stay in L1 between the widening,
// the op and the rounding store.
const halfPiece = 1024

// runElementwise computes every output element. Operands have the
// output's shape, or one element (a scalar, broadcast), or size-1
// dimensions that broadcast (lax's shape rule allows them); the last kind
// is walked a row at a time.
func runElementwise(k blockKernel, in, out []*Buffer, stop stopSignal) {
	n := out[0].Len()
	if n == 0 {
		return
	}
	for _, b := range in {
		if b.Len() != n && b.Len() != 1 {
			runBroadcastRows(k, in, out, stop)
			return
		}
	}
	if n <= grainElements {
		runFlat(k, in, out, 0, n) // no closure for parallelFor to keep
		return
	}
	pool.parallelFor(stop, n, grainElements, func(lo, hi int) { runFlat(k, in, out, lo, hi) })
}

// runFlat computes output elements [lo, hi) of operands that have the
// output's size or one element.
func runFlat(k blockKernel, in, out []*Buffer, lo, hi int) {
	r := newRunner(k, in, out)
	for i, b := range in {
		if b.Len() == 1 {
			r.inOff[i], r.inFull[i] = 0, false
		} else {
			r.inOff[i], r.inFull[i] = lo, true
		}
	}
	r.run(lo, hi-lo)
	r.release()
}

// A runner computes runs of one eager elementwise op on one worker; it
// holds the run headers and the float32 scratch for 16-bit operands.
type runner struct {
	k       blockKernel
	in, out []*Buffer
	// inOff is the element offset of each operand's run; inFull says
	// whether the run is as long as the output's (else one element).
	inOff   []int
	inFull  []bool
	inRuns  [][]byte
	outRuns [][]byte
	widen   bool // some operand or result is 16-bit and computes in float32
	scratch [][]float32
}

// runners holds released runners: a run's headers and scratch are reused.
var runners sync.Pool

func newRunner(k blockKernel, in, out []*Buffer) *runner {
	r, _ := runners.Get().(*runner)
	if r == nil {
		r = &runner{}
	}
	r.k, r.in, r.out, r.widen = k, in, out, false
	r.inOff = resize(r.inOff, len(in))
	r.inFull = resize(r.inFull, len(in))
	r.inRuns = resize(r.inRuns, len(in))
	r.outRuns = resize(r.outRuns, len(out))
	for i, b := range in {
		r.widen = r.widen || b.DType() != k.in[i]
	}
	for j, b := range out {
		r.widen = r.widen || b.DType() != k.out[j]
	}
	if r.widen && len(r.scratch) < len(in)+len(out) {
		r.scratch = make([][]float32, len(in)+len(out))
		for i := range r.scratch {
			r.scratch[i] = make([]float32, halfPiece)
		}
	}
	return r
}

// release returns r to the pool, holding no buffer.
func (r *runner) release() {
	r.in, r.out = nil, nil
	clear(r.inRuns)
	clear(r.outRuns)
	runners.Put(r)
}

// resize returns s with length n, reusing its array when it is long enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// run computes n output elements starting at outOff, reading operand i
// from r.inOff[i].
func (r *runner) run(outOff, n int) {
	if !r.widen {
		for i, b := range r.in {
			r.inRuns[i] = elementRun(b, r.inOff[i], r.runLen(i, n))
		}
		for j, b := range r.out {
			r.outRuns[j] = elementRun(b, outOff, n)
		}
		r.k.op(r.outRuns, r.inRuns)
		return
	}
	for done := 0; done < n; done += halfPiece {
		m := min(halfPiece, n-done)
		for i, b := range r.in {
			off, length := r.inOff[i], r.runLen(i, m)
			if r.inFull[i] {
				off += done
			}
			if b.DType() == r.k.in[i] {
				r.inRuns[i] = elementRun(b, off, length)
				continue
			}
			wide := r.scratch[i][:length]
			widenRun(wide, view[uint16](b)[off:off+length], b.DType())
			r.inRuns[i] = bytesOf(wide)
		}
		for j, b := range r.out {
			if b.DType() == r.k.out[j] {
				r.outRuns[j] = elementRun(b, outOff+done, m)
			} else {
				r.outRuns[j] = bytesOf(r.scratch[len(r.in)+j][:m])
			}
		}
		r.k.op(r.outRuns, r.inRuns)
		for j, b := range r.out {
			if b.DType() != r.k.out[j] {
				narrowRun(view[uint16](b)[outOff+done:outOff+done+m], r.scratch[len(r.in)+j][:m], b.DType())
			}
		}
	}
}

func (r *runner) runLen(i, n int) int {
	if r.inFull[i] {
		return n
	}
	return 1
}

// elementRun is the bytes of elements [off, off+n) of b.
func elementRun(b *Buffer, off, n int) []byte {
	size := b.DType().Size()
	return b.data[off*size : (off+n)*size]
}

// widenRun converts 16-bit floats to float32, exactly.
func widenRun(dst []float32, src []uint16, dt trace.DType) {
	src = src[:len(dst)]
	if dt == trace.BFloat16 {
		for i, h := range src {
			dst[i] = half.BFloat16ToFloat32(h)
		}
		return
	}
	for i, h := range src {
		dst[i] = half.Float16ToFloat32(h)
	}
}

// narrowRun rounds float32 values to the nearest 16-bit float of dt.
func narrowRun(dst []uint16, src []float32, dt trace.DType) {
	src = src[:len(dst)]
	if dt == trace.BFloat16 {
		for i, f := range src {
			dst[i] = half.BFloat16FromFloat32(f)
		}
		return
	}
	for i, f := range src {
		dst[i] = half.Float16FromFloat32(f)
	}
}

// runBroadcastRows computes an output whose operands broadcast along
// size-1 dimensions. Output dimensions are merged where every operand
// broadcasts alike, and the innermost merged dimension becomes a row: in
// each row an operand is a full run or one element, so the block op runs
// once per row. Rows are split across the worker pool.
func runBroadcastRows(k blockKernel, in, out []*Buffer, stop stopSignal) {
	shape := out[0].Shape()
	// Per merged dimension: its size and, per operand, whether it is
	// broadcast along it.
	var dims []int
	var bcast [][]bool
	operandBroadcasts := func(b *Buffer, d int) bool {
		return b.Len() == 1 || b.Shape()[d] == 1
	}
	for d, size := range shape {
		if size == 1 {
			continue
		}
		flags := make([]bool, len(in))
		for i, b := range in {
			flags[i] = operandBroadcasts(b, d)
		}
		if last := len(dims) - 1; last >= 0 && equalFlags(bcast[last], flags) {
			dims[last] *= size
			continue
		}
		dims = append(dims, size)
		bcast = append(bcast, flags)
	}
	inner := dims[len(dims)-1]
	outer, outerB := dims[:len(dims)-1], bcast[:len(dims)-1]
	// strides[i][d] is operand i's element stride along outer dimension d
	// (0 where it broadcasts): contiguous strides of its merged shape.
	strides := make([][]int, len(in))
	for i := range in {
		strides[i] = make([]int, len(outer))
		stride := 1
		if !bcast[len(dims)-1][i] {
			stride = inner
		}
		for d := len(outer) - 1; d >= 0; d-- {
			if !outerB[d][i] {
				strides[i][d] = stride
				stride *= outer[d]
			}
		}
	}
	rows := 1
	for _, s := range outer {
		rows *= s
	}
	pool.parallelFor(stop, rows, max(1, grainElements/inner), func(lo, hi int) {
		r := newRunner(k, in, out)
		for i := range in {
			r.inFull[i] = !bcast[len(dims)-1][i]
		}
		idx := make([]int, len(outer))
		rest := lo
		for d := len(outer) - 1; d >= 0; d-- {
			idx[d] = rest % outer[d]
			rest /= outer[d]
		}
		for row := lo; row < hi; row++ {
			for i := range in {
				off := 0
				for d, x := range idx {
					off += x * strides[i][d]
				}
				r.inOff[i] = off
			}
			r.run(row*inner, inner)
			for d := len(idx) - 1; d >= 0; d-- {
				if idx[d]++; idx[d] < outer[d] {
					break
				}
				idx[d] = 0
			}
		}
		r.release()
	})
}

func equalFlags(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
