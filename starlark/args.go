package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// UserDType reads a dtype argument as dtypeArg does, with a hint for the
// common slip of passing a shape's dimensions as separate arguments.
func UserDType(fn string, v starlark.Value) (trace.DType, bool, error) {
	switch x := v.(type) {
	case starlark.Int:
		return trace.InvalidDType, false, fmt.Errorf("%s: cannot interpret %s as a data type (to give a shape of several dimensions, pass one tuple: %s((3, %s)))", fn, x, fn, x)
	}
	return DTypeArg(fn, v)
}

// ShapeArg reads a shape: an int or a sequence of ints (0-d integer arrays
// count as ints), none negative.
func ShapeArg(fn string, v starlark.Value) (trace.Shape, error) {
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
		n, err := IntArg(fn, "shape", it)
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

// IntArg reads a Python int (or a 0-d integer array, whose value is known).
func IntArg(fn, what string, v starlark.Value) (int, error) {
	switch x := v.(type) {
	case starlark.Int:
		n, ok := x.Int64()
		if !ok || n != int64(int(n)) {
			return 0, fmt.Errorf("%s: %s %s is out of range", fn, what, x)
		}
		return int(n), nil
	case *Array:
		if x.NDim() == 0 && x.DType().IsInteger() {
			s, err := x.ScalarValue(0)
			if err != nil {
				return 0, err
			}
			n, _ := s.(starlark.Int).Int64()
			return int(n), nil
		}
	}
	return 0, fmt.Errorf("%s: %s must be an integer, got %s", fn, what, Describe(v))
}

// AsarrayValue converts an array, a Python number or a nested list/tuple
// (arrays allowed inside) to an array of dtype dt, or of the inferred dtype
// when dt is InvalidDType. A Python number without dtype stays weakly
// typed; a list's dtype is the promotion of its elements, strongly typed.
func AsarrayValue(fn string, v starlark.Value, dt trace.DType) (*Array, error) {
	if r, ok := v.(starlark.Indexable); ok && v.Type() == "range" {
		// A range is a sequence of ints, as NumPy reads it.
		items := make([]starlark.Value, r.Len())
		for i := range items {
			items[i] = r.Index(i)
		}
		v = starlark.NewList(items)
	}
	dev, err := OperandDevice(v)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *Array:
		if dt == trace.InvalidDType {
			return x, nil
		}
		return Astype(x, dt)
	case starlark.Int, starlark.Float, starlark.Bool:
		if dt == trace.InvalidDType {
			return AsArray(fn, v, dev)
		}
		return ArrayFromValue(fn, v, trace.Type{DType: dt}, dev)
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
		return ArrayFromValue(fn, v, trace.Type{DType: dt}, dev)
	case starlark.NoneType:
		return nil, fmt.Errorf("%s: None is not a valid value for an array", fn)
	}
	return nil, fmt.Errorf("%s: cannot convert %s to an array", fn, v.Type())
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
		if err := CheckArraylike(fn, v); err != nil {
			return fmt.Errorf("%s: cannot convert %s to an array element", fn, v.Type())
		}
		t, err := TypeOf(fn, v)
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

// DTypeOf reads the dtype of a dtype-like value (a dtype, its name, Python's
// float/int/bool) or of an array.
func DTypeOf(fn string, v starlark.Value) (trace.DType, error) {
	if a, ok := v.(*Array); ok {
		return a.DType(), nil
	}
	dt, ok, err := UserDType(fn, v)
	if err != nil {
		return trace.InvalidDType, err
	}
	if !ok {
		return trace.InvalidDType, fmt.Errorf("%s: a dtype is required, got None", fn)
	}
	return dt, nil
}

// DTypeOrDefault is DTypeArg with dflt for an absent (None) dtype.
func DTypeOrDefault(fn string, v starlark.Value, dflt trace.DType) (trace.DType, error) {
	dt, ok, err := UserDType(fn, v)
	if err != nil || ok {
		return dt, err
	}
	return dflt, nil
}

// CheckArraylike rejects what JAX's ufuncs reject: anything but arrays and
// Python numbers. Lists and tuples are array-like only for jnp.array and
// jnp.asarray, as in JAX.
func CheckArraylike(fn string, vals ...starlark.Value) error {
	for i, v := range vals {
		switch v.(type) {
		case *Array, starlark.Int, starlark.Float, starlark.Bool:
			continue
		}
		return fmt.Errorf("%s requires ndarray or scalar arguments, got %s at position %d", fn, v.Type(), i)
	}
	return nil
}

// EnsureArray is JAX's ensure_arraylike for one operand: arrays pass, a
// Python number becomes a weakly typed 0-d array, anything else is an error.
func EnsureArray(fn string, v starlark.Value) (*Array, error) {
	if err := CheckArraylike(fn, v); err != nil {
		return nil, err
	}
	dev, err := OperandDevice(v)
	if err != nil {
		return nil, err
	}
	return AsArray(fn, v, dev)
}

// ArraylikeArg is JAX's ensure_arraylike for one operand: arrays pass through,
// Python scalars become weakly typed 0-d arrays on dev. Lists are rejected
// as JAX rejects them: jnp functions do not convert sequences implicitly.
func ArraylikeArg(fn string, v starlark.Value, pos int, dev jit.Device) (*Array, error) {
	switch v := v.(type) {
	case *Array:
		return v, nil
	case starlark.Int, starlark.Float, starlark.Bool:
		return AsArray(fn, v, dev)
	}
	return nil, fmt.Errorf("%s requires ndarray or scalar arguments, got %s at position %d", fn, v.Type(), pos)
}

// NormalizeAxisOf resolves a possibly negative axis against rank, with NumPy's
// message and the operand named.
func NormalizeAxisOf(fn string, axis, rank int, a *Array) (int, error) {
	n, err := trace.NormalizeAxis(axis, rank)
	if err != nil {
		return 0, fmt.Errorf("%s: %v (operand %s)", fn, err, Describe(a))
	}
	return n, nil
}

// containsTracer reports whether a nested list/tuple holds a traced array.
func containsTracer(v starlark.Value) bool {
	switch x := v.(type) {
	case *Array:
		return x.Traced()
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
		return AsarrayValue(fn, v, dt)
	}
	if len(items) == 0 {
		return AsarrayValue(fn, v, dt)
	}
	parts := make([]*Array, len(items))
	var first trace.Shape
	for i, it := range items {
		a, err := stackNested(fn, it, dt)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = a.Shape()
		} else if !a.Shape().Equal(first) {
			return nil, fmt.Errorf("%s: ragged nested sequence: elements of shapes %s and %s", fn, first, a.Shape())
		}
		newShape := append([]int{1}, a.Shape()...)
		if parts[i], err = Bind1("reshape", trace.Params{"new_sizes": newShape}, a); err != nil {
			return nil, err
		}
	}
	return Bind1("concatenate", trace.Params{"dimension": 0}, parts...)
}

// DescribeArrays is Describe of each array, comma-separated.
func DescribeArrays(arrs []*Array) string {
	vals := make([]starlark.Value, len(arrs))
	for i, a := range arrs {
		vals[i] = a
	}
	return DescribeAll(vals...)
}

// SplitKwargs separates the named keyword arguments a builtin reads from
// the rest, which it passes on (id_tap to its tap function, debug.print to
// its format).
func SplitKwargs(kwargs []starlark.Tuple, known ...string) (own, rest []starlark.Tuple) {
	for _, kv := range kwargs {
		k := string(kv[0].(starlark.String))
		isKnown := false
		for _, n := range known {
			isKnown = isKnown || n == k
		}
		if isKnown {
			own = append(own, kv)
		} else {
			rest = append(rest, kv)
		}
	}
	return own, rest
}
