package hostcallback

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/jaxsh/jaxsh/internal/arrayfmt"
	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Builtins returns the top-level host-callback builtins (the package
// doc lists them), which the root package predeclares beside the
// language's own names.
func Builtins() starlark.StringDict {
	b := jstarlark.NewBuiltin
	return starlark.StringDict{
		"id_tap":        b("id_tap", builtinIDTap),
		"id_print":      b("id_print", builtinIDPrint),
		"call":          b("call", builtinCall),
		"pure_callback": b("pure_callback", builtinPureCallback),
		"io_callback":   b("io_callback", builtinIOCallback),
	}
}

// treeLeaves flattens a pytree of arrays and numbers into arrays.
func treeLeaves(fn string, v starlark.Value) ([]*jstarlark.Array, *jstarlark.TreeDef, error) {
	vals, tree, err := jstarlark.FlattenTree(fn, v)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*jstarlark.Array, len(vals))
	for i, x := range vals {
		a, ok := x.(*jstarlark.Array)
		if !ok {
			dev, err := jstarlark.DefaultDevice()
			if err != nil {
				return nil, nil, err
			}
			if a, err = jstarlark.AsArray(fn, x, dev); err != nil {
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
	own, rest := jstarlark.SplitKwargs(kwargs, "result", "tap_with_device")
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
	own, rest := jstarlark.SplitKwargs(kwargs, "result", "tap_with_device", "output_stream", "threshold")
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
	var resLeaves []*jstarlark.Array
	var resTree *jstarlark.TreeDef
	if result != nil && result != starlark.None {
		if resLeaves, resTree, err = treeLeaves(fn, result); err != nil {
			return nil, err
		}
	}
	all := append(append([]*jstarlark.Array(nil), leaves...), resLeaves...)
	ts, err := jstarlark.TraceOf(all)
	if err != nil {
		return nil, err
	}
	if ts == nil {
		// Outside any trace the tap runs now, on this thread.
		dev, err := jstarlark.DefaultDeviceOf(thread)
		if err != nil {
			return nil, err
		}
		vals := make([]starlark.Value, len(leaves))
		for i, a := range leaves {
			vals[i] = a
			if _, err := a.Buffer(); err != nil {
				return nil, err
			}
			dev = a.Device()
		}
		if err := cb.RunTap(jstarlark.ThreadContext(thread), thread, dev, vals, nil); err != nil {
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
	outs, err := jstarlark.BindTraced(ts, "id_tap", trace.Params{"callback": cb, "tap_with_device": cb.withDevice}, all...)
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
	o := jstarlark.PrintOptions()
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
		if _, err := io.WriteString(jstarlark.StdoutOf(th), line); err != nil {
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
	case *jstarlark.Array:
		text, err := x.Text(o, false)
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return text
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
		shapes, rtree, err := jstarlark.FlattenTree(cb.kind, resultShape)
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
	ts, err := jstarlark.TraceOf(leaves)
	if err != nil {
		return nil, err
	}
	if ts == nil {
		return callNow(thread, cb, leaves)
	}
	params["callback"] = cb
	params["result_avals"] = cb.resultAvals
	outs, err := jstarlark.BindTraced(ts, "call", params, leaves...)
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
func callNow(thread *starlark.Thread, cb *hostCallback, leaves []*jstarlark.Array) (starlark.Value, error) {
	dev, err := jstarlark.DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	vals := make([]starlark.Value, len(leaves))
	for i, a := range leaves {
		if _, err := a.Buffer(); err != nil {
			return nil, err
		}
		vals[i], dev = a, a.Device()
	}
	raw, err := cb.RunCall(jstarlark.ThreadContext(thread), thread, dev, vals, cb.resultAvals) // raised here: the traceback is the thread's own
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
		res[i] = jstarlark.NewArray(buf)
	}
	return cb.resultTree.Unflatten(res)
}

// resultAval reads one leaf of call's result_shape: a ShapeDtypeStruct, an
// example array, or a number (a weakly typed scalar).
func resultAval(v starlark.Value) (trace.AVal, error) {
	switch x := v.(type) {
	case *jstarlark.ShapeDtypeStruct:
		return trace.AVal{Shape: x.Shape(), DType: x.DType()}, nil
	case *jstarlark.Array:
		return trace.AVal{Shape: x.Shape(), DType: x.DType(), Weak: x.AVal().Weak}, nil
	case starlark.Int, starlark.Float, starlark.Bool:
		t, ok := jstarlark.ScalarType(x)
		if !ok {
			break
		}
		return trace.AVal{DType: t.DType, Weak: t.Weak}, nil
	}
	return trace.AVal{}, fmt.Errorf("want a ShapeDtypeStruct, an array or a number, got %s", v.Type())
}
