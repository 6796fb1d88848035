package cpu

import (
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// scatter and its combining forms with XLA's semantics, as JAX runs them on
// CPU (jax/_src/lax/slicing.py, _scatter_lower). The result starts as a copy
// of the operand. The indices' last dimension is the index vector; each
// batch position of the indices (every other dimension, row-major) owns one
// update window: the updates' update_window_dims, placed in the operand's
// dimensions that are neither inserted nor batching, in order, starting at
// the index vector (scatter_dims_to_operand_dims maps its components).
//
// Out-of-bounds windows, by mode: CLIP clamps each start into
// [0, dim - window] first (JAX clamps the indices before lowering);
// FILL_OR_DROP and PROMISE_IN_BOUNDS drop the whole window of a batch
// position if any start lies outside that range, as XLA does.
//
// Order: windows apply one batch position at a time, in row-major order of
// the batch positions, as XLA's CPU scatter loop does. So with duplicate
// indices every update is applied: scatter-add sums them all (rounding after
// each, in order), and plain scatter keeps the last update in batch order.
// Within a window all elements land on distinct operand elements, so a large
// window is split across the pool; windows themselves run one after another.

func init() {
	for _, name := range []string{"scatter", "scatter-add", "scatter-mul", "scatter-min", "scatter-max"} {
		registerKernel(name, scatterKernel)
	}
}

func scatterKernel(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
	operand, indices, updates, y := in[0], in[1], in[2], out[0]
	copyBuffer(y, operand)
	if updates.Len() == 0 || y.Len() == 0 {
		return nil
	}
	dn, _ := trace.ParamAs[trace.ScatterDimensionNumbers](e.Params, "dimension_numbers")
	mode, _ := trace.ParamAs[trace.GatherScatterMode](e.Params, "mode")
	opShape, updShape := y.Shape(), updates.Shape()
	opStrides, updStrides := rowMajorStrides(opShape), rowMajorStrides(updShape)

	// The window: update_window_dims of the updates against the operand's
	// remaining dimensions; inserted and batching dimensions have extent 1.
	window := make([]int, len(opShape))
	var win strideWalk
	win.strides[0], win.strides[1] = []int{}, []int{}
	for d, p := 0, 0; d < len(opShape); d++ {
		window[d] = 1
		if slices.Contains(dn.InsertedWindowDims, d) || slices.Contains(dn.OperandBatchingDims, d) {
			continue
		}
		u := dn.UpdateWindowDims[p]
		p++
		window[d] = updShape[u]
		win.shape = append(win.shape, updShape[u])
		win.strides[0] = append(win.strides[0], updStrides[u])
		win.strides[1] = append(win.strides[1], opStrides[d])
	}
	windowSize := win.size()
	win = win.simplified()

	ws := newWindowStarts(opShape, window, dn.ScatterDimsToOperandDims, dn.OperandBatchingDims, dn.ScatterIndicesBatchingDims,
		indices.Shape(), mode == trace.GatherClip)
	ws.stop = stop
	n := batchCount(indices.Shape())
	starts := ws.compute(indices, n)

	// The updates' other dimensions walk the batch positions in order; a
	// counter over them gives each position's first update element.
	var batch strideWalk
	batch.strides[0] = []int{}
	for d := range updShape {
		if !slices.Contains(dn.UpdateWindowDims, d) {
			batch.shape = append(batch.shape, updShape[d])
			batch.strides[0] = append(batch.strides[0], updStrides[d])
		}
	}
	batch = batch.simplified()
	batchOffsets := make([]int, 0, n)
	bst := batch.steps()
	batch.run(0, n, func(o walkOffsets, k, rows int) {
		for range rows {
			for i := range k {
				batchOffsets = append(batchOffsets, o[0]+i*bst.inner[0])
			}
			bst.nextRow(&o)
		}
	})

	apply := scatterRun(e.Prim.Name, y, updates, win.steps())
	for b, start := range starts {
		if start < 0 {
			continue
		}
		if windowSize == 1 {
			apply(walkOffsets{batchOffsets[b], start}, 1, 1)
			continue
		}
		at := win
		at.off, at.stop = walkOffsets{batchOffsets[b], start}, stop
		if windowSize >= 2*grainElements {
			at.parallel(apply)
		} else {
			at.run(0, windowSize, apply)
		}
	}
	return nil
}
