package jaxsh

import (
	"fmt"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Float16 is one IEEE 754 half-precision number, as its 16 bits: the Go
// element type of float16 arrays.
type Float16 uint16

// BFloat16 is one bfloat16 number (the high 16 bits of a float32): the Go
// element type of bfloat16 arrays.
type BFloat16 uint16

// Elem is the Go element type of an array of each dtype: bool, int8 …
// int64, uint8 … uint32, float32, float64, complex64, complex128, and
// Float16 and BFloat16 for the two 16-bit float dtypes (a plain uint16 is
// uint16).
type Elem interface {
	bool | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 |
		Float16 | BFloat16 | float32 | float64 | complex64 | complex128
}

// DTypeOf is the dtype of arrays whose Go element type is T.
func DTypeOf[T Elem]() trace.DType {
	var zero T
	switch any(zero).(type) {
	case bool:
		return trace.Bool
	case int8:
		return trace.Int8
	case int16:
		return trace.Int16
	case int32:
		return trace.Int32
	case int64:
		return trace.Int64
	case uint8:
		return trace.Uint8
	case uint16:
		return trace.Uint16
	case uint32:
		return trace.Uint32
	case Float16:
		return trace.Float16
	case BFloat16:
		return trace.BFloat16
	case float32:
		return trace.Float32
	case float64:
		return trace.Float64
	case complex64:
		return trace.Complex64
	case complex128:
		return trace.Complex128
	}
	panic("unreachable: Elem is a closed set of types")
}

// NewArray returns an array of shape holding a copy of data in row-major
// order, with the dtype of T (DTypeOf), on the default device of in's
// session (Options.Device, else the platform's default; in may be nil for
// the platform's default). An empty shape is a 0-d array of one element.
// len(data) must be the shape's number of elements.
func NewArray[T Elem](in *Interpreter, data []T, shape []int) (*jstarlark.Array, error) {
	dev, err := in.defaultDevice()
	if err != nil {
		return nil, err
	}
	return NewArrayOn(dev, data, shape)
}

// NewArrayOn is NewArray on the device dev (see jit.LookupDevice for one
// by name).
func NewArrayOn[T Elem](dev jit.Device, data []T, shape []int) (*jstarlark.Array, error) {
	dt := DTypeOf[T]()
	n := 1
	for _, d := range shape {
		if d < 0 {
			return nil, fmt.Errorf("jaxsh.NewArray: negative dimension in shape %v", shape)
		}
		n *= d
	}
	if n != len(data) {
		return nil, fmt.Errorf("jaxsh.NewArray: %d elements for shape %v, want %d", len(data), shape, n)
	}
	// Go's in-memory layout of T is jit's (a bool is one byte 0 or 1;
	// jaxsh's platforms are little-endian, as host.go also assumes).
	raw := make([]byte, len(data)*dt.Size())
	if len(data) > 0 {
		copy(raw, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(raw)))
	}
	a, err := jstarlark.NewArrayFromHost(dev, dt, shape, raw)
	if err != nil {
		return nil, fmt.Errorf("jaxsh.NewArray: %v", err)
	}
	return a, nil
}

// ToSlice copies the elements of the array v to a new Go slice in row-major
// order and returns it with the array's shape. T must be the Go element
// type of v's dtype (DTypeOf): ToSlice does not convert, so a float32
// array read as []float64 is an error, as is a value that is not an array
// (a Starlark int, a list) or one with no elements on the host (a traced or
// donated array).
func ToSlice[T Elem](v starlark.Value) ([]T, []int, error) {
	a, ok := v.(*jstarlark.Array)
	if !ok {
		return nil, nil, fmt.Errorf("jaxsh.ToSlice: got %s, want an Array", v.Type())
	}
	aval := a.AVal()
	if want := DTypeOf[T](); aval.DType != want {
		var zero T
		return nil, nil, fmt.Errorf("jaxsh.ToSlice: array of dtype %s read as []%T (dtype %s)", aval.DType, zero, want)
	}
	raw, err := a.HostBytes()
	if err != nil {
		return nil, nil, fmt.Errorf("jaxsh.ToSlice: %w", err)
	}
	out := make([]T, aval.Size())
	if len(out) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), len(out)*aval.DType.Size()), raw)
	}
	return out, append([]int{}, aval.Shape...), nil
}

// defaultDevice is where NewArray puts arrays: the default device of in's
// session, or the platform's for a nil in.
func (in *Interpreter) defaultDevice() (jit.Device, error) {
	if in == nil {
		if err := (Options{}).SetUpDevices(); err != nil {
			return nil, err
		}
		return jstarlark.PlatformDefaultDevice()
	}
	s, err := in.getSession(nil)
	if err != nil {
		return nil, err
	}
	return s.DefaultDevice()
}
