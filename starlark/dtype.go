package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// DType is the Starlark value of a dtype: jnp.float32, x.dtype. It prints
// as its name, equals another DType of the same kind or its name as a
// string (as NumPy's dtype == 'float32'), and calling it converts a value
// to a strongly typed array: jnp.float32(3) is Array(3., dtype=float32).
type DType struct{ DT trace.DType }

var (
	_ starlark.Callable   = DType{}
	_ starlark.Comparable = DType{}
	_ starlark.HasBinary  = DType{}
	_ starlark.HasAttrs   = DType{}
)

func (d DType) String() string        { return d.DT.Name() }
func (d DType) Type() string          { return "dtype" }
func (d DType) Freeze()               {}
func (d DType) Truth() starlark.Bool  { return starlark.True }
func (d DType) Hash() (uint32, error) { return starlark.String(d.DT.Name()).Hash() }
func (d DType) Name() string          { return d.DT.Name() }

func (d DType) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	switch op {
	case syntax.EQL:
		return d == y.(DType), nil
	case syntax.NEQ:
		return d != y.(DType), nil
	}
	return false, fmt.Errorf("dtypes are not ordered")
}

// Binary lets the dialect's == and != compare a dtype with its name.
func (d DType) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	s, ok := y.(starlark.String)
	if !ok || (op != syntax.EQL && op != syntax.NEQ) {
		return nil, nil
	}
	return starlark.Bool((string(s) == d.DT.Name()) == (op == syntax.EQL)), nil
}

func (d DType) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(d.DT.Name()), nil
	case "itemsize":
		return starlark.MakeInt(d.DT.Size()), nil
	}
	return nil, nil
}

func (d DType) AttrNames() []string { return []string{"itemsize", "name"} }

func (d DType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(d.DT.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	dev, err := OperandDevice(x)
	if err != nil {
		return nil, err
	}
	if a, ok := x.(*Array); ok {
		return Astype(a, d.DT)
	}
	return ArrayFromValue(d.DT.Name(), x, trace.Type{DType: d.DT}, dev)
}

// DTypeArg reads an optional dtype argument: a DType, a dtype name string,
// Python's float, int or bool (the default float32 and int32, and bool, as
// JAX reads them), or None (absent).
func DTypeArg(fn string, v starlark.Value) (trace.DType, bool, error) {
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return trace.InvalidDType, false, nil
	case *starlark.Builtin:
		switch x.Name() {
		case "float":
			return trace.Float32, true, nil
		case "int":
			return trace.Int32, true, nil
		case "bool":
			return trace.Bool, true, nil
		}
	case DType:
		if x.DT == trace.Float0 {
			return trace.InvalidDType, false, fmt.Errorf("%s: float0 is the dtype of the tangents of integer and boolean values; no array operation makes or takes it", fn)
		}
		return x.DT, true, nil
	case starlark.String:
		dt, err := trace.ParseDType(string(x))
		if err != nil || !dt.IsArray() || dt == trace.Float0 {
			return trace.InvalidDType, false, fmt.Errorf("%s: unknown dtype %q", fn, string(x))
		}
		return dt, true, nil
	}
	return trace.InvalidDType, false, fmt.Errorf("%s: dtype must be a dtype such as jnp.float32, got %s", fn, v.Type())
}
