package hostcallback

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// JAX's current callback API (SPEC §5), on the machinery of call:
//
//	debug.callback(callback, *args, ordered=False, **kwargs)
//	pure_callback(callback, result_shape_dtypes, *args, vmap_method=None, **kwargs)
//	io_callback(callback, result_shape_dtypes, *args, ordered=False, **kwargs)
//
// Each is a call equation whose callback receives *args and **kwargs
// spread.

// jax.debug's print is the language's (package starlark); its callback is
// a host callback.
func init() {
	jstarlark.Register(jstarlark.DebugModule, "callback", debugCallback)
}

// spreadCall stages callback(*args, **kwargs) through call: the arguments
// travel as the pytree (args, kwargs).
func spreadCall(thread *starlark.Thread, kind string, fn starlark.Value, resultShape starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple, params trace.Params) (starlark.Value, error) {
	callable, ok := fn.(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("%s: the callback must be callable, got %s", kind, fn.Type())
	}
	named := starlark.NewDict(len(kwargs))
	for _, kv := range kwargs {
		if err := named.SetKey(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	if params["call_with_device"] == nil {
		params["call_with_device"] = false
	}
	cb := &hostCallback{fn: callable, name: callable.Name(), kind: kind, spread: true}
	return stageCall(thread, cb, starlark.Tuple{args, named}, resultShape, params)
}

// debug.callback(callback, *args, ordered=False, **kwargs)
func debugCallback(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	own, rest := jstarlark.SplitKwargs(kwargs, "ordered")
	ordered := false
	if err := starlark.UnpackArgs("debug.callback", nil, own, "ordered?", &ordered); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("debug.callback: missing the callback")
	}
	// Under vmap JAX calls a debug callback once per element, in order.
	params := trace.Params{"ordered": ordered, "vmap_method": "sequential"}
	if _, err := spreadCall(thread, "debug.callback", args[0], starlark.None, args[1:], rest, params); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// pure_callback(callback, result_shape_dtypes, *args, vmap_method=None, **kwargs)
func builtinPureCallback(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	own, rest := jstarlark.SplitKwargs(kwargs, "vmap_method")
	var method starlark.Value = starlark.None
	if err := starlark.UnpackArgs("pure_callback", nil, own, "vmap_method?", &method); err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("pure_callback: want the callback and result_shape_dtypes, got %d arguments", len(args))
	}
	params := trace.Params{"ordered": false}
	switch m := method.(type) {
	case starlark.NoneType:
	case starlark.String:
		switch m {
		case "sequential", "expand_dims", "broadcast_all":
			params["vmap_method"] = string(m)
		default:
			return nil, fmt.Errorf("pure_callback: vmap_method must be None, 'sequential', 'expand_dims' or 'broadcast_all', got %s", m)
		}
	default:
		return nil, fmt.Errorf("pure_callback: vmap_method must be None or a string, got %s", method.Type())
	}
	return spreadCall(thread, "pure_callback", args[0], args[1], args[2:], rest, params)
}

// io_callback(callback, result_shape_dtypes, *args, ordered=False, **kwargs)
func builtinIOCallback(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	own, rest := jstarlark.SplitKwargs(kwargs, "ordered")
	ordered := false
	if err := starlark.UnpackArgs("io_callback", nil, own, "ordered?", &ordered); err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("io_callback: want the callback and result_shape_dtypes, got %d arguments", len(args))
	}
	params := trace.Params{"ordered": ordered}
	if !ordered {
		// JAX maps an unordered io_callback over a batch element by element
		// (and refuses to vmap an ordered one).
		params["vmap_method"] = "sequential"
	}
	return spreadCall(thread, "io_callback", args[0], args[1], args[2:], rest, params)
}
