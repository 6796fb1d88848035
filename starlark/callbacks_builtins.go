package starlark

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/internal/arrayfmt"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The effect builtins of SPEC §5: id_tap, id_print, call, effects_barrier
// (barrier_wait), block_until_ready, and ShapeDtypeStruct for call's
// result_shape.

func effectBuiltins() starlark.StringDict {
	b := func(name string, fn BuiltinFunc) *starlark.Builtin { return starlark.NewBuiltin(name, guard(name, fn)) }
	return starlark.StringDict{
		"id_tap":            b("id_tap", builtinIDTap),
		"id_print":          b("id_print", builtinIDPrint),
		"call":              b("call", builtinCall),
		"effects_barrier":   b("effects_barrier", builtinBarrier),
		"barrier_wait":      b("barrier_wait", builtinBarrier),
		"block_until_ready": b("block_until_ready", builtinBlockUntilReady),
		"ShapeDtypeStruct":  b("ShapeDtypeStruct", builtinShapeDtypeStruct),
	}
}

// splitKwargs separates the named keyword arguments a builtin reads from
// the rest, which id_tap passes on to its tap function.
func splitKwargs(kwargs []starlark.Tuple, known ...string) (own, rest []starlark.Tuple) {
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

// treeLeaves flattens a pytree of arrays and numbers into arrays.
func treeLeaves(fn string, v starlark.Value) ([]*Array, *TreeDef, error) {
	vals, tree, err := FlattenTree(fn, v)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*Array, len(vals))
	for i, x := range vals {
		a, ok := x.(*Array)
		if !ok {
			dev, err := DefaultDevice()
			if err != nil {
				return nil, nil, err
			}
			if a, err = AsArray(fn, x, dev); err != nil {
				return nil, nil, err
			}
		}
		out[i] = a
	}
	return out, tree, nil
}

// id_tap(tap_func, arg, *, result=None, tap_with_device=False, **kwargs)
//
// Exported artifacts store the tap under the function's name: name=, like
// every other keyword argument, goes to tap_func (SPEC §5).
func builtinIDTap(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	own, rest := splitKwargs(kwargs, "result", "tap_with_device")
	var fn starlark.Callable
	var arg, result starlark.Value
	withDevice := false
	if err := starlark.UnpackArgs(b.Name(), args, own, "tap_func", &fn, "arg", &arg, "result?", &result, "tap_with_device?", &withDevice); err != nil {
		return nil, err
	}
	cb := &hostCallback{fn: fn, name: fn.Name(), kind: "id_tap", kwargs: rest, withDevice: withDevice}
	return tap(thread, b.Name(), cb, arg, result)
}

// id_print(arg, *, result=None, tap_with_device=False, output_stream=None, threshold=None, **kwargs)
func builtinIDPrint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	own, rest := splitKwargs(kwargs, "result", "tap_with_device", "output_stream", "threshold")
	var arg, result, stream, threshold starlark.Value
	withDevice := false
	if err := starlark.UnpackArgs(b.Name(), args, own, "arg", &arg, "result?", &result, "tap_with_device?", &withDevice,
		"output_stream?", &stream, "threshold?", &threshold); err != nil {
		return nil, err
	}
	opts := &printOptions{}
	if stream != nil && stream != starlark.None {
		c, ok := stream.(starlark.Callable)
		if !ok {
			return nil, fmt.Errorf("id_print: output_stream must be callable (it receives each line), got %s", stream.Type())
		}
		opts.stream = c
	}
	if threshold != nil && threshold != starlark.None {
		n, err := starlark.AsInt32(threshold)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("id_print: threshold must be a non-negative int, got %s", threshold.String())
		}
		opts.threshold = n
	}
	cb := &hostCallback{name: "id_print", kind: "id_print", kwargs: rest, print: opts, withDevice: withDevice}
	return tap(thread, b.Name(), cb, arg, result)
}

// tap stages an id_tap equation (inside a trace) or runs the tap at once.
func tap(thread *starlark.Thread, fn string, cb *hostCallback, arg, result starlark.Value) (starlark.Value, error) {
	leaves, tree, err := treeLeaves(fn, arg)
	if err != nil {
		return nil, err
	}
	cb.argTree, cb.nArgs = tree, len(leaves)
	var resLeaves []*Array
	var resTree *TreeDef
	if result != nil && result != starlark.None {
		if resLeaves, resTree, err = treeLeaves(fn, result); err != nil {
			return nil, err
		}
	}
	all := append(append([]*Array(nil), leaves...), resLeaves...)
	ts, err := traceOf(all)
	if err != nil {
		return nil, err
	}
	if ts == nil {
		// Outside any trace the tap runs now, on this thread.
		dev, err := DefaultDeviceOf(thread)
		if err != nil {
			return nil, err
		}
		vals := make([]starlark.Value, len(leaves))
		for i, a := range leaves {
			vals[i] = a
			if _, err := a.buffer(); err != nil {
				return nil, err
			}
			dev = a.Device()
		}
		if err := cb.runTap(threadContext(thread), thread, dev, vals, nil); err != nil {
			return nil, err
		}
		if resTree != nil {
			return result, nil
		}
		return arg, nil
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s: nothing to tap: arg has no array leaves", fn)
	}
	outs, err := BindTraced(ts, "id_tap", trace.Params{"callback": cb, "tap_with_device": cb.withDevice}, all...)
	if err != nil {
		return nil, err
	}
	vals := make([]starlark.Value, len(outs))
	for i, a := range outs {
		vals[i] = a
	}
	if resTree != nil {
		return resTree.Unflatten(vals[len(leaves):])
	}
	return tree.Unflatten(vals[:len(leaves)])
}

// printValue is id_print's tap: a line of keyword arguments (when there are
// any), then the value.
func (c *hostCallback) printValue(ctx context.Context, th *starlark.Thread, dev jit.Device, arg starlark.Value, transforms *starlark.List) error {
	type kv struct{ k, v string }
	var header []kv
	for _, p := range c.kwargs {
		header = append(header, kv{string(p[0].(starlark.String)), valueText(p[1])})
	}
	if c.withDevice {
		header = append(header, kv{"device", dev.String()})
	}
	if transforms.Len() > 0 {
		header = append(header, kv{"transforms", pythonRepr(transforms)})
	}
	sort.Slice(header, func(i, j int) bool { return header[i].k < header[j].k })
	o := PrintOptions()
	if c.print.threshold > 0 {
		o.Threshold = c.print.threshold
	}
	var lines []string
	if len(header) > 0 {
		parts := make([]string, len(header))
		for i, h := range header {
			parts[i] = h.k + ": " + h.v
		}
		lines = append(lines, strings.Join(parts, " ")+"\n")
	}
	lines = append(lines, printTree(arg, o)+"\n")
	for _, line := range lines {
		if c.print.stream != nil {
			if _, err := callOn(ctx, th, c.print.stream, starlark.Tuple{starlark.String(line)}, nil); err != nil {
				return err
			}
			continue
		}
		if _, err := io.WriteString(stdoutOf(th), line); err != nil {
			return fmt.Errorf("id_print: %v", err)
		}
	}
	return nil
}

// pythonRepr writes strings, tuples, lists, dicts, ints and None as
// Python's repr does (single-quoted strings), as host_callback prints
// transforms.
func pythonRepr(v starlark.Value) string {
	switch x := v.(type) {
	case starlark.String:
		return "'" + strings.ReplaceAll(string(x), "'", `\'`) + "'"
	case starlark.Tuple:
		items := make([]string, len(x))
		for i, e := range x {
			items[i] = pythonRepr(e)
		}
		if len(items) == 1 {
			return "(" + items[0] + ",)"
		}
		return "(" + strings.Join(items, ", ") + ")"
	case *starlark.List:
		items := make([]string, x.Len())
		for i := range items {
			items[i] = pythonRepr(x.Index(i))
		}
		return "[" + strings.Join(items, ", ") + "]"
	case *starlark.Dict:
		items := make([]string, 0, x.Len())
		for _, kv := range x.Items() {
			items = append(items, pythonRepr(kv[0])+": "+pythonRepr(kv[1]))
		}
		return "{" + strings.Join(items, ", ") + "}"
	}
	return v.String()
}

// valueText is a keyword value as id_print shows it: strings bare.
func valueText(v starlark.Value) string {
	if s, ok := v.(starlark.String); ok {
		return string(s)
	}
	return v.String()
}

// printTree is id_print's layout of a value: arrays in NumPy's str(),
// tuples as ( a b ), lists as [ a b ], dicts as { k1=v1 k2=v2 }.
func printTree(v starlark.Value, o arrayfmt.Options) string {
	join := func(open, close string, items []string) string {
		if len(items) == 0 {
			return open + "  " + close // host_callback's text: "(  )"
		}
		return open + " " + strings.Join(items, " ") + " " + close
	}
	switch x := v.(type) {
	case *Array:
		h, err := x.host()
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return arrayfmt.Str(h, o)
	case starlark.Tuple:
		items := make([]string, len(x))
		for i, e := range x {
			items[i] = printTree(e, o)
		}
		return join("(", ")", items)
	case *starlark.List:
		items := make([]string, x.Len())
		for i := range items {
			items[i] = printTree(x.Index(i), o)
		}
		return join("[", "]", items)
	case *starlark.Dict:
		keys := make([]string, 0, x.Len())
		for _, k := range x.Keys() {
			keys = append(keys, valueText(k))
		}
		sort.Strings(keys)
		items := make([]string, len(keys))
		for i, k := range keys {
			e, _, _ := x.Get(starlark.String(k))
			items[i] = k + "=" + printTree(e, o)
		}
		return join("{", "}", items)
	}
	return valueText(v)
}

// call(callback_func, arg, *, result_shape=None, call_with_device=False, ordered=False, vmap_method=None, name=None)
func builtinCall(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var arg, resultShape starlark.Value = starlark.None, starlark.None
	withDevice, ordered := false, false
	var vmapMethod starlark.Value = starlark.None
	name := ""
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "callback_func", &fn, "arg", &arg,
		"result_shape?", &resultShape, "call_with_device?", &withDevice, "ordered?", &ordered, "vmap_method?", &vmapMethod,
		"name?", &name); err != nil {
		return nil, err
	}
	if name == "" {
		name = fn.Name()
	}
	switch vmapMethod {
	case starlark.None, starlark.String("sequential"), starlark.String("expand_dims"), starlark.String("broadcast_all"):
	default:
		return nil, fmt.Errorf("call: vmap_method must be None, 'sequential', 'expand_dims' or 'broadcast_all', got %s", vmapMethod)
	}
	cb := &hostCallback{fn: fn, name: name, kind: "call", withDevice: withDevice}
	params := trace.Params{"call_with_device": withDevice, "ordered": ordered}
	if m, ok := vmapMethod.(starlark.String); ok {
		params["vmap_method"] = string(m)
	}
	return stageCall(thread, cb, arg, resultShape, params)
}

// stageCall runs cb with arg (a pytree of arrays and numbers) and results of
// the structure and types resultShape declares: at once outside a trace, as
// a call equation with params inside one. call, pure_callback, io_callback
// and debug.callback all come here.
func stageCall(thread *starlark.Thread, cb *hostCallback, arg, resultShape starlark.Value, params trace.Params) (starlark.Value, error) {
	leaves, tree, err := treeLeaves(cb.kind, arg)
	if err != nil {
		return nil, err
	}
	cb.argTree, cb.nArgs = tree, len(leaves)
	if resultShape != starlark.None {
		shapes, rtree, err := FlattenTree(cb.kind, resultShape)
		if err != nil {
			return nil, err
		}
		cb.resultTree = rtree
		for i, s := range shapes {
			a, err := resultAval(s)
			if err != nil {
				return nil, fmt.Errorf("%s: result shape leaf %d: %v", cb.kind, i, err)
			}
			cb.resultAvals = append(cb.resultAvals, a)
		}
	}
	ts, err := traceOf(leaves)
	if err != nil {
		return nil, err
	}
	if ts == nil {
		return callNow(thread, cb, leaves)
	}
	params["callback"] = cb
	params["result_avals"] = cb.resultAvals
	outs, err := BindTraced(ts, "call", params, leaves...)
	if err != nil {
		return nil, err
	}
	if cb.resultTree == nil {
		return starlark.None, nil
	}
	vals := make([]starlark.Value, len(outs))
	for i, a := range outs {
		vals[i] = a
	}
	return cb.resultTree.Unflatten(vals)
}

// callNow runs a call outside any trace, on this thread.
func callNow(thread *starlark.Thread, cb *hostCallback, leaves []*Array) (starlark.Value, error) {
	dev, err := DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	vals := make([]starlark.Value, len(leaves))
	for i, a := range leaves {
		if _, err := a.buffer(); err != nil {
			return nil, err
		}
		vals[i], dev = a, a.Device()
	}
	raw, err := cb.runCall(threadContext(thread), thread, dev, vals, cb.resultAvals) // raised here: the traceback is the thread's own
	if err != nil {
		return nil, err
	}
	if cb.resultTree == nil {
		return starlark.None, nil
	}
	res := make([]starlark.Value, len(raw))
	for i, data := range raw {
		buf, err := jit.FromHost(dev, cb.resultAvals[i], data)
		if err != nil {
			return nil, err
		}
		res[i] = NewArray(buf)
	}
	return cb.resultTree.Unflatten(res)
}

// resultAval reads one leaf of call's result_shape: a ShapeDtypeStruct, an
// example array, or a number (a weakly typed scalar).
func resultAval(v starlark.Value) (trace.AVal, error) {
	switch x := v.(type) {
	case *ShapeDtypeStruct:
		return trace.AVal{Shape: x.shape, DType: x.dtype}, nil
	case *Array:
		return trace.AVal{Shape: x.Shape(), DType: x.DType(), Weak: x.aval.Weak}, nil
	case starlark.Int, starlark.Float, starlark.Bool:
		t, ok := ScalarType(x)
		if !ok {
			break
		}
		return trace.AVal{DType: t.DType, Weak: t.Weak}, nil
	}
	return trace.AVal{}, fmt.Errorf("want a ShapeDtypeStruct, an array or a number, got %s", v.Type())
}

// effects_barrier() / barrier_wait(logging_name=None)
func builtinBarrier(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name starlark.Value
	if b.Name() == "barrier_wait" {
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "logging_name?", &name); err != nil {
			return nil, err
		}
	} else if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return nil, err
	}
	if err := barrier(thread); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// block_until_ready(x) waits for every array of the pytree x and returns x.
func builtinBlockUntilReady(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	vals, _, err := FlattenTree(b.Name(), x)
	if err != nil {
		return nil, err
	}
	for _, v := range vals {
		if a, ok := v.(*Array); ok && !a.Traced() {
			if _, err := a.buffer(); err != nil {
				return nil, err
			}
		}
	}
	return x, nil
}

// A ShapeDtypeStruct declares an array type without values (call's
// result_shape).
type ShapeDtypeStruct struct {
	shape trace.Shape
	dtype trace.DType
	// sym is the symbolic shape of an export spec (symbolic_shape); nil
	// for a concrete shape.
	sym SymbolicShape
}

// A SymbolicShape is a shape of dimension expressions with constraints on
// their variables: the value of export's symbolic_shape (lib/export), which
// a ShapeDtypeStruct takes for its shape. It prints as a tuple and indexes
// as one, each dimension printed as its expression.
type SymbolicShape interface {
	starlark.Indexable
	Dims() export.SymbolicShape
	Constraints() []export.Constraint
}

// Shape is the struct's shape (nil when it is symbolic).
func (s *ShapeDtypeStruct) Shape() trace.Shape { return s.shape }

// DType is the struct's dtype.
func (s *ShapeDtypeStruct) DType() trace.DType { return s.dtype }

// Symbolic is the struct's symbolic shape, or nil.
func (s *ShapeDtypeStruct) Symbolic() SymbolicShape { return s.sym }

var _ starlark.HasAttrs = (*ShapeDtypeStruct)(nil)

func (s *ShapeDtypeStruct) String() string {
	if s.sym != nil {
		return fmt.Sprintf("ShapeDtypeStruct(shape=%s, dtype=%s)", s.sym.String(), s.dtype.Name())
	}
	return fmt.Sprintf("ShapeDtypeStruct(shape=%s, dtype=%s)", shapeText(s.shape), s.dtype.Name())
}
func (s *ShapeDtypeStruct) Type() string         { return "ShapeDtypeStruct" }
func (s *ShapeDtypeStruct) Freeze()              {}
func (s *ShapeDtypeStruct) Truth() starlark.Bool { return starlark.True }
func (s *ShapeDtypeStruct) Hash() (uint32, error) {
	return starlark.String(s.String()).Hash()
}
func (s *ShapeDtypeStruct) AttrNames() []string { return []string{"dtype", "shape"} }
func (s *ShapeDtypeStruct) Attr(name string) (starlark.Value, error) {
	switch name {
	case "shape":
		if s.sym != nil {
			t := make(starlark.Tuple, s.sym.Len())
			for i := range t {
				t[i] = s.sym.Index(i)
			}
			return t, nil
		}
		t := make(starlark.Tuple, len(s.shape))
		for i, d := range s.shape {
			t[i] = starlark.MakeInt(d)
		}
		return t, nil
	case "dtype":
		return DType{s.dtype}, nil
	}
	return nil, nil
}

// ShapeDtypeStruct(shape, dtype)
func builtinShapeDtypeStruct(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var shape, dtype starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "shape", &shape, "dtype", &dtype); err != nil {
		return nil, err
	}
	dt, err := DTypeOf(b.Name(), dtype)
	if err != nil {
		return nil, err
	}
	if sym, ok := shape.(SymbolicShape); ok {
		return &ShapeDtypeStruct{dtype: dt, sym: sym}, nil
	}
	s, err := ShapeArg(b.Name(), shape)
	if err != nil {
		return nil, err
	}
	return &ShapeDtypeStruct{shape: s, dtype: dt}, nil
}
