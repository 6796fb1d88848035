package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// gather with XLA's semantics, as JAX runs it on CPU (jax/_src/lax/slicing.py,
// _gather_lower and _gather_fill). The indices' last dimension is the index
// vector; every other index dimension is a batch dimension, and each batch
// position selects one window of the operand, of shape slice_sizes, whose
// start in operand dimension start_index_map[j] is component j of its index
// vector (0 in dimensions the map leaves out). The output's offset_dims
// walk the window's dimensions that are neither collapsed nor batching; its
// other dimensions walk the batch positions.
//
// Out-of-bounds starts, by mode:
//   - CLIP and PROMISE_IN_BOUNDS clamp each start into [0, dim - size], as
//     XLA's gather always does, so the window lies in bounds.
//   - FILL_OR_DROP gives the fill value for the whole window of a batch
//     position if any of its starts lies outside [0, dim - size] (JAX masks
//     whole windows the same way). With no fill_value param the fill is
//     JAX's default: NaN for floating and complex dtypes, the minimum for
//     signed integers, the maximum for unsigned ones, and True for bool.

func init() {
	registerKernel("gather", gatherKernel)
}

// windowStarts computes, for each batch position of the indices, the flat
// operand offset where its window starts, or -1 if the window is out of
// bounds and dropped (filled, for gather).
type windowStarts struct {
	vectorLen int
	strides   []int // per index vector component: its operand dimension's stride
	limits    []int // per component: the largest start that keeps the window in bounds
	clamp     bool  // clamp out-of-bounds starts instead of dropping the window
	// Batching dimensions pair an operand dimension with an indices batch
	// dimension: the window's start there is the batch position's own
	// coordinate along that indices dimension.
	batchOperandStrides []int
	batchSizes          []int
	batchStrides        []int      // strides of those dimensions in the batch numbering
	stop                stopSignal // the program's, for the pool work
}

// newWindowStarts describes windows of shape window in an operand of shape
// opShape; startDims maps index vector components to operand dimensions,
// operandBatching and indicesBatching pair the batching dimensions.
func newWindowStarts(opShape, window, startDims, operandBatching, indicesBatching []int, indicesShape trace.Shape, clamp bool) *windowStarts {
	opStrides := rowMajorStrides(opShape)
	batchShape := indicesShape[:len(indicesShape)-1]
	batchStrides := rowMajorStrides(batchShape)
	ws := &windowStarts{vectorLen: len(startDims), clamp: clamp}
	for _, d := range startDims {
		ws.strides = append(ws.strides, opStrides[d])
		ws.limits = append(ws.limits, opShape[d]-window[d])
	}
	for i, d := range operandBatching {
		q := indicesBatching[i]
		ws.batchOperandStrides = append(ws.batchOperandStrides, opStrides[d])
		ws.batchSizes = append(ws.batchSizes, batchShape[q])
		ws.batchStrides = append(ws.batchStrides, batchStrides[q])
	}
	return ws
}

// compute returns the window offset of each of the n batch positions.
func (ws *windowStarts) compute(indices *Buffer, n int) []int {
	switch indices.DType() {
	case trace.Int8:
		return computeStarts(ws, view[int8](indices), n)
	case trace.Int16:
		return computeStarts(ws, view[int16](indices), n)
	case trace.Int32:
		return computeStarts(ws, view[int32](indices), n)
	case trace.Int64:
		return computeStarts(ws, view[int64](indices), n)
	case trace.Uint8:
		return computeStarts(ws, view[uint8](indices), n)
	case trace.Uint16:
		return computeStarts(ws, view[uint16](indices), n)
	case trace.Uint32:
		return computeStarts(ws, view[uint32](indices), n)
	}
	panic("cpu: indices of dtype " + indices.DType().String())
}

type indexElem interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32
}

func computeStarts[I indexElem](ws *windowStarts, idx []I, n int) []int {
	starts := make([]int, n)
	k := ws.vectorLen
	pool.parallelFor(ws.stop, n, max(1, grainElements/max(1, k)), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			start := 0
			for j, raw := range idx[b*k : b*k+k] {
				v, limit := int(raw), ws.limits[j]
				if v < 0 || v > limit {
					if !ws.clamp {
						start = -1
						break
					}
					v = max(0, min(v, limit))
				}
				start += v * ws.strides[j]
			}
			if start >= 0 {
				for q, s := range ws.batchOperandStrides {
					start += (b / ws.batchStrides[q]) % ws.batchSizes[q] * s
				}
			}
			starts[b] = start
		}
	})
	return starts
}

// batchCount is the number of index vectors: the product of all indices
// dimensions but the last.
func batchCount(indices trace.Shape) int { return indices[:len(indices)-1].Size() }

func gatherKernel(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
	operand, indices, y := in[0], in[1], out[0]
	if y.Len() == 0 {
		return nil
	}
	dn, _ := trace.ParamAs[trace.GatherDimensionNumbers](e.Params, "dimension_numbers")
	sizes := e.Params.Ints("slice_sizes")
	mode, _ := trace.ParamAs[trace.GatherScatterMode](e.Params, "mode")
	opShape := operand.Shape()
	for d, size := range sizes {
		// The shape rule (as JAX's) checks slice sizes only when the indices
		// are non-empty, but index vectors of length 0 still make windows.
		if size > opShape[d] {
			return fmt.Errorf("slice size %d of dimension %d exceeds the operand's %d", size, d, opShape[d])
		}
	}
	ws := newWindowStarts(opShape, sizes, dn.StartIndexMap, dn.OperandBatchingDims, dn.StartIndicesBatchingDims,
		indices.Shape(), mode != trace.GatherFillOrDrop)
	ws.stop = stop
	if gatherScalars(y, operand, indices, sizes, ws, gatherFill(y, e.Params["fill_value"])) {
		return nil
	}
	starts := ws.compute(indices, batchCount(indices.Shape()))

	// Output dimension d walks either a window dimension of the operand
	// (vector 2: operand stride) or a batch dimension (vector 1: stride in
	// the batch numbering, which indexes starts).
	opStrides := rowMajorStrides(opShape)
	batchStrides := rowMajorStrides(indices.Shape()[:indices.Shape().Rank()-1])
	var windowDims []int
	for d := range opShape {
		if !slices.Contains(dn.CollapsedSliceDims, d) && !slices.Contains(dn.OperandBatchingDims, d) {
			windowDims = append(windowDims, d)
		}
	}
	shape := y.Shape()
	w := strideWalk{shape: shape, strides: [walkVectors][]int{rowMajorStrides(shape), make([]int, len(shape)), make([]int, len(shape))}, stop: stop}
	for d, window, batch := 0, 0, 0; d < len(shape); d++ {
		if slices.Contains(dn.OffsetDims, d) {
			w.strides[2][d] = opStrides[windowDims[window]]
			window++
		} else {
			w.strides[1][d] = batchStrides[batch]
			batch++
		}
	}
	fill := gatherFill(y, e.Params["fill_value"])
	switch y.DType().Size() {
	case 1:
		gatherElems(view[uint8](y), view[uint8](operand), starts, view[uint8](fill)[0], w)
	case 2:
		gatherElems(view[uint16](y), view[uint16](operand), starts, view[uint16](fill)[0], w)
	case 4:
		gatherElems(view[uint32](y), view[uint32](operand), starts, view[uint32](fill)[0], w)
	case 8:
		gatherElems(view[uint64](y), view[uint64](operand), starts, view[uint64](fill)[0], w)
	case 16:
		gatherElems(view[[2]uint64](y), view[[2]uint64](operand), starts, view[[2]uint64](fill)[0], w)
	}
	return nil
}

// gatherFill is the fill value as a 0-d buffer of y's dtype: the param if
// given, else JAX's default for the dtype. Only FILL_OR_DROP produces
// dropped windows, so other modes never read it.
func gatherFill(y *Buffer, param any) *Buffer {
	fill := newBuffer(y.dev, trace.AVal{Shape: trace.Shape{}, DType: y.DType()})
	dt := y.DType()
	switch v := param.(type) {
	case int:
		param = int64(v)
	case nil:
		switch {
		case dt.IsInexact():
			param = math.NaN()
		case dt.IsSigned():
			param, _ = intRange(dt)
		case dt.IsUnsigned():
			_, param = intRange(dt)
		default:
			param = true
		}
	}
	if err := setElement(fill, 0, param); err != nil {
		panic(err) // the param kind admits only bool, int and float64
	}
	return fill
}

// gatherElems moves each output element from its window (vector 2 offsets
// from the window start, vector 1 the batch position). A simplified walk's
// innermost dimension is either a window or a batch dimension, never both,
// which picks the inner loop.
func gatherElems[E any](dst, src []E, starts []int, fill E, w strideWalk) {
	w = w.simplified()
	st := w.steps()
	batchStep, srcStep := st.inner[1], st.inner[2]
	var run runFunc
	if batchStep == 0 { // one window per run
		run = func(o walkOffsets, n, rows int) {
			for range rows {
				d := dst[o[0] : o[0]+n]
				start := starts[o[1]]
				switch {
				case start < 0:
					for i := range d {
						d[i] = fill
					}
				case srcStep == 1:
					copy(d, src[start+o[2]:])
				default:
					s := start + o[2]
					for i := range d {
						d[i] = src[s]
						s += srcStep
					}
				}
				st.nextRow(&o)
			}
		}
	} else { // one batch position per element
		run = func(o walkOffsets, n, rows int) {
			for range rows {
				d := dst[o[0] : o[0]+n]
				b := o[1]
				for i := range d {
					if start := starts[b]; start >= 0 {
						d[i] = src[start+o[2]]
					} else {
						d[i] = fill
					}
					b += batchStep
				}
				st.nextRow(&o)
			}
		}
	}
	w.parallel(run)
}
