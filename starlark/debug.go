package starlark

import (
	"fmt"
	"io"

	"github.com/jaxsh/jaxsh/internal/arrayfmt"
	"github.com/jaxsh/jaxsh/internal/pyfmt"
	"github.com/jaxsh/jaxsh/internal/pyformat"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// debug.print(fmt, *args, ordered=False, **kwargs) (SPEC §5), on the
// machinery of print: it formats fmt as str.format does, at run time with
// the runtime values: inside a trace, pyfmt.Stage formats what is static
// and leaves a debug_print whose fmt holds positional fields for the
// arrays, their conversions and specs included.

// DebugModule is jax.debug: print here, callback added by
// lib/hostcallback (a host callback like pure_callback).
var DebugModule = &starlarkstruct.Module{Name: "debug", Members: starlark.StringDict{}}

func init() {
	Register(DebugModule, "print", debugPrint)
}

func debugPrint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	own, rest := SplitKwargs(kwargs, "ordered")
	ordered := false
	if err := starlark.UnpackArgs("debug.print", nil, own, "ordered?", &ordered); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("debug.print: missing the format string")
	}
	format, ok := args[0].(starlark.String)
	if !ok {
		return nil, fmt.Errorf("debug.print: the format must be a string, got %s", args[0].Type())
	}
	var arrays []*Array
	positional := make([]pyfmt.Value, len(args)-1)
	for i, v := range args[1:] {
		positional[i] = formatOperand(v, &arrays)
	}
	named := make(map[string]pyfmt.Value, len(rest))
	for _, kv := range rest {
		named[string(kv[0].(starlark.String))] = formatOperand(kv[1], &arrays)
	}
	ts, err := traceOf(arrays)
	if err != nil {
		return nil, err
	}
	if ts == nil {
		for _, a := range arrays {
			if _, err := a.buffer(); err != nil {
				return nil, err
			}
		}
		text, err := pyfmt.Format(string(format), positional, named)
		if err != nil {
			return nil, fmt.Errorf("debug.print: %v", err)
		}
		if ordered {
			waitOrderedPrints(thread)
		}
		if _, err := io.WriteString(stdoutOf(thread), text+"\n"); err != nil {
			return nil, fmt.Errorf("debug.print: %v", err)
		}
		return starlark.None, nil
	}
	template, later, err := pyfmt.Stage(string(format), positional, named, isArrayValue)
	if err != nil {
		return nil, fmt.Errorf("debug.print: %v", err)
	}
	operands := make([]*Array, len(later))
	for i, v := range later {
		operands[i] = v.(*Array)
	}
	params := trace.Params{"fmt": template + "\n", "ordered": ordered, "per_element": true}
	if _, err := BindTraced(ts, "debug_print", params, operands...); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

func isArrayValue(v pyfmt.Value) bool {
	_, ok := v.(*Array)
	return ok
}

// formatOperand is v as the formatter sees it: an array itself, a
// container holding arrays as a pyfmt.Composite (its repr with a hole per
// array), anything else through pyformat.Adapt. Every array met is added
// to arrays.
func formatOperand(v starlark.Value, arrays *[]*Array) pyfmt.Value {
	if a, ok := v.(*Array); ok {
		*arrays = append(*arrays, a)
		return a
	}
	var h holed
	h.text = []string{""}
	if h.write(v) {
		h.v = v
		for _, hole := range h.holes {
			*arrays = append(*arrays, hole.(*Array))
		}
		return &h
	}
	return pyformat.Adapt(v)
}

// holed is a tuple, list or dict holding arrays, as text with holes where
// the arrays' reprs go (Starlark's repr of the container otherwise).
type holed struct {
	v     starlark.Value
	text  []string
	holes []pyfmt.Value
}

func (h *holed) Type() string                     { return h.v.Type() }
func (h *holed) Str() string                      { return h.v.String() }
func (h *holed) Repr() string                     { return h.v.String() }
func (h *holed) Parts() ([]string, []pyfmt.Value) { return h.text, h.holes }

func (h *holed) put(s string) { h.text[len(h.text)-1] += s }

// write appends v's repr, and reports whether it held an array.
func (h *holed) write(v starlark.Value) bool {
	switch x := v.(type) {
	case *Array:
		h.holes = append(h.holes, x)
		h.text = append(h.text, "")
		return true
	case starlark.Tuple:
		h.put("(")
		found := false
		for i, e := range x {
			if i > 0 {
				h.put(", ")
			}
			found = h.write(e) || found
		}
		if len(x) == 1 {
			h.put(",")
		}
		h.put(")")
		return found
	case *starlark.List:
		h.put("[")
		found := false
		for i := range x.Len() {
			if i > 0 {
				h.put(", ")
			}
			found = h.write(x.Index(i)) || found
		}
		h.put("]")
		return found
	case *starlark.Dict:
		h.put("{")
		found := false
		for i, kv := range x.Items() {
			if i > 0 {
				h.put(", ")
			}
			found = h.write(kv[0]) || found
			h.put(": ")
			found = h.write(kv[1]) || found
		}
		h.put("}")
		return found
	}
	h.put(v.String())
	return false
}

// Repr and Scalar make an Array a pyfmt.Value (Type and Str it has): a 0-d
// array takes numeric specs as a NumPy scalar does.
func (a *Array) Repr() string { return a.String() }

func (a *Array) Scalar() (pyfmt.Value, error) {
	if a.NDim() != 0 {
		return nil, nil
	}
	if a.Traced() {
		return nil, concretizationError(a, "a numeric format spec (use debug.print to format at run time)")
	}
	v, err := a.ScalarValue(0)
	if err != nil {
		return nil, err
	}
	return pyformat.Adapt(v), nil
}

// hostValue is a host op's operand as the formatter sees it at run time.
type hostValue struct{ jit.HostArg }

func (h hostValue) array() arrayfmt.Array {
	return arrayfmt.Array{DType: h.AVal.DType.Name(), Shape: h.AVal.Shape, Data: typedSlice(h.AVal.DType, h.Data)}
}
func (h hostValue) Type() string { return "Array" }
func (h hostValue) Str() string  { return arrayfmt.Str(h.array(), PrintOptions()) }
func (h hostValue) Repr() string { return arrayfmt.Repr(h.array(), PrintOptions()) }
func (h hostValue) Scalar() (pyfmt.Value, error) {
	if len(h.AVal.Shape) != 0 {
		return nil, nil
	}
	v, err := elementValue(h.AVal.DType, typedSlice(h.AVal.DType, h.Data), 0)
	if err != nil {
		return nil, err
	}
	return pyformat.Adapt(v), nil
}

// formatDebugPrint applies a debug_print's fmt (a str.format template of
// positional fields) to its operands.
func formatDebugPrint(format string, args []jit.HostArg) (string, error) {
	values := make([]pyfmt.Value, len(args))
	for i, a := range args {
		values[i] = hostValue{a}
	}
	text, err := pyfmt.Format(format, values, nil)
	if err != nil {
		return "", fmt.Errorf("debug_print: %v", err)
	}
	return text, nil
}

// Field and Item answer a format field's .name and [key] on an array
// (f"{x.shape}", f"{x[0]:.2f}").
func (a *Array) Field(name string) (pyfmt.Value, error) {
	v, err := a.Attr(name)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("Array has no .%s field or method", name)
	}
	return pyformat.Adapt(v), nil
}

func (a *Array) Item(key any) (pyfmt.Value, error) {
	var k starlark.Value
	switch key := key.(type) {
	case int:
		k = starlark.MakeInt(key)
	default:
		return nil, fmt.Errorf("an array index in a format field must be an int, got %q", key)
	}
	v, err := a.GetItem(k)
	if err != nil {
		return nil, err
	}
	return v, nil
}
