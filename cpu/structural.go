package cpu

import (
	"github.com/jaxsh/jaxsh/trace"
)

// Kernels for the structural primitives of trace/prims_shape.go, plus copy
// and bitcast_convert_type. Each describes its data movement as a
// strideWalk (structural_walk.go); operands have passed the shape rule, so
// params are consistent with the buffers.
//
// Dynamic start indices follow XLA (and so JAX on every backend):
// dynamic_slice and dynamic_update_slice clamp each start index into
// [0, operand_dim - window_dim], so the window always lies in bounds and an
// index past the end moves the window back rather than failing. Negative
// indices are clamped to 0 here; wrapping them from the end is the lax
// wrapper's job (jax.lax.dynamic_slice adds the dimension first).

func init() {
	registerKernel("reshape", onePass(copyKernel))
	registerKernel("squeeze", onePass(copyKernel))
	// copy is Elementwise as well as Structural; if the elementwise kernels
	// (cpu/elementwise*.go, initialised earlier by file order) already
	// registered it, theirs stands.
	if !HasKernel("copy") {
		registerKernel("copy", onePass(copyKernel))
	}
	registerKernel("bitcast_convert_type", onePass(bitcastKernel))
	registerKernel("broadcast_in_dim", onePass(broadcastInDimKernel))
	registerKernel("transpose", onePass(transposeKernel))
	registerKernel("rev", onePass(revKernel))
	registerKernel("slice", onePass(sliceKernel))
	registerKernel("dynamic_slice", onePass(dynamicSliceKernel))
	registerKernel("dynamic_update_slice", onePass(dynamicUpdateSliceKernel))
	registerKernel("concatenate", onePass(concatenateKernel))
	registerKernel("pad", onePass(padKernel))
	registerKernel("iota", onePass(iotaKernel))
}

// onePass adapts the structural kernels, which never check their
// program's stop: each is a single pass over memory (a copy, a fill, a
// walk), bounded by the time to write its result once.
func onePass(fn func(e *trace.Eqn, in, out []*Buffer) error) kernelFunc {
	return func(e *trace.Eqn, in, out []*Buffer, _ stopSignal) error { return fn(e, in, out) }
}

// copyKernel serves primitives that keep the row-major element order
// (reshape, squeeze, copy): the bytes are the same.
func copyKernel(_ *trace.Eqn, in, out []*Buffer) error {
	copyBuffer(out[0], in[0])
	return nil
}

// bitcastKernel reinterprets the bytes. Buffers hold elements in the host's
// little-endian layout, which is what XLA's CPU backend bitcasts too: a
// float32 becomes four uint8 with the least significant byte first, and
// narrower elements along the last dimension combine the same way. JAX
// refuses bool here unless both types are bool; the trace rule allows it,
// so any non-zero byte of a bool result is stored as true (1), the only
// bool representation kernels expect.
func bitcastKernel(_ *trace.Eqn, in, out []*Buffer) error {
	copyBuffer(out[0], in[0])
	if out[0].DType() == trace.Bool && in[0].DType() != trace.Bool {
		b := out[0].data
		pool.parallelFor(nil, len(b), grainElements, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if b[i] != 0 {
					b[i] = 1
				}
			}
		})
	}
	return nil
}

// broadcastInDimKernel reads operand dimension i for output dimension
// broadcast_dimensions[i]; other output dimensions, and operand dimensions
// of size 1 expanded to a larger output, repeat the same elements (source
// stride 0).
func broadcastInDimKernel(e *trace.Eqn, in, out []*Buffer) error {
	x, y := in[0], out[0]
	shape, xShape := y.Shape(), x.Shape()
	xStrides := rowMajorStrides(xShape)
	src := make([]int, len(shape))
	for i, d := range e.Params.Ints("broadcast_dimensions") {
		if xShape[i] != 1 {
			src[d] = xStrides[i]
		}
	}
	moveBuffer(y, x, strideWalk{shape: shape, strides: [walkVectors][]int{rowMajorStrides(shape), src}})
	return nil
}

// transposeKernel: output dimension i is operand dimension permutation[i].
// Large 2-D transposes take the tiled path (structural_transpose.go).
func transposeKernel(e *trace.Eqn, in, out []*Buffer) error {
	x, y := in[0], out[0]
	xStrides := rowMajorStrides(x.Shape())
	perm := e.Params.Ints("permutation")
	src := make([]int, len(perm))
	for i, d := range perm {
		src[i] = xStrides[d]
	}
	moveBuffer(y, x, strideWalk{shape: y.Shape(), strides: [walkVectors][]int{rowMajorStrides(y.Shape()), src}})
	return nil
}

// revKernel reverses the listed dimensions: they start at their last
// element and step backwards.
func revKernel(e *trace.Eqn, in, out []*Buffer) error {
	x, y := in[0], out[0]
	shape := x.Shape()
	src := rowMajorStrides(shape)
	w := strideWalk{shape: shape, strides: [walkVectors][]int{rowMajorStrides(shape), src}}
	for _, d := range e.Params.Ints("dimensions") {
		if shape[d] > 0 {
			w.off[1] += (shape[d] - 1) * src[d]
		}
		src[d] = -src[d]
	}
	moveBuffer(y, x, w)
	return nil
}

// sliceKernel copies elements start, start+stride, ... below limit in each
// dimension.
func sliceKernel(e *trace.Eqn, in, out []*Buffer) error {
	x, y := in[0], out[0]
	src := rowMajorStrides(x.Shape())
	w := strideWalk{shape: y.Shape(), strides: [walkVectors][]int{rowMajorStrides(y.Shape()), src}}
	steps := e.Params.Ints("strides")
	for d, start := range e.Params.Ints("start_indices") {
		w.off[1] += start * src[d]
		if steps != nil {
			src[d] *= steps[d]
		}
	}
	moveBuffer(y, x, w)
	return nil
}

// scalarIndex reads a 0-d integer buffer.
func scalarIndex(b *Buffer) int { return int(b.Element(0).(int64)) }

// clampStart is XLA's dynamic start index: the nearest start that keeps a
// window of size window inside a dimension of size dim.
func clampStart(start, dim, window int) int { return max(0, min(start, dim-window)) }

func dynamicSliceKernel(_ *trace.Eqn, in, out []*Buffer) error {
	x, y := in[0], out[0]
	src := rowMajorStrides(x.Shape())
	w := strideWalk{shape: y.Shape(), strides: [walkVectors][]int{rowMajorStrides(y.Shape()), src}}
	for d, b := range in[1:] {
		w.off[1] += clampStart(scalarIndex(b), x.Shape()[d], y.Shape()[d]) * src[d]
	}
	moveBuffer(y, x, w)
	return nil
}

func dynamicUpdateSliceKernel(_ *trace.Eqn, in, out []*Buffer) error {
	x, update, y := in[0], in[1], out[0]
	copyBuffer(y, x)
	dst := rowMajorStrides(y.Shape())
	w := strideWalk{shape: update.Shape(), strides: [walkVectors][]int{dst, rowMajorStrides(update.Shape())}}
	for d, b := range in[2:] {
		w.off[0] += clampStart(scalarIndex(b), x.Shape()[d], update.Shape()[d]) * dst[d]
	}
	moveBuffer(y, update, w)
	return nil
}

// concatenateKernel places each operand at its offset along the dimension.
func concatenateKernel(e *trace.Eqn, in, out []*Buffer) error {
	y := out[0]
	dim := e.Params.Int("dimension")
	dst := rowMajorStrides(y.Shape())
	at := 0
	for _, x := range in {
		w := strideWalk{shape: x.Shape(), strides: [walkVectors][]int{dst, rowMajorStrides(x.Shape())}}
		w.off[0] = at * dst[dim]
		moveBuffer(y, x, w)
		at += x.Shape()[dim]
	}
	return nil
}

// padKernel fills the output with the padding value, then places operand
// element i of each dimension at lo + i·(interior+1). Negative lo or hi
// crop: operand elements whose position falls outside the output are not
// copied, which also crops into interior padding as lax.pad does.
func padKernel(e *trace.Eqn, in, out []*Buffer) error {
	x, value, y := in[0], in[1], out[0]
	config, _ := trace.ParamAs[trace.PaddingConfig](e.Params, "padding_config")
	needsFill := false
	for _, c := range config {
		needsFill = needsFill || c.Lo > 0 || c.Hi > 0 || c.Interior > 0
	}
	if needsFill {
		fillBuffer(y, value)
	}
	src, dst := rowMajorStrides(x.Shape()), rowMajorStrides(y.Shape())
	w := strideWalk{shape: make([]int, len(config)), strides: [walkVectors][]int{make([]int, len(config)), src}}
	for d, c := range config {
		step := c.Interior + 1
		first := 0 // the first operand element inside the output
		if c.Lo < 0 {
			first = (-c.Lo + step - 1) / step
		}
		end := min(x.Shape()[d], ceilDiv(y.Shape()[d]-c.Lo, step)) // one past the last
		if end <= first {
			return nil // nothing of the operand survives: all padding
		}
		w.shape[d] = end - first
		w.off[0] += (c.Lo + first*step) * dst[d]
		w.off[1] += first * src[d]
		w.strides[0][d] = step * dst[d]
	}
	moveBuffer(y, x, w)
	return nil
}

// ceilDiv is ⌈a/b⌉ for b > 0 and any a.
func ceilDiv(a, b int) int {
	if a <= 0 {
		return -(-a / b)
	}
	return (a + b - 1) / b
}
