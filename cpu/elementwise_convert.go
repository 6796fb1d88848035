package cpu

import (
	"fmt"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// convert_element_type as block ops, for fused kernels; the eager kernel
// is kernels_convert.go's, whose semantics these follow exactly: integer
// narrowing wraps, float narrowing rounds to nearest even, anything
// non-zero (nan included) is True, float to integer truncates toward zero
// and saturates with nan giving 0, complex to real keeps the real part.
//
// A 16-bit source is read widened to float32 (exactly). A 16-bit result is
// written in its own layout, rounded once from the source value: a float64
// going to float16 through float32 would be rounded twice.

func init() {
	defineConvertFrom[uint8](trace.Bool)
	defineConvertFrom[int8](trace.Int8)
	defineConvertFrom[int16](trace.Int16)
	defineConvertFrom[int32](trace.Int32)
	defineConvertFrom[int64](trace.Int64)
	defineConvertFrom[uint8](trace.Uint8)
	defineConvertFrom[uint16](trace.Uint16)
	defineConvertFrom[uint32](trace.Uint32)
	defineConvertFrom[float32](trace.Float32)
	defineConvertFrom[float32](trace.Float16)
	defineConvertFrom[float32](trace.BFloat16)
	defineConvertFrom[float64](trace.Float64)
	defineConvertFromComplex[complex64](trace.Complex64)
	defineConvertFromComplex[complex128](trace.Complex128)
}

// convertLayout is the layout of a run holding dt as a convert source.
func convertLayout(dt trace.DType) trace.DType {
	if isHalf(dt) {
		return trace.Float32
	}
	return dt
}

func defineConvertFrom[S realElem](src trace.DType) {
	defineBlock(blockKey{prim: "convert_element_type", dt: src}, blockEntry{
		compute: convertLayout(src), resultParam: "new_dtype",
		build: func(p trace.Params, _ int) (blockOp, error) {
			dst := p.DType("new_dtype")
			if src == dst && !isHalf(src) {
				return copyOp, nil
			}
			return convertRealTo[S](dst)
		}})
}

func convertRealTo[S realElem](dst trace.DType) (blockOp, error) {
	switch dst {
	case trace.Bool:
		return unaryOp(toBoolBlock[S]), nil
	case trace.Int8:
		return unaryOp(realToIntBlock[S, int8]), nil
	case trace.Int16:
		return unaryOp(realToIntBlock[S, int16]), nil
	case trace.Int32:
		return unaryOp(realToIntBlock[S, int32]), nil
	case trace.Int64:
		return unaryOp(realToIntBlock[S, int64]), nil
	case trace.Uint8:
		return unaryOp(realToIntBlock[S, uint8]), nil
	case trace.Uint16:
		return unaryOp(realToIntBlock[S, uint16]), nil
	case trace.Uint32:
		return unaryOp(realToIntBlock[S, uint32]), nil
	case trace.Float16:
		return unaryOp(toHalfBlock[S](false)), nil
	case trace.BFloat16:
		return unaryOp(toHalfBlock[S](true)), nil
	case trace.Float32:
		return unaryOp(simdUnary(simdConvert, realToFloatBlock[S, float32])), nil
	case trace.Float64:
		return unaryOp(realToFloatBlock[S, float64]), nil
	case trace.Complex64:
		return unaryOp(realToComplexBlock[S, complex64]), nil
	case trace.Complex128:
		return unaryOp(realToComplexBlock[S, complex128]), nil
	}
	return nil, fmt.Errorf("cannot convert to %s", dst)
}

func defineConvertFromComplex[S complexElem](src trace.DType) {
	defineBlock(blockKey{prim: "convert_element_type", dt: src}, blockEntry{
		compute: src, resultParam: "new_dtype",
		build: func(p trace.Params, _ int) (blockOp, error) {
			switch dst := p.DType("new_dtype"); dst {
			case src:
				return copyOp, nil
			case trace.Complex64:
				return unaryOp(complexToComplexBlock[S, complex64]), nil
			case trace.Complex128:
				return unaryOp(complexToComplexBlock[S, complex128]), nil
			case trace.Bool:
				return unaryOp(complexToBoolBlock[S]), nil
			default: // the real part, converted as a float64
				real, err := convertRealTo[float64](dst)
				if err != nil {
					return nil, err
				}
				return realPartThen[S](real, dst.Size()), nil
			}
		}})
}

// toBoolBlock: anything non-zero is True; nan is non-zero.
func toBoolBlock[S realElem](dst []bool, x []S) {
	for i, v := range x[:len(dst)] {
		dst[i] = v != 0
	}
}

// realToIntBlock wraps integers to D's width and truncates floats toward
// zero, saturating out-of-range values and mapping nan to 0.
func realToIntBlock[S realElem, D intElem](dst []D, x []S) {
	lo, hi := convertIntRange[D]()
	x = x[:len(dst)]
	if isFloatType[S]() {
		for i, v := range x {
			f := float64(v)
			switch {
			case f != f:
				dst[i] = 0
			case f <= float64(lo):
				dst[i] = lo
			case f >= float64(hi):
				dst[i] = hi
			default:
				dst[i] = D(f)
			}
		}
		return
	}
	for i, v := range x {
		dst[i] = D(v)
	}
}

// convertIntRange is D's range.
func convertIntRange[D intElem]() (lo, hi D) {
	hi = ^D(0)
	if hi < 0 { // signed: all ones is -1
		lo = D(1) << (bitWidth[D]() - 1)
		hi = ^lo
	}
	return lo, hi
}

// isFloatType reports whether S is a floating type; a constant per
// instantiation.
func isFloatType[S realElem]() bool {
	var h S = 1
	h /= 2
	return h != 0
}

func realToFloatBlock[S realElem, D floatElem](dst []D, x []S) {
	for i, v := range x[:len(dst)] {
		dst[i] = D(v)
	}
}

func realToComplexBlock[S realElem, D complexElem](dst []D, x []S) {
	for i, v := range x[:len(dst)] {
		dst[i] = D(complex(float64(v), 0))
	}
}

// toHalfBlock rounds to float16 (or bfloat16) from the source value: a
// float32 source directly, everything else through float64, which holds
// every source value exactly but int64s beyond 2^53 (as the eager kernel).
func toHalfBlock[S realElem](bf16 bool) func(dst []uint16, x []S) {
	return func(dst []uint16, x []S) {
		x = x[:len(dst)]
		if f32, ok := any(x).([]float32); ok {
			dt := trace.Float16
			if bf16 {
				dt = trace.BFloat16
			}
			narrowRun(dst, f32, dt)
			return
		}
		for i, v := range x {
			if bf16 {
				dst[i] = half.BFloat16FromFloat64(float64(v))
			} else {
				dst[i] = half.Float16FromFloat64(float64(v))
			}
		}
	}
}

func complexToComplexBlock[S, D complexElem](dst []D, x []S) {
	for i, v := range x[:len(dst)] {
		dst[i] = D(v)
	}
}

func complexToBoolBlock[S complexElem](dst []bool, x []S) {
	for i, v := range x[:len(dst)] {
		dst[i] = v != 0
	}
}

// realPartBlock bounds the stack scratch of realPartThen.
const realPartBlock = 256

// realPartThen converts complex values' real parts with then, a block op
// from float64 to results of size bytes.
func realPartThen[S complexElem](then blockOp, size int) blockOp {
	return func(out, in [][]byte) {
		x := runAs[S](in[0])
		var re [realPartBlock]float64
		for lo := 0; lo < len(x); lo += realPartBlock {
			hi := min(len(x), lo+realPartBlock)
			for i, v := range x[lo:hi] {
				re[i] = real(complex128(v))
			}
			then([][]byte{out[0][lo*size : hi*size]}, [][]byte{bytesOf(re[:hi-lo])})
		}
	}
}
