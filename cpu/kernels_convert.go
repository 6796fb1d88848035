package cpu

import (
	"math"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

func init() {
	registerKernel("convert_element_type", convertKernel)
}

// convertKernel converts every element to the output dtype with NumPy's
// astype semantics where NumPy defines them: integer narrowing wraps, float
// narrowing rounds to nearest even, anything non-zero is True. Float to
// integer truncates toward zero and, as XLA does on every backend,
// saturates out-of-range values to the target's range and maps nan to 0
// (NumPy leaves those undefined).
func convertKernel(e *trace.Eqn, in, out []*Buffer) error {
	src, dst := in[0], out[0]
	n := src.Len()
	switch {
	case src.DType() == dst.DType():
		copy(dst.data, src.data)
	case dst.DType() == trace.Bool:
		convertLoop(n, src, func(i int) { view[bool](dst)[i] = !isZero(src, i) })
	case dst.DType().IsComplex():
		convertLoop(n, src, func(i int) { _ = setElement(dst, i, asComplex(src.Element(i))) })
	case dst.DType().IsFloat():
		toFloat := floatSetter(dst)
		convertLoop(n, src, func(i int) { toFloat(i, asFloat64(src, i)) })
	default: // integer destination
		toInt := intSetter(dst)
		if src.DType().IsInteger() || src.DType() == trace.Bool {
			convertLoop(n, src, func(i int) { toInt(i, asInt64(src, i)) })
		} else {
			lo, hi := intRange(dst.DType())
			convertLoop(n, src, func(i int) {
				x := asFloat64(src, i)
				switch {
				case math.IsNaN(x):
					toInt(i, 0)
				case x <= float64(lo):
					toInt(i, lo)
				case x >= float64(hi):
					toInt(i, hi)
				default:
					toInt(i, int64(x))
				}
			})
		}
	}
	return nil
}

// convertLoop runs body over [0, n) on the worker pool.
func convertLoop(n int, _ *Buffer, body func(i int)) {
	pool.parallelFor(n, grainElements, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			body(i)
		}
	})
}

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

func isZero(b *Buffer, i int) bool {
	switch x := b.Element(i).(type) {
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0 // nan is non-zero, as in NumPy
	case complex128:
		return x == 0
	}
	return false
}

func asComplex(v any) complex128 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int64:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex128:
		return x
	}
	return complex(math.NaN(), 0)
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

// asInt64 reads an integer or bool element.
func asInt64(b *Buffer, i int) int64 {
	switch x := b.Element(i).(type) {
	case bool:
		return boolToInt64(x)
	case int64:
		return x
	}
	return 0
}

// floatSetter returns a store of float64 values into a floating buffer,
// rounding once to its dtype.
func floatSetter(b *Buffer) func(i int, x float64) {
	switch b.DType() {
	case trace.Float16:
		v := view[uint16](b)
		return func(i int, x float64) { v[i] = half.Float16FromFloat64(x) }
	case trace.BFloat16:
		v := view[uint16](b)
		return func(i int, x float64) { v[i] = half.BFloat16FromFloat64(x) }
	case trace.Float32:
		v := view[float32](b)
		return func(i int, x float64) { v[i] = float32(x) }
	}
	v := view[float64](b)
	return func(i int, x float64) { v[i] = x }
}

// intSetter returns a store of int64 values into an integer buffer,
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
