package cpu

import (
	"github.com/jaxsh/jaxsh/trace"
)

// A gather whose windows are single elements picked by one index each
// (jnp.take, x[i] with an integer array) reads each index and copies one
// element, on the pool, with no table of window starts in between: the
// random reads of the operand are the whole cost, and each core keeps many
// of them in flight.

// gatherScalars fills y when every window of the gather is one element
// (so y's elements are the batch positions in order) and index vectors
// have one component of int32 or int64; it reports whether it did.
func gatherScalars(y, operand, indices *Buffer, sizes []int, ws *windowStarts, fill *Buffer) bool {
	if ws.vectorLen != 1 || len(ws.batchOperandStrides) != 0 || trace.Shape(sizes).Size() != 1 {
		return false
	}
	switch indices.DType() {
	case trace.Int32:
		return gatherScalarsBy(y, operand, view[int32](indices), ws, fill)
	case trace.Int64:
		return gatherScalarsBy(y, operand, view[int64](indices), ws, fill)
	}
	return false
}

func gatherScalarsBy[I int32 | int64](y, operand *Buffer, idx []I, ws *windowStarts, fill *Buffer) bool {
	switch y.DType().Size() {
	case 1:
		gatherScalarElems(view[uint8](y), view[uint8](operand), idx, ws, view[uint8](fill)[0])
	case 2:
		gatherScalarElems(view[uint16](y), view[uint16](operand), idx, ws, view[uint16](fill)[0])
	case 4:
		gatherScalarElems(view[uint32](y), view[uint32](operand), idx, ws, view[uint32](fill)[0])
	case 8:
		gatherScalarElems(view[uint64](y), view[uint64](operand), idx, ws, view[uint64](fill)[0])
	default:
		return false
	}
	return true
}

func gatherScalarElems[E any, I int32 | int64](y, x []E, idx []I, ws *windowStarts, fill E) {
	limit, stride, clamp := ws.limits[0], ws.strides[0], ws.clamp
	pool.parallelFor(ws.stop, len(y), grainElements, func(lo, hi int) {
		out, in := y[lo:hi], idx[lo:hi]
		for k, raw := range in {
			v := int(raw)
			if v < 0 || v > limit {
				if !clamp {
					out[k] = fill
					continue
				}
				v = max(0, min(v, limit))
			}
			out[k] = x[v*stride]
		}
	})
}
