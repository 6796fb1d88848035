package transform

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace/ad"
	"go.starlark.net/starlark"
)

// grad and value_and_grad.

type gradOptions struct {
	fun         starlark.Callable
	argnums     []int
	single      bool // argnums was an int: the gradient is that argument's pytree
	hasAux      bool
	holomorphic bool
	allowInt    bool
	withValue   bool
	name        string
}

func parseGradArgs(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, withValue bool) (*gradOptions, error) {
	o := &gradOptions{withValue: withValue, name: b.Name()}
	var argnums starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &o.fun, "argnums?", &argnums, "has_aux?", &o.hasAux,
		"holomorphic?", &o.holomorphic, "allow_int?", &o.allowInt); err != nil {
		return nil, err
	}
	switch a := argnums.(type) {
	case starlark.Int:
		n, ok := a.Int64()
		if !ok {
			return nil, fmt.Errorf("argnums %s is out of range", a)
		}
		o.argnums, o.single = []int{int(n)}, true
	case starlark.Tuple, *starlark.List:
		nums, err := jstarlark.IntsArg(o.name+": argnums", a)
		if err != nil {
			return nil, err
		}
		o.argnums = nums
	default:
		return nil, fmt.Errorf("argnums must be an int or a tuple of ints, got %s", argnums.Type())
	}
	return o, nil
}

func builtinGrad(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	o, err := parseGradArgs(b, args, kwargs, false)
	if err != nil {
		return nil, err
	}
	return starlark.NewBuiltin("grad("+funName(o.fun)+")", o.call), nil
}

func builtinValueAndGrad(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	o, err := parseGradArgs(b, args, kwargs, true)
	if err != nil {
		return nil, err
	}
	return starlark.NewBuiltin("value_and_grad("+funName(o.fun)+")", o.call), nil
}

func funName(fn starlark.Callable) string {
	if f, ok := fn.(*starlark.Function); ok {
		return f.Name()
	}
	return fn.Name()
}

// call differentiates o.fun at args.
func (o *gradOptions) call(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := o.name
	argnums := make([]int, len(o.argnums))
	for i, n := range o.argnums {
		if n < 0 {
			n += len(args)
		}
		if n < 0 || n >= len(args) {
			return nil, fmt.Errorf("argnums %d is out of bounds for a function called with %d positional argument(s)", o.argnums[i], len(args))
		}
		argnums[i] = n
	}
	ranges, err := argLeafRanges(name, args)
	if err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, name, devicesOf(thread, args), func(ts *jstarlark.Trace) (starlark.Value, error) {
		leaves, tree, err := jstarlark.FlattenTree(name, args)
		if err != nil {
			return nil, err
		}
		arrays, err := jstarlark.LeafArrays(name, leaves, ts.Device)
		if err != nil {
			return nil, err
		}
		diff := falses(len(arrays))
		for _, n := range argnums {
			for k := ranges[n][0]; k < ranges[n][1]; k++ {
				dt := arrays[k].DType()
				switch {
				case o.holomorphic && !dt.IsComplex():
					return nil, fmt.Errorf("holomorphic=True requires inputs with a complex dtype, but got %s", dt)
				case !dt.IsInexact() && !o.allowInt:
					return nil, fmt.Errorf("%s requires real- or complex-valued inputs (input dtype that is a sub-dtype of np.inexact), but got %s. "+
						"If you want to use Boolean- or integer-valued inputs, use vjp or set allow_int to True.", name, dt)
				}
				diff[k] = dt.IsInexact()
			}
		}
		bt, err := traceFun(ts, name, o.fun, tree, jstarlark.AValsOf(arrays), kwargs)
		if err != nil {
			return nil, err
		}
		outTree := bt.OutTree
		if o.hasAux {
			if outTree.Kind != jstarlark.TreeTuple && outTree.Kind != jstarlark.TreeList || len(outTree.Children) != 2 {
				return nil, fmt.Errorf("has_aux=True requires fun to return a pair (output, aux), but it returned %s", describeOut(outTree))
			}
			outTree = outTree.Children[0]
		}
		if outTree.Kind != jstarlark.TreeLeaf {
			return nil, fmt.Errorf("Gradient only defined for scalar-output functions, but fun returned %s", describeOut(outTree))
		}
		out := bt.OutAvals[0]
		if out.Rank() != 0 {
			return nil, fmt.Errorf("Gradient only defined for scalar-output functions. Output had shape: %s.", out.Shape)
		}
		switch {
		case o.holomorphic && !out.DType.IsComplex():
			return nil, fmt.Errorf("holomorphic=True requires a complex-valued output, but got %s", out.DType)
		case !o.holomorphic && out.DType.IsComplex():
			return nil, fmt.Errorf("%s requires real-valued outputs (output dtype that is a sub-dtype of np.floating), but got %s. "+
				"For holomorphic differentiation, pass holomorphic=True.", name, out.DType)
		case !out.DType.IsInexact():
			return nil, fmt.Errorf("%s requires real-valued outputs (output dtype that is a sub-dtype of np.floating), but got %s.", name, out.DType)
		}
		nConsts := len(bt.Consts)
		g, err := ad.ValueAndGrad(bt.Jaxpr, append(falses(nConsts), diff...))
		if err != nil {
			return nil, adError(name, err)
		}
		outs, err := applyJaxpr(ts, g, append(append([]*jstarlark.Array(nil), bt.Consts...), arrays...))
		if err != nil {
			return nil, err
		}
		nOut := len(bt.OutAvals)
		value, err := bt.OutTree.Unflatten(jstarlark.ValuesOf(outs[:nOut]))
		if err != nil {
			return nil, err
		}
		grads := outs[nOut:]
		perArg := make([]starlark.Value, len(argnums))
		for i, n := range argnums {
			argTree := tree.Children[n]
			var leafGrads []starlark.Value
			for k := ranges[n][0]; k < ranges[n][1]; k++ {
				if diff[k] {
					leafGrads = append(leafGrads, grads[0])
					grads = grads[1:]
					continue
				}
				z, err := tangentZeros(ts, arrays[k].AVal())
				if err != nil {
					return nil, err
				}
				leafGrads = append(leafGrads, z)
			}
			if perArg[i], err = argTree.Unflatten(leafGrads); err != nil {
				return nil, err
			}
		}
		var result starlark.Value = starlark.Tuple(perArg)
		if o.single {
			result = perArg[0]
		}
		if !o.withValue {
			if o.hasAux {
				return starlark.Tuple{result, value.(starlark.Indexable).Index(1)}, nil
			}
			return result, nil
		}
		return starlark.Tuple{value, result}, nil
	})
}

// describeOut describes a function's result structure for messages.
func describeOut(d *jstarlark.TreeDef) string {
	if d.Kind == jstarlark.TreeLeaf {
		return "a single array"
	}
	return d.String()
}
