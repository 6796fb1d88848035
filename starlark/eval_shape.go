package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// eval_shape(fun, *args, **kwargs): the shapes and dtypes of fun's result,
// as a pytree of ShapeDtypeStruct, found by tracing fun on the types of its
// arguments (arrays, numbers, or ShapeDtypeStructs) without computing or
// allocating anything; the effects fun would have are not run.
func builtinEvalShape(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("eval_shape: missing the function")
	}
	fun, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("eval_shape: the function must be callable, got %s", args[0].Type())
	}
	named := starlark.NewDict(len(kwargs))
	for _, kv := range kwargs {
		_ = named.SetKey(kv[0], kv[1])
	}
	leaves, tree, err := FlattenTree("eval_shape", starlark.Tuple{args[1:], named})
	if err != nil {
		return nil, err
	}
	dev, err := DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	// Arrays that only carry a type: tracing reads nothing else.
	typed := make([]*Array, len(leaves))
	for i, l := range leaves {
		switch x := l.(type) {
		case *ShapeDtypeStruct:
			typed[i] = &Array{aval: trace.AVal{Shape: x.shape, DType: x.dtype}}
		case *Array:
			typed[i] = &Array{aval: x.aval}
		default:
			t, isNum := ScalarType(l)
			if !isNum {
				return nil, fmt.Errorf("eval_shape: argument leaf %d is a %s; want arrays, numbers or ShapeDtypeStructs", i, l.Type())
			}
			typed[i] = &Array{aval: trace.AVal{DType: t.DType, Weak: t.Weak}}
		}
	}
	call := &jitCall{leaves: typed, dev: dev, rebuild: func(vals []starlark.Value) (starlark.Tuple, []starlark.Tuple, error) {
		v, err := tree.Unflatten(vals)
		if err != nil {
			return nil, nil, err
		}
		pair := v.(starlark.Tuple)
		var kw []starlark.Tuple
		for _, item := range pair[1].(*starlark.Dict).Items() {
			kw = append(kw, item)
		}
		return pair[0].(starlark.Tuple), kw, nil
	}}
	jaxpr, outTree, err := traceFunction(thread, fun, call, nil)
	if err != nil {
		return nil, err
	}
	outs := jaxpr.OutAvals()
	structs := make([]starlark.Value, len(outs))
	for i, av := range outs {
		structs[i] = &ShapeDtypeStruct{shape: av.Shape, dtype: av.DType}
	}
	return outTree.Unflatten(structs)
}
