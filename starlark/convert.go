package starlark

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Python scalars are weakly typed (JAX's rules): an int is a weak int32, a
// float a weak float32, until an operation meets an array and adopts its
// dtype. bool is strongly typed and sits at the bottom of the lattice.
func ScalarType(v starlark.Value) (trace.Type, bool) {
	switch v.(type) {
	case starlark.Bool:
		return trace.Type{DType: trace.Bool}, true
	case starlark.Int:
		return trace.Type{DType: trace.Int32, Weak: true}, true
	case starlark.Float:
		return trace.Type{DType: trace.Float32, Weak: true}, true
	}
	return trace.Type{}, false
}

// TypeOf is the promotion type of an operand: an array's dtype and weak
// flag, or a Python scalar's weak type. Lists and tuples are arrays with a
// strong inferred dtype.
func TypeOf(fn string, v starlark.Value) (trace.Type, error) {
	switch v := v.(type) {
	case *Array:
		return v.aval.Type(), nil
	case *starlark.List, starlark.Tuple:
		t, err := nestedType(fn, v)
		t.Weak = false
		return t, err
	}
	if t, ok := ScalarType(v); ok {
		return t, nil
	}
	return trace.Type{}, fmt.Errorf("%s: expected an array or a number, got %s", fn, v.Type())
}

// NestedShape walks nested lists/tuples (and arrays inside them) and returns
// the shape and the leaves in row-major order. Ragged nesting is an error.
func NestedShape(fn string, v starlark.Value) (trace.Shape, []starlark.Value, error) {
	var leaves []starlark.Value
	var shape trace.Shape
	var walk func(v starlark.Value, depth int) error
	walk = func(v starlark.Value, depth int) error {
		var items []starlark.Value
		switch x := v.(type) {
		case *starlark.List:
			for i := 0; i < x.Len(); i++ {
				items = append(items, x.Index(i))
			}
		case starlark.Tuple:
			items = x
		case *Array:
			if x.NDim() == 0 {
				return leaf(&leaves, &shape, depth, v)
			}
			l, err := x.ToList()
			if err != nil {
				return err
			}
			return walk(l, depth)
		default:
			return leaf(&leaves, &shape, depth, v)
		}
		if depth == len(shape) {
			if len(leaves) > 0 {
				return fmt.Errorf("%s: ragged nested sequence: a sequence at depth %d where numbers stand elsewhere", fn, depth)
			}
			shape = append(shape, len(items))
		} else if depth > len(shape) || shape[depth] != len(items) {
			return fmt.Errorf("%s: ragged nested sequence: lengths %d and %d at depth %d", fn, shape[depth], len(items), depth)
		}
		for _, it := range items {
			if err := walk(it, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(v, 0); err != nil {
		return nil, nil, err
	}
	return shape, leaves, nil
}

func leaf(leaves *[]starlark.Value, shape *trace.Shape, depth int, v starlark.Value) error {
	if depth != len(*shape) {
		return fmt.Errorf("ragged nested sequence: a number at depth %d where sequences of length %d stand elsewhere", depth, (*shape)[depth])
	}
	*leaves = append(*leaves, v)
	return nil
}

// AsArray converts an operand to an array on dev: arrays pass through,
// Python scalars keep their weak type, lists become strongly typed arrays.
func AsArray(fn string, v starlark.Value, dev jit.Device) (*Array, error) {
	if a, ok := v.(*Array); ok {
		return a, nil
	}
	t, err := TypeOf(fn, v)
	if err != nil {
		return nil, err
	}
	return ArrayFromValue(fn, v, t, dev)
}

// ArrayFromValue builds an array of type t (shape inferred) from a Python
// scalar or nested sequence.
func ArrayFromValue(fn string, v starlark.Value, t trace.Type, dev jit.Device) (*Array, error) {
	if a, ok, err := scalarOperand(fn, v, t, dev); ok {
		return a, err
	}
	shape, leaves, err := NestedShape(fn, v)
	if err != nil {
		return nil, err
	}
	raw := make([]byte, len(leaves)*t.DType.Size())
	for i, l := range leaves {
		if err := encodeScalar(fn, raw, i, t.DType, l); err != nil {
			return nil, err
		}
	}
	aval := trace.AVal{Shape: shape, DType: t.DType, Weak: t.Weak}
	buf, err := jit.FromHost(dev, aval, raw)
	if err != nil {
		return nil, err
	}
	return NewArray(buf), nil
}

// ScalarArray makes a 0-d array of dtype dt from a Python scalar, weak when
// weak is set.
func ScalarArray(fn string, v starlark.Value, dt trace.DType, weak bool, dev jit.Device) (*Array, error) {
	return ArrayFromValue(fn, v, trace.Type{DType: dt, Weak: weak && dt != trace.Bool}, dev)
}

// encodeScalar writes the Python scalar (or 0-d array) v as element i of raw
// in dtype dt. Integers that do not fit are an error, as in JAX ("Python int
// too large to convert"); floats round; floats to integers truncate.
func encodeScalar(fn string, raw []byte, i int, dt trace.DType, v starlark.Value) error {
	if a, ok := v.(*Array); ok {
		s, err := a.ScalarValue(0)
		if err != nil {
			return err
		}
		v = s
	}
	size := dt.Size()
	b := raw[i*size : (i+1)*size]
	switch x := v.(type) {
	case starlark.Bool:
		if x {
			v = starlark.MakeInt(1)
		} else {
			v = starlark.MakeInt(0)
		}
		if dt == trace.Bool {
			b[0] = byte(v.(starlark.Int).Sign())
			return nil
		}
		return encodeScalar(fn, raw, i, dt, v)
	case starlark.Int:
		if dt.IsInexact() {
			f := x.Float()
			return encodeFloat(b, dt, float64(f))
		}
		if dt == trace.Bool {
			b[0] = BoolByte(x.Sign() != 0)
			return nil
		}
		n, ok := x.Int64()
		if !ok || !FitsInt(n, dt) {
			return fmt.Errorf("%s: Python int %s too large to convert to %s", fn, x, dt)
		}
		EncodeInt(b, dt, n)
		return nil
	case starlark.Float:
		f := float64(x)
		switch {
		case dt.IsInexact():
			return encodeFloat(b, dt, f)
		case dt == trace.Bool:
			b[0] = BoolByte(f != 0)
			return nil
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s: cannot convert float %v to %s", fn, x, dt)
		}
		EncodeInt(b, dt, int64(math.Trunc(f)))
		return nil
	}
	return fmt.Errorf("%s: expected a number, got %s", fn, v.Type())
}

// BoolByte is a bool element's byte: 1 or 0.
func BoolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// FitsInt reports whether n is in the range of the integer dtype dt.
func FitsInt(n int64, dt trace.DType) bool {
	bits := uint(dt.Bits())
	if dt.IsUnsigned() {
		return n >= 0 && (bits >= 64 || n < 1<<bits)
	}
	return bits >= 64 || (n >= -(1<<(bits-1)) && n < 1<<(bits-1))
}

// EncodeInt stores n wrapped to dt's width, little-endian.
func EncodeInt(b []byte, dt trace.DType, n int64) {
	switch dt.Size() {
	case 1:
		b[0] = byte(n)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(n))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(n))
	case 8:
		binary.LittleEndian.PutUint64(b, uint64(n))
	}
}

func encodeFloat(b []byte, dt trace.DType, f float64) error {
	switch dt {
	case trace.Float16:
		binary.LittleEndian.PutUint16(b, half.Float16FromFloat64(f))
	case trace.BFloat16:
		binary.LittleEndian.PutUint16(b, half.BFloat16FromFloat64(f))
	case trace.Float32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
	case trace.Float64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(f))
	case trace.Complex64:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
		binary.LittleEndian.PutUint32(b[4:], 0)
	case trace.Complex128:
		binary.LittleEndian.PutUint64(b, math.Float64bits(f))
		binary.LittleEndian.PutUint64(b[8:], 0)
	default:
		return fmt.Errorf("encodeFloat: %s is not inexact", dt)
	}
	return nil
}
