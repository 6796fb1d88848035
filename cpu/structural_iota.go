package cpu

import (
	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// iota is the one structural primitive that computes values: element i
// along the dimension is i converted to the dtype, as XLA converts an
// integer: integer dtypes wrap (an int8 iota of length 300 reaches 127 and
// continues at -128), floating ones round to nearest even (in bfloat16 257 is
// 256 and 259 is 260; in float16 everything from 65520 on is inf), complex
// ones have a zero imaginary part. The shape rule accepts numeric dtypes
// only, as lax.iota does: there is no bool iota.
//
// The kernel builds the values of the one varying dimension once and
// broadcasts them, so the per-dtype work is proportional to that dimension
// and the rest is an element-size move.

func iotaKernel(e *trace.Eqn, _, out []*Buffer) error {
	y := out[0]
	shape, dim := y.Shape(), e.Params.Int("dimension")
	if y.Len() == 0 {
		return nil
	}
	if len(shape) == 1 {
		countUp(y)
		return nil
	}
	line := newBuffer(y.dev, trace.AVal{Shape: trace.Shape{shape[dim]}, DType: y.DType()})
	countUp(line)
	src := make([]int, len(shape))
	src[dim] = 1
	moveBuffer(y, line, strideWalk{shape: shape, strides: [walkVectors][]int{rowMajorStrides(shape), src}})
	return nil
}

// countUp sets element i of a 1-D buffer to i in its dtype.
func countUp(b *Buffer) {
	switch b.DType() {
	case trace.Int8:
		countUpAs(view[int8](b))
	case trace.Int16:
		countUpAs(view[int16](b))
	case trace.Int32:
		countUpAs(view[int32](b))
	case trace.Int64:
		countUpAs(view[int64](b))
	case trace.Uint8:
		countUpAs(view[uint8](b))
	case trace.Uint16:
		countUpAs(view[uint16](b))
	case trace.Uint32:
		countUpAs(view[uint32](b))
	case trace.Float32:
		countUpAs(view[float32](b))
	case trace.Float64:
		countUpAs(view[float64](b))
	case trace.Float16:
		countUpWith(view[uint16](b), func(i int) uint16 { return half.Float16FromFloat64(float64(i)) })
	case trace.BFloat16:
		countUpWith(view[uint16](b), func(i int) uint16 { return half.BFloat16FromFloat64(float64(i)) })
	case trace.Complex64:
		countUpWith(view[complex64](b), func(i int) complex64 { return complex(float32(i), 0) })
	case trace.Complex128:
		countUpWith(view[complex128](b), func(i int) complex128 { return complex(float64(i), 0) })
	default:
		panic("cpu: iota of dtype " + b.DType().String())
	}
}

// countUpAs relies on Go's conversions, which wrap integers and round
// floats to nearest even: XLA's rules.
func countUpAs[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | float32 | float64](v []T) {
	pool.parallelFor(nil, len(v), grainElements, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v[i] = T(i)
		}
	})
}

func countUpWith[T any](v []T, value func(int) T) {
	pool.parallelFor(nil, len(v), grainElements, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v[i] = value(i)
		}
	})
}
