package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Array creation, after jax/_src/numpy/array_constructors.py and
// array_creation.py. Values given on the host (Python numbers, nested
// lists) become device arrays as JAX makes them from host constants; filled
// arrays broadcast one scalar; ranges and grids are iotas and comparisons.

func init() {
	jstarlark.Register(Module, "array", jnpArrayBuiltin)
	jstarlark.Register(Module, "asarray", jnpAsarrayBuiltin)
	jstarlark.Register(Module, "zeros", filledBuiltin("zeros", 0))
	jstarlark.Register(Module, "ones", filledBuiltin("ones", 1))
	jstarlark.Register(Module, "empty", filledBuiltin("empty", 0))
	jstarlark.Register(Module, "full", jnpFullBuiltin)
	jstarlark.Register(Module, "zeros_like", filledLikeBuiltin("zeros_like", 0))
	jstarlark.Register(Module, "ones_like", filledLikeBuiltin("ones_like", 1))
	jstarlark.Register(Module, "empty_like", filledLikeBuiltin("empty_like", 0))
	jstarlark.Register(Module, "full_like", jnpFullLikeBuiltin)
}

// jnpArrayBuiltin is array(object, dtype=None, copy=True, order="K",
// ndmin=0).
func jnpArrayBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var object starlark.Value
	dtype, order := starlark.Value(starlark.None), starlark.Value(starlark.String("K"))
	copyArg, ndmin := true, 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "object", &object, "dtype?", &dtype, "copy?", &copyArg, "order?", &order, "ndmin?", &ndmin); err != nil {
		return nil, err
	}
	return jnpArray("array", object, dtype, copyArg, order, ndmin)
}

// jnpAsarrayBuiltin is asarray(a, dtype=None, order=None, *, copy=None):
// array without a copy of an array that already has the dtype.
func jnpAsarrayBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a starlark.Value
	dtype, order, copyArg := starlark.Value(starlark.None), starlark.Value(starlark.None), starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &a, "dtype?", &dtype, "order?", &order, "copy?", &copyArg); err != nil {
		return nil, err
	}
	return jnpArray("asarray", a, dtype, copyArg == starlark.True, order, 0)
}

func jnpArray(fn string, object, dtypeV starlark.Value, copyArray bool, order starlark.Value, ndmin int) (*jstarlark.Array, error) {
	if order != starlark.None && order != starlark.String("K") {
		return nil, fmt.Errorf("%s: only order='K' is implemented, got %s", fn, order)
	}
	dt, _, err := jstarlark.UserDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.AsarrayValue(fn, object, dt)
	if err != nil {
		return nil, err
	}
	if a, ok := object.(*jstarlark.Array); ok && out == a && copyArray {
		// A copy, not the same buffer: it must outlive a donation of a.
		if out, err = jstarlark.Bind1("copy", nil, a); err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
	}
	if ndmin > out.NDim() {
		if out, err = jstarlark.BroadcastToRank(out, ndmin); err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
	}
	return out, nil
}

// filledBuiltin is zeros/ones/empty(shape, dtype=None): float32 unless a
// dtype is given. empty is zeros, as in JAX.
func filledBuiltin(fn string, value int) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var shapeV starlark.Value
		dtypeV := starlark.Value(starlark.None)
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "shape", &shapeV, "dtype?", &dtypeV); err != nil {
			return nil, err
		}
		dt, ok, err := jstarlark.UserDType(fn, dtypeV)
		if err != nil {
			return nil, err
		}
		if !ok {
			dt = trace.Float32
		}
		shape, err := jstarlark.ShapeArg(fn, shapeV)
		if err != nil {
			return nil, err
		}
		return filledArray(fn, shape, starlark.MakeInt(value), dt)
	}
}

// filledArray is lax.full: the fill value converted to dtype dt (strongly
// typed), or kept with its own type and weakness when dt is InvalidDType,
// then broadcast to shape.
func filledArray(fn string, shape trace.Shape, fill starlark.Value, dt trace.DType) (*jstarlark.Array, error) {
	if err := jstarlark.CheckArraylike(fn, fill); err != nil {
		return nil, err
	}
	dev, err := jstarlark.OperandDevice(fill)
	if err != nil {
		return nil, err
	}
	var v *jstarlark.Array
	switch f := fill.(type) {
	case *jstarlark.Array:
		if f.NDim() != 0 {
			return nil, fmt.Errorf("%s: the fill value must be a scalar, got %s", fn, jstarlark.Describe(f))
		}
		v = f
		if dt != trace.InvalidDType {
			v, err = jstarlark.Astype(f, dt)
		}
	default:
		if dt == trace.InvalidDType {
			v, err = jstarlark.AsArray(fn, fill, dev)
		} else {
			v, err = jstarlark.ArrayFromValue(fn, fill, trace.Type{DType: dt}, dev)
		}
	}
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.BroadcastTo(v, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return out, nil
}

// jnpFullBuiltin is full(shape, fill_value, dtype=None): a scalar fill keeps
// its weak type when no dtype is given; an array fill broadcasts to shape.
func jnpFullBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "full"
	var shapeV, fill starlark.Value
	dtypeV := starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "shape", &shapeV, "fill_value", &fill, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	dt, _, err := jstarlark.UserDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	if err := jstarlark.CheckArraylike(fn, fill); err != nil {
		return nil, err
	}
	shape, err := jstarlark.ShapeArg(fn, shapeV)
	if err != nil {
		return nil, err
	}
	if a, ok := fill.(*jstarlark.Array); ok && a.NDim() > 0 {
		return broadcastFill(fn, a, dt, shape)
	}
	return filledArray(fn, shape, fill, dt)
}

// broadcastFill is broadcast_to(asarray(fill, dtype), shape) for an array
// fill value, with NumPy's check that the shapes broadcast.
func broadcastFill(fn string, fill *jstarlark.Array, dt trace.DType, shape trace.Shape) (*jstarlark.Array, error) {
	var err error
	if dt != trace.InvalidDType {
		if fill, err = jstarlark.Astype(fill, dt); err != nil {
			return nil, err
		}
	}
	if got, err := trace.BroadcastShapes(fill.Shape(), shape); err != nil || !got.Equal(shape) {
		return nil, fmt.Errorf("%s: cannot broadcast the fill value %s to shape %s", fn, jstarlark.Describe(fill), shape)
	}
	out, err := jstarlark.BroadcastTo(fill, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return out, nil
}

// filledLikeBuiltin is zeros_like/ones_like/empty_like(a, dtype=None,
// shape=None).
func filledLikeBuiltin(fn string, value int) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var a starlark.Value
		dtypeV, shapeV := starlark.Value(starlark.None), starlark.Value(starlark.None)
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &a, "dtype?", &dtypeV, "shape?", &shapeV); err != nil {
			return nil, err
		}
		return fullLike(fn, a, starlark.MakeInt(value), dtypeV, shapeV)
	}
}

func jnpFullLikeBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a, fill starlark.Value
	dtypeV, shapeV := starlark.Value(starlark.None), starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &a, "fill_value", &fill, "dtype?", &dtypeV, "shape?", &shapeV); err != nil {
		return nil, err
	}
	return fullLike("full_like", a, fill, dtypeV, shapeV)
}

// fullLike is lax.full_like: a's shape (or shape) and dtype (or dtype),
// weakly typed when a is and no dtype is given.
func fullLike(fn string, a, fill, dtypeV, shapeV starlark.Value) (*jstarlark.Array, error) {
	x, err := jstarlark.EnsureArray(fn, a)
	if err != nil {
		return nil, err
	}
	if err := jstarlark.CheckArraylike(fn, fill); err != nil {
		return nil, err
	}
	dt, explicit, err := jstarlark.UserDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	shape := x.Shape()
	if shapeV != starlark.None {
		if shape, err = jstarlark.ShapeArg(fn, shapeV); err != nil {
			return nil, err
		}
	}
	if f, ok := fill.(*jstarlark.Array); ok && f.NDim() > 0 {
		if !explicit {
			dt = x.DType()
		}
		return broadcastFill(fn, f, dt, shape)
	}
	t := trace.Type{DType: dt}
	if !explicit {
		t = x.AVal().Type()
	}
	dev := x.Device()
	var v *jstarlark.Array
	if f, ok := fill.(*jstarlark.Array); ok {
		v, err = jstarlark.ConvertType(f, t)
	} else {
		v, err = jstarlark.ArrayFromValue(fn, fill, t, dev)
	}
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.BroadcastTo(v, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return out, nil
}

// numberValue reads a concrete scalar argument (a Python number or a 0-d
// array) as a float64, for host-side size arithmetic.
func numberValue(fn, what string, v starlark.Value) (float64, error) {
	if a, ok := v.(*jstarlark.Array); ok {
		if a.NDim() != 0 {
			return 0, fmt.Errorf("%s: arguments must be scalars; got %s=%s", fn, what, jstarlark.Describe(a))
		}
		s, err := a.ScalarValue(0)
		if err != nil {
			return 0, err
		}
		v = s
	}
	switch x := v.(type) {
	case starlark.Int:
		return float64(x.Float()), nil
	case starlark.Float:
		return float64(x), nil
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("%s: %s must be a number, got %s", fn, what, v.Type())
}

// castTo is lax.convert_element_type(v, dt) for a Python number or array:
// strongly typed, floats truncated toward zero for integer dtypes.
func castTo(fn string, v starlark.Value, dt trace.DType) (*jstarlark.Array, error) {
	if a, ok := v.(*jstarlark.Array); ok {
		return jstarlark.Astype(a, dt)
	}
	dev, err := jstarlark.DefaultDevice()
	if err != nil {
		return nil, err
	}
	return jstarlark.ArrayFromValue(fn, v, trace.Type{DType: dt}, dev)
}

// sizeFromFloat is max(0, ceil(x)) as an int, refusing sizes no array can
// have.
func sizeFromFloat(fn string, x float64) (int, error) {
	n := math.Ceil(x)
	switch {
	case math.IsNaN(n):
		return 0, fmt.Errorf("%s: the number of elements is not a number", fn)
	case n <= 0:
		return 0, nil
	case n > math.MaxInt32:
		return 0, fmt.Errorf("%s: %g elements are too many", fn, n)
	}
	return int(n), nil
}
