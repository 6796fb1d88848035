// Package pyformat connects Starlark values to the formatter
// (internal/pyfmt) and defines the hidden builtins that the dialect's
// rewrites call (starlark/dialect):
//
//	__mod__(x, y)                 x % y: Python's printf formatting when x is a string
//	__str_format__(s, *a, **kw)   s.format(*a, **kw): Python's str.format when s is a string
//	__fstring__(template, *a)     an f-string, desugared to a str.format template
//
// Each keeps Starlark's meaning for what Starlark already did: % on other
// operands is Starlark's %, .format on other values calls their own format
// attribute, a bare conversion (%s, %d, %(key)s ...) writes what Starlark's
// % writes, and str() and repr() are Starlark's. What used to be an error
// (flags, widths, precisions, format specs, attribute and index fields)
// now works as in Python.
//
// A value that implements pyfmt.Value itself (an Array) formats as it
// says: its own str and repr, and numeric specs through pyfmt.Scalar.
package pyformat

import (
	"fmt"
	"math/big"

	"github.com/jaxsh/jaxsh/internal/pyfmt"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Builtins returns the hidden builtins, to be predeclared with the others.
func Builtins() starlark.StringDict {
	return starlark.StringDict{
		"__mod__":        starlark.NewBuiltin("__mod__", mod),
		"__str_format__": starlark.NewBuiltin("__str_format__", strFormat),
		"__fstring__":    starlark.NewBuiltin("__fstring__", fstring),
	}
}

// Operators names what each hidden builtin stands for, for error reports
// that must not show the hidden name.
var Operators = map[string]string{
	"__mod__":        "%",
	"__str_format__": ".format",
	"__fstring__":    "f-string",
}

func mod(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s: internal error: want 2 positional operands", b.Name())
	}
	format, ok := args[0].(starlark.String)
	if !ok {
		return starlark.Binary(syntax.PERCENT, args[0], args[1])
	}
	s, err := pyfmt.Percent(string(format), Adapt(args[1]))
	if err != nil {
		return nil, err
	}
	return starlark.String(s), nil
}

func strFormat(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%s: internal error: no receiver", b.Name())
	}
	template, ok := args[0].(starlark.String)
	if !ok {
		method, err := getattr(args[0], "format")
		if err != nil {
			return nil, err
		}
		return starlark.Call(thread, method, args[1:], kwargs)
	}
	named := make(map[string]pyfmt.Value, len(kwargs))
	for _, kv := range kwargs {
		named[string(kv[0].(starlark.String))] = Adapt(kv[1])
	}
	s, err := pyfmt.Format(string(template), adaptAll(args[1:]), named)
	if err != nil {
		return nil, err
	}
	return starlark.String(s), nil
}

func fstring(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s: internal error: want a template and values", b.Name())
	}
	template, ok := args[0].(starlark.String)
	if !ok {
		return nil, fmt.Errorf("%s: internal error: the template is a %s", b.Name(), args[0].Type())
	}
	s, err := pyfmt.Format(string(template), adaptAll(args[1:]), nil)
	if err != nil {
		return nil, err
	}
	return starlark.String(s), nil
}

// Format applies a str.format template to Starlark values, as s.format(...)
// does in the dialect.
func Format(template string, args starlark.Tuple, kwargs []starlark.Tuple) (string, error) {
	named := make(map[string]pyfmt.Value, len(kwargs))
	for _, kv := range kwargs {
		named[string(kv[0].(starlark.String))] = Adapt(kv[1])
	}
	return pyfmt.Format(template, adaptAll(args), named)
}

func adaptAll(vs starlark.Tuple) []pyfmt.Value {
	out := make([]pyfmt.Value, len(vs))
	for i, v := range vs {
		out[i] = Adapt(v)
	}
	return out
}

// Adapt returns v as the formatter sees it.
func Adapt(v starlark.Value) pyfmt.Value {
	if p, ok := v.(pyfmt.Value); ok {
		return p
	}
	base := value{v}
	switch v := v.(type) {
	case starlark.Bool:
		return boolValue{base, v}
	case starlark.Int:
		return intValue{base, v}
	case starlark.Float:
		return floatValue{base, v}
	case starlark.String:
		return stringValue{base, v}
	case starlark.Tuple:
		return tupleValue{base, v}
	case starlark.Mapping:
		return mappingValue{base, v}
	case starlark.Indexable:
		return indexableValue{base, v}
	}
	return base
}

// value is any Starlark value: its type name, str and repr, its
// attributes, and Starlark's own text for a bare % conversion.
type value struct{ v starlark.Value }

func (x value) Type() string { return x.v.Type() }
func (x value) Repr() string { return x.v.String() }
func (x value) Str() string {
	if s, ok := x.v.(starlark.String); ok {
		return string(s)
	}
	return x.v.String()
}

func (x value) PlainConversion(conv byte) (string, bool) {
	s, err := starlark.Binary(syntax.PERCENT, starlark.String([]byte{'%', conv}), starlark.Tuple{x.v})
	if err != nil {
		return "", false
	}
	return string(s.(starlark.String)), true
}

func (x value) Field(name string) (pyfmt.Value, error) {
	v, err := getattr(x.v, name)
	if err != nil {
		return nil, err
	}
	return Adapt(v), nil
}

type boolValue struct {
	value
	b starlark.Bool
}

func (x boolValue) IsBool() bool { return true }
func (x boolValue) BigInt() *big.Int {
	if x.b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}

type intValue struct {
	value
	i starlark.Int
}

func (x intValue) IsBool() bool     { return false }
func (x intValue) BigInt() *big.Int { return x.i.BigInt() }

type floatValue struct {
	value
	f starlark.Float
}

func (x floatValue) Float64() float64 { return float64(x.f) }

type stringValue struct {
	value
	s starlark.String
}

func (x stringValue) Text() string { return string(x.s) }

type tupleValue struct {
	value
	t starlark.Tuple
}

func (x tupleValue) Elems() []pyfmt.Value { return adaptAll(x.t) }

func (x tupleValue) Item(key any) (pyfmt.Value, error) { return index(x.t, key) }

type indexableValue struct {
	value
	x starlark.Indexable
}

func (x indexableValue) Item(key any) (pyfmt.Value, error) { return index(x.x, key) }

// index is a field's [n] on a list or tuple.
func index(x starlark.Indexable, key any) (pyfmt.Value, error) {
	i, ok := key.(int)
	if !ok {
		return nil, fmt.Errorf("%s index must be an int, not the string %q", x.Type(), key)
	}
	if i >= x.Len() {
		return nil, fmt.Errorf("%s index %d out of range [0:%d]", x.Type(), i, x.Len())
	}
	return Adapt(x.Index(i)), nil
}

type mappingValue struct {
	value
	m starlark.Mapping
}

// Lookup answers %(key)s.
func (x mappingValue) Lookup(key string) (pyfmt.Value, error) {
	return x.Item(key)
}

// Index answers a field's [key]: an int key when the brackets hold digits.
func (x mappingValue) Item(key any) (pyfmt.Value, error) {
	var k starlark.Value
	switch key := key.(type) {
	case int:
		k = starlark.MakeInt(key)
	case string:
		k = starlark.String(key)
	}
	v, found, err := x.m.Get(k)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("key %s not in %s", k.String(), x.m.Type())
	}
	return Adapt(v), nil
}

// getattr is Starlark's x.name, with its error for a missing name.
func getattr(x starlark.Value, name string) (starlark.Value, error) {
	if h, ok := x.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		if err != nil || v != nil {
			return v, err
		}
	}
	return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
}
