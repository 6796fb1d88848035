package hostcallback

import (
	"context"
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// What a staged callback does when its program runs (package starlark's
// host delivers it, on the script's thread or in place for a Go function):
// rebuild the value from its leaves, call the function, and check a call's
// result against what it declared. Outside any trace the builtins run the
// same at once, on the calling thread.

// A hostCallback is the callback of one staged id_tap/id_print/call.
type hostCallback struct {
	fn   starlark.Callable
	name string
	kind string // "id_tap", "id_print", "call", "pure_callback", "io_callback" or "debug.callback"
	// argTree rebuilds the tapped or passed value from the operands; the
	// first nArgs operands are its leaves (an id_tap's result= leaves
	// follow them, passing through).
	argTree *jstarlark.TreeDef
	nArgs   int
	kwargs  []starlark.Tuple // id_tap's extra keyword arguments
	print   *printOptions    // id_print's options
	// call's declared results: their structure and types.
	resultTree  *jstarlark.TreeDef
	resultAvals []trace.AVal
	withDevice  bool
	// storedName is the name an artifact bound this callback under, when
	// it was loaded from one (export.go).
	storedName string
	// spread: the callback takes the staged (args, kwargs) as *args and
	// **kwargs (pure_callback, io_callback, debug.callback).
	spread bool
}

var _ jstarlark.HostCallback = (*hostCallback)(nil)

func (c *hostCallback) CallbackName() string { return c.name }
func (c *hostCallback) CallbackKind() string { return c.kind }
func (c *hostCallback) NumTapped() int       { return c.nArgs }

func (c *hostCallback) InPlace() bool {
	_, ok := c.fn.(*jstarlark.GoFunction)
	return ok
}

// shapeArg names the argument that declared the callback's results.
func (c *hostCallback) shapeArg() string {
	if c.kind == "call" {
		return "result_shape"
	}
	return "result_shape_dtypes"
}

// printOptions are id_print's own keyword arguments.
type printOptions struct {
	stream    starlark.Callable // output_stream, or nil for the thread's stdout
	threshold int               // 0: the default
}

// RunTap calls the tap function (or prints, for id_print) with the tapped
// value rebuilt from its leaves and the transformations it went through.
func (c *hostCallback) RunTap(ctx context.Context, th *starlark.Thread, dev jit.Device, leaves []starlark.Value, ts trace.Transforms) error {
	arg, err := c.argTree.Unflatten(leaves)
	if err != nil {
		return err
	}
	transforms := c.transformsValue(ts)
	if c.kind == "id_print" {
		return c.printValue(ctx, th, dev, arg, transforms)
	}
	kwargs := c.kwargs
	if c.withDevice {
		kwargs = append(append([]starlark.Tuple(nil), kwargs...), starlark.Tuple{starlark.String("device"), jstarlark.Device{D: dev}})
	}
	_, err = callOn(ctx, th, c.fn, starlark.Tuple{arg, transforms}, kwargs)
	return err
}

// transformsValue is the transforms list a tap function receives:
// [("batch", {"batch_dims": (0, None)}), ...], one entry per vmap level,
// innermost first, with a batch axis (or None) per tapped leaf.
func (c *hostCallback) transformsValue(ts trace.Transforms) *starlark.List {
	items := make([]starlark.Value, len(ts))
	for i, t := range ts {
		dims := make(starlark.Tuple, min(c.nArgs, len(t.BatchDims)))
		for k := range dims {
			dims[k] = starlark.None
			if d := t.BatchDims[k]; d != trace.NotBatched {
				dims[k] = starlark.MakeInt(d)
			}
		}
		params := starlark.NewDict(1)
		_ = params.SetKey(starlark.String("batch_dims"), dims)
		items[i] = starlark.Tuple{starlark.String(t.Name), params}
	}
	return starlark.NewList(items)
}

// callOn calls fn: Starlark functions on th, Go functions directly with
// ctx, the cancellation of the computation calling them.
func callOn(ctx context.Context, th *starlark.Thread, fn starlark.Callable, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if g, ok := fn.(*jstarlark.GoFunction); ok {
		return g.CallContext(ctx, args, kwargs)
	}
	return starlark.Call(th, fn, args, kwargs)
}

// RunCall calls the function with the argument rebuilt from its leaves and
// converts its result to the declared result types, one byte slice per
// result leaf.
func (c *hostCallback) RunCall(ctx context.Context, th *starlark.Thread, dev jit.Device, leaves []starlark.Value, resultAvals []trace.AVal) ([][]byte, error) {
	var arg starlark.Value = starlark.None
	if c.argTree != nil {
		var err error
		if arg, err = c.argTree.Unflatten(leaves); err != nil {
			return nil, err
		}
	}
	var kwargs []starlark.Tuple
	if c.withDevice {
		kwargs = []starlark.Tuple{{starlark.String("device"), jstarlark.Device{D: dev}}}
	}
	args := starlark.Tuple{arg}
	if c.spread {
		// pure_callback and its kin: arg is (args, kwargs), spread.
		pair := arg.(starlark.Tuple)
		args = pair[0].(starlark.Tuple)
		for _, kv := range pair[1].(*starlark.Dict).Items() {
			kwargs = append(kwargs, kv)
		}
	}
	res, err := callOn(ctx, th, c.fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	return c.checkResult(res, resultAvals)
}

// checkResult converts a call's result to the declared structure and to
// the types of resultAvals.
func (c *hostCallback) checkResult(res starlark.Value, resultAvals []trace.AVal) ([][]byte, error) {
	if c.resultTree == nil {
		if res != starlark.None {
			return nil, fmt.Errorf("%s(%s): %s=None declares no result, but the callback returned %s", c.kind, c.name, c.shapeArg(), res.Type())
		}
		return nil, nil
	}
	leaves, err := c.resultTree.FlattenUpTo(res)
	if err != nil {
		return nil, fmt.Errorf("%s(%s): the callback's result does not match %s: %v", c.kind, c.name, c.shapeArg(), err)
	}
	out := make([][]byte, len(leaves))
	for i, v := range leaves {
		want := resultAvals[i]
		raw, got, err := hostValueAs(v, want)
		if err != nil {
			return nil, fmt.Errorf("%s(%s): result leaf %d: %v", c.kind, c.name, i, err)
		}
		if !got.Shape.Equal(want.Shape) {
			return nil, fmt.Errorf("%s(%s): result leaf %d has shape %s, but %s declares %s (expected %s, got %s)",
				c.kind, c.name, i, shapeText(got.Shape), c.shapeArg(), shapeText(want.Shape), want, got)
		}
		out[i] = raw
	}
	return out, nil
}

// hostValueAs converts a callback's result leaf (an array, a number or a
// nested list) to want's dtype, returning its bytes and its own type.
func hostValueAs(v starlark.Value, want trace.AVal) ([]byte, trace.AVal, error) {
	dev, err := jit.LookupDevice("cpu:0")
	if err != nil {
		return nil, trace.AVal{}, err
	}
	a, ok := v.(*jstarlark.Array)
	if !ok {
		if a, err = jstarlark.AsArray("call", v, dev); err != nil {
			return nil, trace.AVal{}, err
		}
	}
	if a.Traced() {
		return nil, trace.AVal{}, fmt.Errorf("the callback returned a traced value")
	}
	got := a.AVal()
	if got.DType != want.DType {
		if !convertible(got, want.DType) {
			return nil, got, fmt.Errorf("dtype %s does not convert to the declared %s", got.DType.Name(), want.DType.Name())
		}
		if !got.Shape.Equal(want.Shape) {
			return nil, got, nil // the shape error says more
		}
		if a, err = jstarlark.Astype(a, want.DType); err != nil {
			return nil, got, err
		}
	}
	raw, err := a.HostBytesFor("a call result")
	return raw, got, err
}

// convertible reports whether a callback result of type got may become
// dtype want: weakly typed Python numbers convert to anything of their kind
// or wider, arrays only within their kind's promotion (no float to int).
func convertible(got trace.AVal, want trace.DType) bool {
	if got.DType == want {
		return true
	}
	if got.Weak {
		return !(got.DType.IsFloat() && !want.IsFloat() && !want.IsComplex()) &&
			!(got.DType.IsComplex() && !want.IsComplex())
	}
	t, err := trace.PromoteTypes(trace.Type{DType: got.DType}, trace.Type{DType: want})
	return err == nil && t.DType == want
}

// shapeText is a shape as Python writes the tuple: (3,), (2, 3).
func shapeText(s trace.Shape) string {
	t := make(starlark.Tuple, len(s))
	for i, d := range s {
		t[i] = starlark.MakeInt(d)
	}
	return t.String()
}
