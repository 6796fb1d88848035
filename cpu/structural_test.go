package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// counting returns 0, 1, ..., n-1 as bufferOf values.
func seqValues(n int) []any {
	v := make([]any, n)
	for i := range v {
		v[i] = i
	}
	return v
}

// ints converts expected integers to checkElements values.
func intValues(xs ...int) []any {
	v := make([]any, len(xs))
	for i, x := range xs {
		v[i] = x
	}
	return v
}

func floatValues(xs ...float64) []any {
	v := make([]any, len(xs))
	for i, x := range xs {
		v[i] = x
	}
	return v
}

func boolValues(xs ...bool) []any {
	v := make([]any, len(xs))
	for i, x := range xs {
		v[i] = x
	}
	return v
}

func applyOneResult(t *testing.T, prim string, params trace.Params, in ...*Buffer) *Buffer {
	t.Helper()
	return apply(t, prim, params, in...)[0]
}

func checkResultShape(t *testing.T, what string, b *Buffer, shape ...int) {
	t.Helper()
	if !b.Shape().Equal(shape) {
		t.Fatalf("%s: shape %s, want %v", what, b.Shape(), trace.Shape(shape))
	}
}

func TestReshapeSqueezeCopyKeepElementOrder(t *testing.T) {
	x := bufferOf(t, trace.Int16, []int{2, 1, 3}, -1, 2, 3, 4, 5, -6)
	y := applyOneResult(t, "reshape", trace.Params{"new_sizes": []int{3, 2}}, x)
	checkResultShape(t, "reshape", y, 3, 2)
	checkElements(t, "reshape", y, -1, 2, 3, 4, 5, -6)
	y = applyOneResult(t, "squeeze", trace.Params{"dimensions": []int{1}}, x)
	checkResultShape(t, "squeeze", y, 2, 3)
	checkElements(t, "squeeze", y, -1, 2, 3, 4, 5, -6)
	y = applyOneResult(t, "copy", nil, bufferOf(t, trace.Float16, []int{2}, 1.5, math.Copysign(0, -1)))
	checkElements(t, "copy", y, 1.5, math.Copysign(0, -1))
	scalar := applyOneResult(t, "reshape", trace.Params{"new_sizes": []int{}}, bufferOf(t, trace.Bool, []int{1, 1}, true))
	checkResultShape(t, "reshape to 0-d", scalar)
	checkElements(t, "reshape to 0-d", scalar, true)
	empty := applyOneResult(t, "reshape", trace.Params{"new_sizes": []int{0, 5}}, bufferOf(t, trace.Float32, []int{5, 0}))
	checkResultShape(t, "reshape empty", empty, 0, 5)
}

func TestBitcastConvertTypeReinterpretsLittleEndianBytes(t *testing.T) {
	y := applyOneResult(t, "bitcast_convert_type", trace.Params{"new_dtype": trace.Uint8},
		bufferOf(t, trace.Float32, []int{2}, 1.0, -2.0))
	checkResultShape(t, "f32->u8", y, 2, 4)
	checkElements(t, "f32->u8", y, 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0)
	y = applyOneResult(t, "bitcast_convert_type", trace.Params{"new_dtype": trace.Float32},
		bufferOf(t, trace.Uint8, []int{4}, 0, 0, 0x80, 0x3f))
	checkResultShape(t, "u8->f32", y)
	checkElements(t, "u8->f32", y, 1.0)
	y = applyOneResult(t, "bitcast_convert_type", trace.Params{"new_dtype": trace.Int32},
		bufferOf(t, trace.Float32, []int{1}, math.Inf(-1)))
	checkElements(t, "f32->i32", y, int64(int32(-8388608)))
	y = applyOneResult(t, "bitcast_convert_type", trace.Params{"new_dtype": trace.Bool},
		bufferOf(t, trace.Uint8, []int{3}, 0, 1, 2))
	checkElements(t, "u8->bool stays 0/1", y, false, true, true)
	if y.data[2] != 1 {
		t.Errorf("bool from byte 2 is stored as %d, want 1", y.data[2])
	}
}

func TestBroadcastInDim(t *testing.T) {
	tests := []struct {
		name  string
		x     *Buffer
		shape []int
		bdims []int
		want  []any
	}{
		{"row to matrix", bufferOf(t, trace.Int8, []int{3}, 1, 2, -3), []int{2, 3}, []int{1}, intValues(1, 2, -3, 1, 2, -3)},
		{"column to matrix", bufferOf(t, trace.Int8, []int{2}, 1, 2), []int{2, 3}, []int{0}, intValues(1, 1, 1, 2, 2, 2)},
		{"size-1 dims expanded", bufferOf(t, trace.Float64, []int{2, 1}, 0.5, -1.0), []int{2, 3}, []int{0, 1}, floatValues(0.5, 0.5, 0.5, -1, -1, -1)},
		{"scalar", bufferOf(t, trace.Bool, []int{}, true), []int{2, 2}, []int{}, boolValues(true, true, true, true)},
		{"new middle dim", bufferOf(t, trace.Float16, []int{2, 2}, 1.0, 2.0, 3.0, 4.0), []int{2, 2, 2}, []int{0, 2}, floatValues(1, 2, 1, 2, 3, 4, 3, 4)},
		{"to 0-d", bufferOf(t, trace.Int64, []int{}, -7), []int{}, []int{}, intValues(-7)},
		{"empty output", bufferOf(t, trace.Int32, []int{3}, 1, 2, 3), []int{0, 3}, []int{1}, nil},
	}
	for _, tt := range tests {
		y := applyOneResult(t, "broadcast_in_dim", trace.Params{"shape": tt.shape, "broadcast_dimensions": tt.bdims}, tt.x)
		checkResultShape(t, tt.name, y, tt.shape...)
		checkElements(t, tt.name, y, tt.want...)
	}
}

func TestTranspose(t *testing.T) {
	x := bufferOf(t, trace.Uint8, []int{2, 3}, seqValues(6)...)
	y := applyOneResult(t, "transpose", trace.Params{"permutation": []int{1, 0}}, x)
	checkResultShape(t, "2-D", y, 3, 2)
	checkElements(t, "2-D", y, 0, 3, 1, 4, 2, 5)

	x = bufferOf(t, trace.Float64, []int{2, 3, 4}, seqValues(24)...)
	y = applyOneResult(t, "transpose", trace.Params{"permutation": []int{2, 0, 1}}, x)
	checkResultShape(t, "3-D", y, 4, 2, 3)
	// y[k, i, j] = x[i, j, k] = 12i + 4j + k
	var want []any
	for k := range 4 {
		for i := range 2 {
			for j := range 3 {
				want = append(want, float64(12*i+4*j+k))
			}
		}
	}
	checkElements(t, "3-D", y, want...)

	y = applyOneResult(t, "transpose", trace.Params{"permutation": []int{}}, bufferOf(t, trace.Bool, []int{}, true))
	checkElements(t, "0-d", y, true)
	y = applyOneResult(t, "transpose", trace.Params{"permutation": []int{1, 0}}, bufferOf(t, trace.Int32, []int{0, 4}))
	checkResultShape(t, "empty", y, 4, 0)
}

func TestRevSeveralDimensions(t *testing.T) {
	x := bufferOf(t, trace.Int32, []int{2, 3}, seqValues(6)...)
	checkElements(t, "rev (0, 1)", applyOneResult(t, "rev", trace.Params{"dimensions": []int{0, 1}}, x), 5, 4, 3, 2, 1, 0)
	checkElements(t, "rev (1,)", applyOneResult(t, "rev", trace.Params{"dimensions": []int{1}}, x), 2, 1, 0, 5, 4, 3)
	checkElements(t, "rev ()", applyOneResult(t, "rev", trace.Params{"dimensions": []int{}}, x), 0, 1, 2, 3, 4, 5)
	b := bufferOf(t, trace.Bool, []int{3}, true, false, false)
	checkElements(t, "rev bool", applyOneResult(t, "rev", trace.Params{"dimensions": []int{0}}, b), false, false, true)
	e := applyOneResult(t, "rev", trace.Params{"dimensions": []int{0}}, bufferOf(t, trace.Float32, []int{0}))
	checkResultShape(t, "rev empty", e, 0)
}

func TestSliceWithStrides(t *testing.T) {
	x := bufferOf(t, trace.Int64, []int{10}, seqValues(10)...)
	y := applyOneResult(t, "slice", trace.Params{"start_indices": []int{1}, "limit_indices": []int{8}, "strides": []int{3}}, x)
	checkElements(t, "1-D strided", y, 1, 4, 7)
	y = applyOneResult(t, "slice", trace.Params{"start_indices": []int{2}, "limit_indices": []int{5}, "strides": nil}, x)
	checkElements(t, "1-D unit", y, 2, 3, 4)

	x = bufferOf(t, trace.Float16, []int{3, 4}, seqValues(12)...)
	y = applyOneResult(t, "slice", trace.Params{"start_indices": []int{0, 1}, "limit_indices": []int{3, 4}, "strides": []int{2, 2}}, x)
	checkResultShape(t, "2-D strided", y, 2, 2)
	checkElements(t, "2-D strided", y, 1.0, 3.0, 9.0, 11.0)
	y = applyOneResult(t, "slice", trace.Params{"start_indices": []int{1, 2}, "limit_indices": []int{1, 4}, "strides": nil}, x)
	checkResultShape(t, "empty", y, 0, 2)
}

func TestDynamicSliceClampsStarts(t *testing.T) {
	x := bufferOf(t, trace.Int8, []int{5}, seqValues(5)...)
	tests := []struct {
		dt    trace.DType
		index int64
		want  []any
	}{
		{trace.Int32, 1, intValues(1, 2, 3)},
		{trace.Int32, 3, intValues(2, 3, 4)},  // clamped to 5-3
		{trace.Int32, -2, intValues(0, 1, 2)}, // clamped to 0
		{trace.Uint8, 255, intValues(2, 3, 4)},
		{trace.Int64, math.MinInt64, intValues(0, 1, 2)},
		{trace.Uint32, math.MaxUint32, intValues(2, 3, 4)},
	}
	for _, tt := range tests {
		y := applyOneResult(t, "dynamic_slice", trace.Params{"slice_sizes": []int{3}}, x, bufferOf(t, tt.dt, []int{}, tt.index))
		checkElements(t, fmt.Sprintf("dynamic_slice at %s %d", tt.dt, tt.index), y, tt.want...)
	}

	m := bufferOf(t, trace.Float32, []int{3, 3}, seqValues(9)...)
	i, j := bufferOf(t, trace.Int32, []int{}, 2), bufferOf(t, trace.Int32, []int{}, -1)
	y := applyOneResult(t, "dynamic_slice", trace.Params{"slice_sizes": []int{2, 2}}, m, i, j)
	checkElements(t, "2-D clamped to (1, 0)", y, 3.0, 4.0, 6.0, 7.0)
	s := applyOneResult(t, "dynamic_slice", trace.Params{"slice_sizes": []int{}}, bufferOf(t, trace.Bool, []int{}, true))
	checkElements(t, "0-d", s, true)
	e := applyOneResult(t, "dynamic_slice", trace.Params{"slice_sizes": []int{0}}, x, bufferOf(t, trace.Int32, []int{}, 9))
	checkResultShape(t, "empty", e, 0)
}

func TestDynamicUpdateSliceClampsStarts(t *testing.T) {
	x := bufferOf(t, trace.Float64, []int{5}, seqValues(5)...)
	u := bufferOf(t, trace.Float64, []int{2}, -1.0, -2.0)
	at := func(i int) *Buffer { return bufferOf(t, trace.Int32, []int{}, i) }
	checkElements(t, "at 1", applyOneResult(t, "dynamic_update_slice", nil, x, u, at(1)), floatValues(0, -1, -2, 3, 4)...)
	checkElements(t, "at 7 clamps to 3", applyOneResult(t, "dynamic_update_slice", nil, x, u, at(7)), floatValues(0, 1, 2, -1, -2)...)
	checkElements(t, "at -4 clamps to 0", applyOneResult(t, "dynamic_update_slice", nil, x, u, at(-4)), floatValues(-1, -2, 2, 3, 4)...)

	m := bufferOf(t, trace.Bool, []int{2, 3}, false, false, false, false, false, false)
	v := bufferOf(t, trace.Bool, []int{1, 2}, true, true)
	y := applyOneResult(t, "dynamic_update_slice", nil, m, v, at(5), at(5))
	checkElements(t, "2-D bool clamped to (1, 1)", y, false, false, false, false, true, true)
	empty := bufferOf(t, trace.Float64, []int{0}) // an empty update leaves the operand
	checkElements(t, "empty update", applyOneResult(t, "dynamic_update_slice", nil, x, empty, at(2)), floatValues(0, 1, 2, 3, 4)...)
}

func TestConcatenate(t *testing.T) {
	a := bufferOf(t, trace.Float16, []int{2, 1}, 1.0, 2.0)
	b := bufferOf(t, trace.Float16, []int{2, 2}, 3.0, 4.0, 5.0, 6.0)
	c := bufferOf(t, trace.Float16, []int{2, 0})
	y := applyOneResult(t, "concatenate", trace.Params{"dimension": 1}, a, c, b)
	checkResultShape(t, "dim 1", y, 2, 3)
	checkElements(t, "dim 1", y, 1.0, 3.0, 4.0, 2.0, 5.0, 6.0)
	y = applyOneResult(t, "concatenate", trace.Params{"dimension": 0},
		bufferOf(t, trace.Uint32, []int{1}, 7), bufferOf(t, trace.Uint32, []int{2}, 8, 9))
	checkElements(t, "dim 0", y, 7, 8, 9)
	y = applyOneResult(t, "concatenate", trace.Params{"dimension": 0}, bufferOf(t, trace.Int8, []int{0}), bufferOf(t, trace.Int8, []int{0}))
	checkResultShape(t, "all empty", y, 0)
}

func TestPad(t *testing.T) {
	pad := func(x, v *Buffer, config ...trace.PadDim) *Buffer {
		return applyOneResult(t, "pad", trace.Params{"padding_config": trace.PaddingConfig(config)}, x, v)
	}
	x := bufferOf(t, trace.Int32, []int{4}, 1, 2, 3, 4)
	zero := bufferOf(t, trace.Int32, []int{}, 0)
	nine := bufferOf(t, trace.Int32, []int{}, 9)
	checkElements(t, "lo hi", pad(x, nine, trace.PadDim{Lo: 1, Hi: 2}), 9, 1, 2, 3, 4, 9, 9)
	checkElements(t, "negative crops", pad(x, nine, trace.PadDim{Lo: -1, Hi: -2}), 2)
	checkElements(t, "interior", pad(x, zero, trace.PadDim{Interior: 2}), 1, 0, 0, 2, 0, 0, 3, 0, 0, 4)
	checkElements(t, "interior, negative lo crops into it", pad(x, zero, trace.PadDim{Lo: -3, Hi: -1, Interior: 1}), 0, 3, 0)
	checkElements(t, "negative lo, positive hi", pad(x, nine, trace.PadDim{Lo: -3, Hi: 1}), 4, 9)
	checkElements(t, "crop everything", pad(x, nine, trace.PadDim{Lo: -4, Hi: 0}))
	checkElements(t, "cropped past the operand", pad(x, nine, trace.PadDim{Lo: -6, Hi: 3}), 9)
	checkElements(t, "empty operand", pad(bufferOf(t, trace.Int32, []int{0}), nine, trace.PadDim{Lo: 1, Hi: 1, Interior: 3}), 9, 9)

	m := bufferOf(t, trace.Bool, []int{2, 2}, true, true, true, true)
	f := bufferOf(t, trace.Bool, []int{}, false)
	y := pad(m, f, trace.PadDim{Lo: 1}, trace.PadDim{Hi: -1, Interior: 1})
	checkResultShape(t, "2-D bool", y, 3, 2)
	checkElements(t, "2-D bool", y, false, false, true, false, true, false)

	h := bufferOf(t, trace.BFloat16, []int{}, 2.5)
	s := pad(h, bufferOf(t, trace.BFloat16, []int{}, -1.0))
	checkElements(t, "0-d", s, 2.5)
}

func TestIota(t *testing.T) {
	iota := func(dt trace.DType, dim int, shape ...int) *Buffer {
		return applyOneResult(t, "iota", trace.Params{"dtype": dt, "shape": shape, "dimension": dim})
	}
	checkElements(t, "int32 dim 1", iota(trace.Int32, 1, 2, 3), 0, 1, 2, 0, 1, 2)
	checkElements(t, "int32 dim 0", iota(trace.Int32, 0, 2, 3), 0, 0, 0, 1, 1, 1)
	checkElements(t, "uint8 middle dim", iota(trace.Uint8, 1, 2, 2, 2), 0, 0, 1, 1, 0, 0, 1, 1)
	checkElements(t, "float64", iota(trace.Float64, 0, 3), 0.0, 1.0, 2.0)
	checkElements(t, "complex64", iota(trace.Complex64, 0, 2), complex128(0), complex128(1))
	checkResultShape(t, "empty", iota(trace.Int32, 0, 0, 3), 0, 3)

	checkReadValues(t, "int8 wraps", elementsBetween(iota(trace.Int8, 0, 300), 126, 130), 126, 127, -128, -127)
	checkReadValues(t, "bfloat16 rounds to even", elementsBetween(iota(trace.BFloat16, 0, 262), 255, 262),
		255.0, 256.0, 256.0, 258.0, 260.0, 260.0, 260.0)
	checkReadValues(t, "float16 rounds, then overflows to inf", elementsBetween(iota(trace.Float16, 0, 65521), 65503, 65521)[13:],
		65504.0, 65504.0, 65504.0, 65504.0, math.Inf(1))
}

// elementsBetween returns elements [lo, hi) of a buffer.
func elementsBetween(b *Buffer, lo, hi int) []any {
	return elements(b)[lo:hi]
}

// checkValues is checkElements for element values already read.
func checkReadValues(t *testing.T, what string, got []any, want ...any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		w := want[i]
		if x, ok := w.(int); ok {
			w = int64(x)
		}
		if !sameValue(got[i], w) {
			t.Errorf("%s: element %d = %v, want %v", what, i, got[i], w)
		}
	}
}
