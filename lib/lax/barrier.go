package lax

import (
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// lax.optimization_barrier(x) returns the pytree x unchanged, through one
// optimization_barrier equation: the compiler fuses nothing across it,
// keeps it from common-subexpression elimination, and computes all of its
// operands before anything that uses its results.
func laxOptimizationBarrier(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	leaves, tree, err := jstarlark.FlattenTree("optimization_barrier", x)
	if err != nil {
		return nil, err
	}
	if len(leaves) == 0 {
		return x, nil
	}
	dev, err := jstarlark.OperandDevice(leaves...)
	if err != nil {
		return nil, err
	}
	arrays := make([]*jstarlark.Array, len(leaves))
	for i, l := range leaves {
		if arrays[i], err = jstarlark.AsArray("optimization_barrier", l, dev); err != nil {
			return nil, err
		}
	}
	outs, err := jstarlark.Bind("optimization_barrier", nil, arrays...)
	if err != nil {
		return nil, err
	}
	vals := make([]starlark.Value, len(outs))
	for i, o := range outs {
		vals[i] = o
	}
	return tree.Unflatten(vals)
}
func init() { jstarlark.Register(Module, "optimization_barrier", laxOptimizationBarrier) }
