package cpu

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// Element layouts, by dtype: bool as Go bool (one byte, 0 or 1), integers as
// the Go integer of the same width, float16 and bfloat16 as uint16 bits,
// float32/float64/complex64/complex128 as themselves. Kernels compute
// float16/bfloat16 in float32 and round once on the way back (internal/half),
// which for + - * / sqrt gives exactly the correctly rounded 16-bit result
// because float32 has more than twice their precision plus two bits.

// literalBuffer materialises a jaxpr literal as a 0-d buffer.
func literalBuffer(dev *Device, lit *trace.Literal) (*Buffer, error) {
	b := newBuffer(dev, lit.Aval())
	if err := setElement(b, 0, lit.Value()); err != nil {
		return nil, err
	}
	return b, nil
}

// setElement stores v (bool, int64, float64 or complex128) at index i,
// converting as convert_element_type does: integers wrap, floats round to
// nearest, float to integer truncates toward zero, nan to integer gives 0.
func setElement(b *Buffer, i int, v any) error {
	switch x := v.(type) {
	case bool:
		if b.DType() == trace.Bool {
			view[bool](b)[i] = x
			return nil
		}
		return setElement(b, i, boolToInt64(x))
	case int64:
		return setInt64(b, i, x)
	case float64:
		return setFloat64(b, i, x)
	case complex128:
		switch b.DType() {
		case trace.Complex64:
			view[complex64](b)[i] = complex64(x)
			return nil
		case trace.Complex128:
			view[complex128](b)[i] = x
			return nil
		}
		return setFloat64(b, i, real(x))
	}
	return fmt.Errorf("cpu: cannot store a Go %T in a %s buffer", v, b.DType())
}

func boolToInt64(x bool) int64 {
	if x {
		return 1
	}
	return 0
}

func setInt64(b *Buffer, i int, x int64) error {
	switch b.DType() {
	case trace.Bool:
		view[bool](b)[i] = x != 0
	case trace.Int8:
		view[int8](b)[i] = int8(x)
	case trace.Int16:
		view[int16](b)[i] = int16(x)
	case trace.Int32:
		view[int32](b)[i] = int32(x)
	case trace.Int64:
		view[int64](b)[i] = x
	case trace.Uint8:
		view[uint8](b)[i] = uint8(x)
	case trace.Uint16:
		view[uint16](b)[i] = uint16(x)
	case trace.Uint32:
		view[uint32](b)[i] = uint32(x)
	default:
		return setFloat64(b, i, float64(x))
	}
	return nil
}

func setFloat64(b *Buffer, i int, x float64) error {
	switch b.DType() {
	case trace.Float16:
		view[uint16](b)[i] = half.Float16FromFloat64(x)
	case trace.BFloat16:
		view[uint16](b)[i] = half.BFloat16FromFloat64(x)
	case trace.Float32:
		view[float32](b)[i] = float32(x)
	case trace.Float64:
		view[float64](b)[i] = x
	case trace.Complex64:
		view[complex64](b)[i] = complex(float32(x), 0)
	case trace.Complex128:
		view[complex128](b)[i] = complex(x, 0)
	case trace.Bool:
		view[bool](b)[i] = x != 0
	default:
		return setInt64(b, i, floatToInt64(x))
	}
	return nil
}

// floatToInt64 truncates toward zero; nan gives 0 and out-of-range values
// saturate, so the conversion is defined for every input (Go leaves it
// implementation-specific).
func floatToInt64(x float64) int64 {
	switch {
	case math.IsNaN(x):
		return 0
	case x >= math.MaxInt64:
		return math.MaxInt64
	case x <= math.MinInt64:
		return math.MinInt64
	}
	return int64(x)
}

// Element returns element i as a bool, int64, float64 or complex128,
// according to the dtype's kind. It is the slow, general accessor for tests
// and host conversions; kernels use typed views.
func (b *Buffer) Element(i int) any {
	switch b.DType() {
	case trace.Bool:
		return view[bool](b)[i]
	case trace.Int8:
		return int64(view[int8](b)[i])
	case trace.Int16:
		return int64(view[int16](b)[i])
	case trace.Int32:
		return int64(view[int32](b)[i])
	case trace.Int64:
		return view[int64](b)[i]
	case trace.Uint8:
		return int64(view[uint8](b)[i])
	case trace.Uint16:
		return int64(view[uint16](b)[i])
	case trace.Uint32:
		return int64(view[uint32](b)[i])
	case trace.Float16:
		return float64(half.Float16ToFloat32(view[uint16](b)[i]))
	case trace.BFloat16:
		return float64(half.BFloat16ToFloat32(view[uint16](b)[i]))
	case trace.Float32:
		return float64(view[float32](b)[i])
	case trace.Float64:
		return view[float64](b)[i]
	case trace.Complex64:
		return complex128(view[complex64](b)[i])
	case trace.Complex128:
		return view[complex128](b)[i]
	}
	panic("cpu: Element of a " + b.DType().String() + " buffer")
}

// widenHalf returns a float32 copy of a float16 or bfloat16 buffer.
func widenHalf(b *Buffer) *Buffer {
	out := newBuffer(b.dev, trace.AVal{Shape: b.Shape(), DType: trace.Float32})
	src, dst := view[uint16](b), view[float32](out)
	conv := half.Float16ToFloat32
	if b.DType() == trace.BFloat16 {
		conv = half.BFloat16ToFloat32
	}
	pool.parallelFor(nil, len(src), grainElements, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = conv(src[i])
		}
	})
	return out
}

// narrowHalf rounds the float32 buffer src into dst, a float16 or bfloat16
// buffer of the same shape.
func narrowHalf(src, dst *Buffer) {
	s, d := view[float32](src), view[uint16](dst)
	conv := half.Float16FromFloat32
	if dst.DType() == trace.BFloat16 {
		conv = half.BFloat16FromFloat32
	}
	pool.parallelFor(nil, len(s), grainElements, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d[i] = conv(s[i])
		}
	})
}

func isHalf(dt trace.DType) bool { return dt == trace.Float16 || dt == trace.BFloat16 }

// intRange is the range of an integer dtype.
func intRange(dt trace.DType) (lo, hi int64) {
	bits := uint(dt.Bits())
	if dt.IsUnsigned() {
		return 0, 1<<bits - 1
	}
	if bits == 64 {
		return math.MinInt64, math.MaxInt64
	}
	return -(1 << (bits - 1)), 1<<(bits-1) - 1
}

// asFloat64 reads element i as a float64 (complex: its real part).
func asFloat64(b *Buffer, i int) float64 {
	switch x := b.Element(i).(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int64:
		return float64(x)
	case float64:
		return x
	case complex128:
		return real(x)
	}
	return math.NaN()
}

// wrapping to its width.
func intSetter(b *Buffer) func(i int, x int64) {
	switch b.DType() {
	case trace.Int8:
		v := view[int8](b)
		return func(i int, x int64) { v[i] = int8(x) }
	case trace.Int16:
		v := view[int16](b)
		return func(i int, x int64) { v[i] = int16(x) }
	case trace.Int32:
		v := view[int32](b)
		return func(i int, x int64) { v[i] = int32(x) }
	case trace.Uint8:
		v := view[uint8](b)
		return func(i int, x int64) { v[i] = uint8(x) }
	case trace.Uint16:
		v := view[uint16](b)
		return func(i int, x int64) { v[i] = uint16(x) }
	case trace.Uint32:
		v := view[uint32](b)
		return func(i int, x int64) { v[i] = uint32(x) }
	}
	v := view[int64](b)
	return func(i int, x int64) { v[i] = x }
}

// convertKernel converts in[0] into out[0]'s dtype (same shape) as
// convert_element_type does, for kernels that need an operand in another
// dtype; the eqn is ignored (the result dtype is out[0]'s).
func convertKernel(_ *trace.Eqn, in, out []*Buffer) error {
	e := &trace.Eqn{
		Prim:   trace.Lookup("convert_element_type"),
		Params: trace.Params{"new_dtype": out[0].DType(), "weak_type": false},
	}
	return elementwiseKernel(e, in, out, nil)
}
