package starlark

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Array creation, after jax/_src/numpy/array_constructors.py and
// array_creation.py. Values given on the host (Python numbers, nested
// lists) become device arrays as JAX makes them from host constants; filled
// arrays broadcast one scalar; ranges and grids are iotas and comparisons.

func init() {
	register("jnp", "array", jnpArrayBuiltin)
	register("jnp", "asarray", jnpAsarrayBuiltin)
	register("jnp", "zeros", filledBuiltin("zeros", 0))
	register("jnp", "ones", filledBuiltin("ones", 1))
	register("jnp", "empty", filledBuiltin("empty", 0))
	register("jnp", "full", jnpFullBuiltin)
	register("jnp", "zeros_like", filledLikeBuiltin("zeros_like", 0))
	register("jnp", "ones_like", filledLikeBuiltin("ones_like", 1))
	register("jnp", "empty_like", filledLikeBuiltin("empty_like", 0))
	register("jnp", "full_like", jnpFullLikeBuiltin)
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

func jnpArray(fn string, object, dtypeV starlark.Value, copyArray bool, order starlark.Value, ndmin int) (*Array, error) {
	if order != starlark.None && order != starlark.String("K") {
		return nil, fmt.Errorf("%s: only order='K' is implemented, got %s", fn, order)
	}
	dt, _, err := userDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	out, err := asarrayValue(fn, object, dt)
	if err != nil {
		return nil, err
	}
	if a, ok := object.(*Array); ok && out == a && copyArray {
		// A copy, not the same buffer: it must outlive a donation of a.
		if out, err = bind1("copy", nil, a); err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
	}
	if ndmin > out.ndim() {
		if out, err = broadcastToRank(out, ndmin); err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
	}
	return out, nil
}

// filledBuiltin is zeros/ones/empty(shape, dtype=None): float32 unless a
// dtype is given. empty is zeros, as in JAX.
func filledBuiltin(fn string, value int) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var shapeV starlark.Value
		dtypeV := starlark.Value(starlark.None)
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "shape", &shapeV, "dtype?", &dtypeV); err != nil {
			return nil, err
		}
		dt, ok, err := userDType(fn, dtypeV)
		if err != nil {
			return nil, err
		}
		if !ok {
			dt = trace.Float32
		}
		shape, err := shapeArg(fn, shapeV)
		if err != nil {
			return nil, err
		}
		return filledArray(fn, shape, starlark.MakeInt(value), dt)
	}
}

// filledArray is lax.full: the fill value converted to dtype dt (strongly
// typed), or kept with its own type and weakness when dt is InvalidDType,
// then broadcast to shape.
func filledArray(fn string, shape trace.Shape, fill starlark.Value, dt trace.DType) (*Array, error) {
	if err := checkArraylike(fn, fill); err != nil {
		return nil, err
	}
	dev, err := operandDevice(fill)
	if err != nil {
		return nil, err
	}
	var v *Array
	switch f := fill.(type) {
	case *Array:
		if f.ndim() != 0 {
			return nil, fmt.Errorf("%s: the fill value must be a scalar, got %s", fn, describe(f))
		}
		v = f
		if dt != trace.InvalidDType {
			v, err = astype(f, dt)
		}
	default:
		if dt == trace.InvalidDType {
			v, err = asArray(fn, fill, dev)
		} else {
			v, err = arrayFromValue(fn, fill, trace.Type{DType: dt}, dev)
		}
	}
	if err != nil {
		return nil, err
	}
	out, err := broadcastTo(v, shape)
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
	dt, _, err := userDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	if err := checkArraylike(fn, fill); err != nil {
		return nil, err
	}
	shape, err := shapeArg(fn, shapeV)
	if err != nil {
		return nil, err
	}
	if a, ok := fill.(*Array); ok && a.ndim() > 0 {
		return broadcastFill(fn, a, dt, shape)
	}
	return filledArray(fn, shape, fill, dt)
}

// broadcastFill is broadcast_to(asarray(fill, dtype), shape) for an array
// fill value, with NumPy's check that the shapes broadcast.
func broadcastFill(fn string, fill *Array, dt trace.DType, shape trace.Shape) (*Array, error) {
	var err error
	if dt != trace.InvalidDType {
		if fill, err = astype(fill, dt); err != nil {
			return nil, err
		}
	}
	if got, err := trace.BroadcastShapes(fill.shape(), shape); err != nil || !got.Equal(shape) {
		return nil, fmt.Errorf("%s: cannot broadcast the fill value %s to shape %s", fn, describe(fill), shape)
	}
	out, err := broadcastTo(fill, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return out, nil
}

// filledLikeBuiltin is zeros_like/ones_like/empty_like(a, dtype=None,
// shape=None).
func filledLikeBuiltin(fn string, value int) builtinFunc {
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
func fullLike(fn string, a, fill, dtypeV, shapeV starlark.Value) (*Array, error) {
	x, err := ensureArray(fn, a)
	if err != nil {
		return nil, err
	}
	if err := checkArraylike(fn, fill); err != nil {
		return nil, err
	}
	dt, explicit, err := userDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	shape := x.shape()
	if shapeV != starlark.None {
		if shape, err = shapeArg(fn, shapeV); err != nil {
			return nil, err
		}
	}
	if f, ok := fill.(*Array); ok && f.ndim() > 0 {
		if !explicit {
			dt = x.dtype()
		}
		return broadcastFill(fn, f, dt, shape)
	}
	t := trace.Type{DType: dt}
	if !explicit {
		t = x.aval.Type()
	}
	dev := x.Device()
	var v *Array
	if f, ok := fill.(*Array); ok {
		v, err = convertType(f, t)
	} else {
		v, err = arrayFromValue(fn, fill, t, dev)
	}
	if err != nil {
		return nil, err
	}
	out, err := broadcastTo(v, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return out, nil
}

// numberValue reads a concrete scalar argument (a Python number or a 0-d
// array) as a float64, for host-side size arithmetic.
func numberValue(fn, what string, v starlark.Value) (float64, error) {
	if a, ok := v.(*Array); ok {
		if a.ndim() != 0 {
			return 0, fmt.Errorf("%s: arguments must be scalars; got %s=%s", fn, what, describe(a))
		}
		s, err := a.scalarValue(0)
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
func castTo(fn string, v starlark.Value, dt trace.DType) (*Array, error) {
	if a, ok := v.(*Array); ok {
		return astype(a, dt)
	}
	dev, err := defaultDevice()
	if err != nil {
		return nil, err
	}
	return arrayFromValue(fn, v, trace.Type{DType: dt}, dev)
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
