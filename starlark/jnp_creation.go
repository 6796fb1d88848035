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

// userDType reads a dtype argument as dtypeArg does, with a hint for the
// common slip of passing a shape's dimensions as separate arguments.
func userDType(fn string, v starlark.Value) (trace.DType, bool, error) {
	switch x := v.(type) {
	case starlark.Int:
		return trace.InvalidDType, false, fmt.Errorf("%s: cannot interpret %s as a data type (to give a shape of several dimensions, pass one tuple: %s((3, %s)))", fn, x, fn, x)
	}
	return dtypeArg(fn, v)
}

// shapeArg reads a shape: an int or a sequence of ints (0-d integer arrays
// count as ints), none negative.
func shapeArg(fn string, v starlark.Value) (trace.Shape, error) {
	var items []starlark.Value
	switch x := v.(type) {
	case starlark.Tuple:
		items = x
	case *starlark.List:
		for i := range x.Len() {
			items = append(items, x.Index(i))
		}
	default:
		items = []starlark.Value{v}
	}
	shape := make(trace.Shape, len(items))
	for i, it := range items {
		n, err := intArg(fn, "shape", it)
		if err != nil {
			return nil, fmt.Errorf("%s: shape must be an int or a sequence of ints, got %s", fn, v)
		}
		if n < 0 {
			return nil, fmt.Errorf("%s: negative dimensions are not allowed, got shape %s", fn, v)
		}
		shape[i] = n
	}
	return shape, nil
}

// intArg reads a Python int (or a 0-d integer array, whose value is known).
func intArg(fn, what string, v starlark.Value) (int, error) {
	switch x := v.(type) {
	case starlark.Int:
		n, ok := x.Int64()
		if !ok || n != int64(int(n)) {
			return 0, fmt.Errorf("%s: %s %s is out of range", fn, what, x)
		}
		return int(n), nil
	case *Array:
		if x.ndim() == 0 && x.dtype().IsInteger() {
			s, err := x.scalarValue(0)
			if err != nil {
				return 0, err
			}
			n, _ := s.(starlark.Int).Int64()
			return int(n), nil
		}
	}
	return 0, fmt.Errorf("%s: %s must be an integer, got %s", fn, what, describe(v))
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

// asarrayValue converts an array, a Python number or a nested list/tuple
// (arrays allowed inside) to an array of dtype dt, or of the inferred dtype
// when dt is InvalidDType. A Python number without dtype stays weakly
// typed; a list's dtype is the promotion of its elements, strongly typed.
func asarrayValue(fn string, v starlark.Value, dt trace.DType) (*Array, error) {
	dev, err := operandDevice(v)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *Array:
		if dt == trace.InvalidDType {
			return x, nil
		}
		return astype(x, dt)
	case starlark.Int, starlark.Float, starlark.Bool:
		if dt == trace.InvalidDType {
			return asArray(fn, v, dev)
		}
		return arrayFromValue(fn, v, trace.Type{DType: dt}, dev)
	case *starlark.List, starlark.Tuple:
		t, err := nestedType(fn, v) // also rejects leaves that are not numbers
		if err != nil {
			return nil, err
		}
		if dt == trace.InvalidDType {
			dt = t.DType
		}
		if containsTracer(v) {
			return stackNested(fn, v, dt)
		}
		return arrayFromValue(fn, v, trace.Type{DType: dt}, dev)
	case starlark.NoneType:
		return nil, fmt.Errorf("%s: None is not a valid value for an array", fn)
	}
	return nil, fmt.Errorf("%s: cannot convert %s to an array", fn, v.Type())
}

// containsTracer reports whether a nested list/tuple holds a traced array.
func containsTracer(v starlark.Value) bool {
	switch x := v.(type) {
	case *Array:
		return x.traced()
	case *starlark.List:
		for i := range x.Len() {
			if containsTracer(x.Index(i)) {
				return true
			}
		}
	case starlark.Tuple:
		for _, it := range x {
			if containsTracer(it) {
				return true
			}
		}
	}
	return false
}

// stackNested builds an array of dtype dt from a nested sequence that holds
// traced arrays, whose values are not known yet: each element becomes an
// array with a new leading axis, and the elements are concatenated, as
// JAX's jnp.array does for tracers.
func stackNested(fn string, v starlark.Value, dt trace.DType) (*Array, error) {
	var items []starlark.Value
	switch x := v.(type) {
	case *starlark.List:
		for i := range x.Len() {
			items = append(items, x.Index(i))
		}
	case starlark.Tuple:
		items = x
	default:
		return asarrayValue(fn, v, dt)
	}
	if len(items) == 0 {
		return asarrayValue(fn, v, dt)
	}
	parts := make([]*Array, len(items))
	var first trace.Shape
	for i, it := range items {
		a, err := stackNested(fn, it, dt)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = a.shape()
		} else if !a.shape().Equal(first) {
			return nil, fmt.Errorf("%s: ragged nested sequence: elements of shapes %s and %s", fn, first, a.shape())
		}
		newShape := append([]int{1}, a.shape()...)
		if parts[i], err = bind1("reshape", trace.Params{"new_sizes": newShape}, a); err != nil {
			return nil, err
		}
	}
	return bind1("concatenate", trace.Params{"dimension": 0}, parts...)
}

// nestedType is the promotion of a nested sequence's leaves (JAX's
// lattice_result_type): arrays count with their own dtypes (and weak
// flags), Python numbers weakly; an empty sequence is float32.
func nestedType(fn string, v starlark.Value) (trace.Type, error) {
	seen := map[trace.Type]bool{}
	var types []trace.Type
	var walk func(v starlark.Value) error
	walk = func(v starlark.Value) error {
		switch x := v.(type) {
		case *starlark.List:
			for i := range x.Len() {
				if err := walk(x.Index(i)); err != nil {
					return err
				}
			}
			return nil
		case starlark.Tuple:
			for _, it := range x {
				if err := walk(it); err != nil {
					return err
				}
			}
			return nil
		case starlark.NoneType:
			return fmt.Errorf("%s: None is not a valid value for an array", fn)
		}
		if err := checkArraylike(fn, v); err != nil {
			return fmt.Errorf("%s: cannot convert %s to an array element", fn, v.Type())
		}
		t, err := typeOf(fn, v)
		if err != nil {
			return err
		}
		if !seen[t] {
			seen[t] = true
			types = append(types, t)
		}
		return nil
	}
	if err := walk(v); err != nil {
		return trace.Type{}, err
	}
	if len(types) == 0 {
		return trace.Type{DType: trace.Float32}, nil
	}
	t, err := trace.ResultType(types...)
	if err != nil {
		return trace.Type{}, fmt.Errorf("%s: %v", fn, err)
	}
	return trace.Type{DType: t.DType}, nil
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
