package starlark

import "go.starlark.net/starlark"

// lax.optimization_barrier(x) returns the pytree x unchanged, through one
// optimization_barrier equation: the compiler fuses nothing across it,
// keeps it from common-subexpression elimination, and computes all of its
// operands before anything that uses its results.
func laxOptimizationBarrier(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	leaves, tree, err := flattenTree("optimization_barrier", x)
	if err != nil {
		return nil, err
	}
	if len(leaves) == 0 {
		return x, nil
	}
	dev, err := operandDevice(leaves...)
	if err != nil {
		return nil, err
	}
	arrays := make([]*Array, len(leaves))
	for i, l := range leaves {
		if arrays[i], err = asArray("optimization_barrier", l, dev); err != nil {
			return nil, err
		}
	}
	outs, err := bind("optimization_barrier", nil, arrays...)
	if err != nil {
		return nil, err
	}
	vals := make([]starlark.Value, len(outs))
	for i, o := range outs {
		vals[i] = o
	}
	return tree.unflatten(vals)
}
func init() { register("lax", "optimization_barrier", laxOptimizationBarrier) }
