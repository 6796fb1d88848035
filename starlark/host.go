package starlark

import (
	"fmt"
	"unsafe"

	"github.com/jaxsh/jaxsh/internal/arrayfmt"
	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// host copies the array to host memory as the typed slice arrayfmt wants.
func (a *Array) host() (arrayfmt.Array, error) {
	raw, err := a.hostBytes("reading an array")
	if err != nil {
		return arrayfmt.Array{}, err
	}
	return arrayfmt.Array{DType: a.DType().Name(), Shape: a.Shape(), Data: typedSlice(a.DType(), raw)}, nil
}

// hostBytes copies a concrete array's elements to the host; a traced array
// has none yet, which is a ConcretizationError naming what wanted them.
func (a *Array) hostBytes(what string) ([]byte, error) {
	if a.tr != nil {
		return nil, concretizationError(a, what)
	}
	if a.aval.DType == trace.Float0 {
		return nil, float0Error(what)
	}
	if err := a.live(); err != nil {
		return nil, err
	}
	buf, err := a.buffer()
	if err != nil {
		return nil, err
	}
	return jit.ToHost(buf)
}

// typedSlice reinterprets host bytes in jit's layout as a Go slice of the
// dtype's element type (float16/bfloat16 as []uint16 bits).
func typedSlice(dt trace.DType, raw []byte) any {
	n := 0
	if dt.Size() > 0 {
		n = len(raw) / dt.Size()
	}
	switch dt {
	case trace.Bool:
		return castSlice[bool](raw, n)
	case trace.Int8:
		return castSlice[int8](raw, n)
	case trace.Int16:
		return castSlice[int16](raw, n)
	case trace.Int32:
		return castSlice[int32](raw, n)
	case trace.Int64:
		return castSlice[int64](raw, n)
	case trace.Uint8:
		return castSlice[uint8](raw, n)
	case trace.Uint16, trace.Float16, trace.BFloat16:
		return castSlice[uint16](raw, n)
	case trace.Uint32:
		return castSlice[uint32](raw, n)
	case trace.Float32:
		return castSlice[float32](raw, n)
	case trace.Float64:
		return castSlice[float64](raw, n)
	case trace.Complex64:
		return castSlice[complex64](raw, n)
	case trace.Complex128:
		return castSlice[complex128](raw, n)
	case trace.Float0:
		return []struct{}(nil) // no data: every element is b''
	}
	panic("typedSlice: dtype " + dt.Name())
}

// castSlice copies n elements of type T out of raw (which need not be
// aligned for T).
func castSlice[T any](raw []byte, n int) []T {
	out := make([]T, n)
	if n > 0 {
		dst := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), len(raw))
		copy(dst, raw)
	}
	return out
}

// ScalarValue returns element i (row-major) as a Starlark value: bool, int
// or float. Complex elements are not Starlark values yet.
func (a *Array) ScalarValue(i int) (starlark.Value, error) {
	raw, err := a.hostBytes("reading an array element")
	if err != nil {
		return nil, err
	}
	return elementValue(a.DType(), typedSlice(a.DType(), raw), i)
}

func elementValue(dt trace.DType, data any, i int) (starlark.Value, error) {
	if dt == trace.Float0 {
		return starlark.Bytes(""), nil
	}
	switch s := data.(type) {
	case []bool:
		return starlark.Bool(s[i]), nil
	case []int8:
		return starlark.MakeInt(int(s[i])), nil
	case []int16:
		return starlark.MakeInt(int(s[i])), nil
	case []int32:
		return starlark.MakeInt(int(s[i])), nil
	case []int64:
		return starlark.MakeInt64(s[i]), nil
	case []uint8:
		return starlark.MakeInt(int(s[i])), nil
	case []uint16:
		switch dt {
		case trace.Float16:
			return starlark.Float(half.Float16ToFloat32(s[i])), nil
		case trace.BFloat16:
			return starlark.Float(half.BFloat16ToFloat32(s[i])), nil
		}
		return starlark.MakeInt(int(s[i])), nil
	case []uint32:
		return starlark.MakeUint64(uint64(s[i])), nil
	case []float32:
		return starlark.Float(s[i]), nil
	case []float64:
		return starlark.Float(s[i]), nil
	}
	return nil, fmt.Errorf("%s elements have no Starlark value yet", dt)
}

// ToList converts the whole array to nested Starlark lists of numbers, as
// NumPy's tolist does; a 0-d array gives its scalar.
func (a *Array) ToList() (starlark.Value, error) {
	var raw []byte
	if a.DType() != trace.Float0 { // its elements are b'', as NumPy lists them
		var err error
		if raw, err = a.hostBytes("tolist"); err != nil {
			return nil, err
		}
	} else if a.tr != nil {
		return nil, concretizationError(a, "tolist")
	}
	data := typedSlice(a.DType(), raw)
	var build func(dim, offset int) (starlark.Value, error)
	strides := rowMajorStrides(a.Shape())
	build = func(dim, offset int) (starlark.Value, error) {
		if dim == a.NDim() {
			return elementValue(a.DType(), data, offset)
		}
		n := a.Shape()[dim]
		items := make([]starlark.Value, n)
		for i := 0; i < n; i++ {
			v, err := build(dim+1, offset+i*strides[dim])
			if err != nil {
				return nil, err
			}
			items[i] = v
		}
		return starlark.NewList(items), nil
	}
	return build(0, 0)
}

func rowMajorStrides(shape trace.Shape) []int {
	strides := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = s
		s *= shape[i]
	}
	return strides
}
