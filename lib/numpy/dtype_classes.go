package numpy

import (
	"fmt"
	"slices"
	"strings"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// NumPy's abstract scalar classes (jnp.number, jnp.integer, jnp.floating,
// ...) for issubdtype, and the functions that read an array's dtype,
// shape, size and rank: jnp.dtype, issubdtype, isdtype, shape, size, ndim,
// isscalar.

// A dtypeClass is one node of NumPy's scalar type hierarchy:
// generic > number > integer > signedinteger/unsignedinteger, number >
// inexact > floating/complexfloating, generic > flexible > character, and
// generic > bool_.
type dtypeClass struct {
	name   string
	parent string
	has    func(trace.DType) bool
}

var dtypeClasses = map[string]*dtypeClass{
	"generic":         {"generic", "", func(d trace.DType) bool { return d.IsArray() }},
	"number":          {"number", "generic", trace.DType.IsNumeric},
	"integer":         {"integer", "number", trace.DType.IsInteger},
	"signedinteger":   {"signedinteger", "integer", trace.DType.IsSigned},
	"unsignedinteger": {"unsignedinteger", "integer", trace.DType.IsUnsigned},
	"inexact":         {"inexact", "number", trace.DType.IsInexact},
	"floating":        {"floating", "inexact", trace.DType.IsFloat},
	"complexfloating": {"complexfloating", "inexact", trace.DType.IsComplex},
	// NumPy's strings and bytes sit under these; no jaxsh dtype does.
	"flexible":  {"flexible", "generic", func(trace.DType) bool { return false }},
	"character": {"character", "flexible", func(trace.DType) bool { return false }},
}

var (
	_ starlark.Value      = (*dtypeClass)(nil)
	_ starlark.Comparable = (*dtypeClass)(nil)
)

func (c *dtypeClass) String() string        { return "<class 'jax.numpy." + c.name + "'>" }
func (c *dtypeClass) Type() string          { return "dtype class" }
func (c *dtypeClass) Freeze()               {}
func (c *dtypeClass) Truth() starlark.Bool  { return true }
func (c *dtypeClass) Hash() (uint32, error) { return starlark.String(c.name).Hash() }
func (c *dtypeClass) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	switch op {
	case syntax.EQL:
		return c == y, nil
	case syntax.NEQ:
		return c != y, nil
	}
	return false, fmt.Errorf("dtype classes are not ordered")
}

// subclassOf reports whether c is other or below it.
func (c *dtypeClass) subclassOf(other *dtypeClass) bool {
	for k := c; k != nil; k = dtypeClasses[k.parent] {
		if k == other {
			return true
		}
	}
	return false
}

func init() {
	for name, c := range dtypeClasses {
		jstarlark.RegisterValue(Module, name, c)
	}
	jstarlark.Register(Module, "dtype", jnpDtype)
	jstarlark.Register(Module, "issubdtype", jnpIssubdtype)
	jstarlark.Register(Module, "isdtype", jnpIsdtype)
	jstarlark.Register(Module, "shape", shapeFunc("shape"))
	jstarlark.Register(Module, "ndim", shapeFunc("ndim"))
	jstarlark.Register(Module, "size", jnpSize)
	jstarlark.Register(Module, "isscalar", jnpIsscalar)
}

// dtypeOrClass reads an issubdtype operand: a dtype class, or anything
// jnp.dtype accepts (a dtype, its name, an array, Python's int/float/bool).
func dtypeOrClass(fn string, v starlark.Value) (trace.DType, *dtypeClass, error) {
	if c, ok := v.(*dtypeClass); ok {
		return trace.InvalidDType, c, nil
	}
	dt, err := dtypeOf(fn, v)
	return dt, nil, err
}

// dtypeOf is jnp.dtype's reading of its argument.
func dtypeOf(fn string, v starlark.Value) (trace.DType, error) {
	switch x := v.(type) {
	case *jstarlark.Array:
		return x.DType(), nil
	case starlark.Int:
		return trace.Int32, nil
	case starlark.Float:
		return trace.Float32, nil
	case starlark.Bool:
		return trace.Bool, nil
	}
	dt, ok, err := jstarlark.DTypeArg(fn, v)
	if err != nil {
		return trace.InvalidDType, err
	}
	if !ok {
		return trace.InvalidDType, fmt.Errorf("%s: cannot interpret None as a data type", fn)
	}
	return dt, nil
}

// jnp.dtype(x): the dtype of a name, a dtype, an array or a Python scalar.
func jnpDtype(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	dt, err := dtypeOf("dtype", x)
	if err != nil {
		return nil, err
	}
	return jstarlark.DType{DT: dt}, nil
}

// jnp.issubdtype(arg1, arg2): whether arg1's type lies at or below arg2 in
// NumPy's hierarchy (issubdtype(jnp.int8, jnp.integer) is True).
func jnpIssubdtype(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	dx, cx, err := dtypeOrClass("issubdtype", x)
	if err != nil {
		return nil, err
	}
	dy, cy, err := dtypeOrClass("issubdtype", y)
	if err != nil {
		return nil, err
	}
	switch {
	case cx != nil && cy != nil:
		return starlark.Bool(cx.subclassOf(cy)), nil
	case cx != nil:
		return starlark.False, nil // a class is never below one concrete dtype
	case cy != nil:
		return starlark.Bool(dx == trace.Bool && cy.name == "generic" || dx != trace.Bool && cy.has(dx)), nil
	}
	return starlark.Bool(dx == dy), nil
}

// isdtypeKinds are the kind names of the array API's isdtype.
var isdtypeKinds = map[string]func(trace.DType) bool{
	"bool":             trace.DType.IsBool,
	"signed integer":   trace.DType.IsSigned,
	"unsigned integer": trace.DType.IsUnsigned,
	"integral":         trace.DType.IsInteger,
	"real floating":    trace.DType.IsFloat,
	"complex floating": trace.DType.IsComplex,
	"numeric":          trace.DType.IsNumeric,
}

// jnp.isdtype(dtype, kind): kind is a dtype, a kind name ("integral",
// "real floating", ...) or a tuple of them.
func jnpIsdtype(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, kind starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "dtype", &x, "kind", &kind); err != nil {
		return nil, err
	}
	dt, err := dtypeOf("isdtype", x)
	if err != nil {
		return nil, err
	}
	kinds := starlark.Tuple{kind}
	if t, ok := kind.(starlark.Tuple); ok {
		kinds = t
	}
	for _, k := range kinds {
		if s, ok := k.(starlark.String); ok {
			f, known := isdtypeKinds[string(s)]
			if !known {
				names := make([]string, 0, len(isdtypeKinds))
				for n := range isdtypeKinds {
					names = append(names, fmt.Sprintf("%q", n))
				}
				return nil, fmt.Errorf("isdtype: unknown kind %q (kinds: %s)", string(s), strings.Join(slices.Sorted(slices.Values(names)), ", "))
			}
			if f(dt) {
				return starlark.True, nil
			}
			continue
		}
		kd, err := dtypeOf("isdtype", k)
		if err != nil {
			return nil, err
		}
		if kd == dt {
			return starlark.True, nil
		}
	}
	return starlark.False, nil
}

// shapeOf is the shape of an array or anything jnp.asarray takes.
func shapeOf(fn string, v starlark.Value) (trace.Shape, error) {
	if a, ok := v.(*jstarlark.Array); ok {
		return a.Shape(), nil
	}
	shape, _, err := jstarlark.NestedShape(fn, v)
	return shape, err
}

// jnp.shape(a) and jnp.ndim(a).
func shapeFunc(fn string) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &x); err != nil {
			return nil, err
		}
		shape, err := shapeOf(fn, x)
		if err != nil {
			return nil, err
		}
		if fn == "ndim" {
			return starlark.MakeInt(len(shape)), nil
		}
		t := make(starlark.Tuple, len(shape))
		for i, d := range shape {
			t[i] = starlark.MakeInt(d)
		}
		return t, nil
	}
}

// jnp.size(a, axis=None).
func jnpSize(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, axisV starlark.Value = nil, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &x, "axis?", &axisV); err != nil {
		return nil, err
	}
	shape, err := shapeOf("size", x)
	if err != nil {
		return nil, err
	}
	if axisV == starlark.None {
		return starlark.MakeInt(shape.Size()), nil
	}
	ax, err := jstarlark.IntArg("size", "axis", axisV)
	if err != nil {
		return nil, err
	}
	axis, err := trace.NormalizeAxis(ax, len(shape))
	if err != nil {
		return nil, fmt.Errorf("size: %v", err)
	}
	return starlark.MakeInt(shape[axis]), nil
}

// jnp.isscalar(x): True for Python numbers and 0-d arrays, as in JAX.
func jnpIsscalar(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case *jstarlark.Array:
		return starlark.Bool(v.NDim() == 0), nil
	case starlark.Int, starlark.Float, starlark.Bool:
		return starlark.True, nil
	}
	return starlark.False, nil
}
