package transform

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/ad"
	"go.starlark.net/starlark"
)

// jvp, vjp and linearize.

// primalArgs reads jvp's primals or tangents: a tuple or list of pytrees.
func primalArgs(name, what string, v starlark.Value) (starlark.Tuple, error) {
	switch x := v.(type) {
	case starlark.Tuple:
		return x, nil
	case *starlark.List:
		out := make(starlark.Tuple, x.Len())
		for i := range out {
			out[i] = x.Index(i)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s must be a tuple or a list of arguments, got %s", what, v.Type())
}

// splitAux splits a has_aux function's traced result: (output, aux).
func splitAux(name string, bt *jstarlark.BodyTrace, hasAux bool) (out *jstarlark.TreeDef, nOut int, err error) {
	if !hasAux {
		return bt.OutTree, len(bt.OutAvals), nil
	}
	t := bt.OutTree
	if t.Kind != jstarlark.TreeTuple && t.Kind != jstarlark.TreeList || len(t.Children) != 2 {
		return nil, 0, fmt.Errorf("has_aux=True requires fun to return a pair (output, aux), but it returned %s", describeOut(t))
	}
	return t.Children[0], t.Children[0].NumLeaves(), nil
}

// jvp(fun, primals, tangents, has_aux=False)
func builtinJVP(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fun starlark.Callable
	var primalsV, tangentsV starlark.Value
	var hasAux bool
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &fun, "primals", &primalsV, "tangents", &tangentsV, "has_aux?", &hasAux); err != nil {
		return nil, err
	}
	name := "jvp"
	primals, err := primalArgs(name, "primals", primalsV)
	if err != nil {
		return nil, err
	}
	tangents, err := primalArgs(name, "tangents", tangentsV)
	if err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, name, devicesOf(thread, primals, tangents), func(ts *jstarlark.Trace) (starlark.Value, error) {
		leaves, tree, err := jstarlark.FlattenTree(name, primals)
		if err != nil {
			return nil, err
		}
		tleaves, ttree, err := jstarlark.FlattenTree(name, tangents)
		if err != nil {
			return nil, err
		}
		if !tree.Equal(ttree) {
			return nil, fmt.Errorf("primal and tangent arguments must have the same tree structure; got primals %s and tangents %s", tree, ttree)
		}
		arrays, err := jstarlark.LeafArrays(name, leaves, ts.Device)
		if err != nil {
			return nil, err
		}
		var tarrays []*jstarlark.Array
		for i, l := range tleaves {
			p := arrays[i].AVal()
			if !p.DType.IsInexact() {
				// An integer primal's tangent is float0 and carries nothing.
				if err := float0Tangent(l, p, "primal and tangent arguments to jvp do not match; dtypes must be equal, "+
					"or in case of int/bool primal dtype the tangent dtype must be float0. Got primal dtype %s and so "+
					"expected tangent dtype float0, but got tangent dtype %s instead"); err != nil {
					return nil, err
				}
				continue
			}
			t, err := tangentLeaf(name, l, p, ts)
			if err != nil {
				return nil, err
			}
			tarrays = append(tarrays, t)
		}
		bt, err := traceFun(ts, name, fun, tree, jstarlark.AValsOf(arrays), nil)
		if err != nil {
			return nil, err
		}
		outTree, nOut, err := splitAux(name, bt, hasAux)
		if err != nil {
			return nil, err
		}
		nonzero := make([]bool, len(bt.Consts)+len(arrays))
		for i := range arrays {
			nonzero[len(bt.Consts)+i] = true
		}
		jv, outTangent, err := ad.JVP(bt.Jaxpr, nonzero, nil)
		if err == nil {
			err = ad.Runnable(jv)
		}
		if err != nil {
			return nil, adError(name, err)
		}
		in := append(append(append([]*jstarlark.Array(nil), bt.Consts...), arrays...), tarrays...)
		outs, err := applyJaxpr(ts, jv, in)
		if err != nil {
			return nil, err
		}
		all := len(bt.OutAvals)
		tangentsOut := make([]starlark.Value, nOut)
		k := all
		for i := range all {
			var t *jstarlark.Array
			if outTangent[i] {
				t = outs[k]
				k++
			}
			if i >= nOut {
				continue
			}
			if t == nil {
				if t, err = tangentZeros(ts, bt.OutAvals[i]); err != nil {
					return nil, err
				}
			}
			tangentsOut[i] = t
		}
		primalOut, err := outTree.Unflatten(jstarlark.ValuesOf(outs[:nOut]))
		if err != nil {
			return nil, err
		}
		tangentOut, err := outTree.Unflatten(tangentsOut)
		if err != nil {
			return nil, err
		}
		if hasAux {
			aux, err := bt.OutTree.Children[1].Unflatten(jstarlark.ValuesOf(outs[nOut:all]))
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{primalOut, tangentOut, aux}, nil
		}
		return starlark.Tuple{primalOut, tangentOut}, nil
	})
}

// tangentLeaf reads a tangent for a primal of aval p: an array of the
// same shape and dtype, or a Python number.
// float0Tangent checks the tangent (or cotangent) l of a value of aval p
// that has none (an integer or boolean): JAX wants a float0 array of p's
// shape. format names p's dtype, then l's.
func float0Tangent(l starlark.Value, p trace.AVal, format string) error {
	got := l.Type()
	if a, ok := l.(*jstarlark.Array); ok {
		if a.DType() == trace.Float0 {
			if !a.Shape().Equal(p.Shape) {
				return fmt.Errorf("a float0 tangent of shape %s for a primal of shape %s", a.Shape(), p.Shape)
			}
			return nil
		}
		got = a.DType().Name()
	} else if t, ok := jstarlark.ScalarType(l); ok {
		got = t.DType.Name()
	}
	return fmt.Errorf(format, p.DType, got)
}

func tangentLeaf(name string, l starlark.Value, p trace.AVal, ts *jstarlark.Trace) (*jstarlark.Array, error) {
	if t, ok := jstarlark.ScalarType(l); ok && p.Rank() == 0 {
		t.DType, t.Weak = p.DType, false
		return jstarlark.ArrayFromValue(name, l, t, ts.Device)
	}
	a, err := jstarlark.LeafArray(name, l, ts.Device)
	if err != nil {
		return nil, err
	}
	switch {
	case !a.AVal().Shape.Equal(p.Shape):
		return nil, fmt.Errorf("%s called with different primal and tangent shapes; got primal shape %s and tangent shape %s", name, p.Shape, a.AVal().Shape)
	case a.AVal().DType != p.DType:
		return nil, fmt.Errorf("primal and tangent arguments do not match; dtypes must be equal: got primal dtype %s and tangent dtype %s", p.DType, a.AVal().DType)
	}
	return a, nil
}

// A vjpFun is the function vjp returns: it maps output cotangents to
// input cotangents through the backward jaxpr and the residuals the
// forward computation saved.
type vjpFun struct {
	name     string
	bwd      *trace.Jaxpr
	res      []*jstarlark.Array
	outTree  *jstarlark.TreeDef
	outAvals []trace.AVal
	hasCT    []bool // which outputs take a cotangent (the inexact ones)
	inTree   *jstarlark.TreeDef
	inAvals  []trace.AVal
	diff     []bool
}

func (f *vjpFun) call(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var ct starlark.Value
	if err := starlark.UnpackPositionalArgs(f.name, args, kwargs, 1, &ct); err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, f.name, devicesOf(thread, ct, arrayTuple(f.res)), func(ts *jstarlark.Trace) (starlark.Value, error) {
		leaves, tree, err := jstarlark.FlattenTree(f.name, ct)
		if err != nil {
			return nil, err
		}
		if !tree.Equal(f.outTree) {
			return nil, fmt.Errorf("the cotangent must have the structure of the function's output %s, got %s", f.outTree, tree)
		}
		in := append([]*jstarlark.Array(nil), f.res...)
		for i, l := range leaves {
			if !f.hasCT[i] {
				if err := float0Tangent(l, f.outAvals[i], "type of cotangent input to vjp pullback function (%[2]s) is not "+
					"the expected tangent type (float0) of corresponding primal output with dtype %[1]s"); err != nil {
					return nil, err
				}
				continue
			}
			c, err := tangentLeaf(f.name, l, f.outAvals[i], ts)
			if err != nil {
				return nil, err
			}
			in = append(in, c)
		}
		cts, err := applyJaxpr(ts, f.bwd, in)
		if err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(f.inAvals))
		for i, a := range f.inAvals {
			if f.diff[i] {
				out[i], cts = cts[0], cts[1:]
				continue
			}
			z, err := tangentZeros(ts, a)
			if err != nil {
				return nil, err
			}
			out[i] = z
		}
		return f.inTree.Unflatten(out)
	})
}

func arrayTuple(arrays []*jstarlark.Array) starlark.Tuple {
	return starlark.Tuple(jstarlark.ValuesOf(arrays))
}

// vjp(fun, *primals, has_aux=False) -> (primals_out, vjp_fun[, aux])
func builtinVJP(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var hasAux bool
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "has_aux?", &hasAux); err != nil {
		return nil, err
	}
	if len(args) < 1 {
		return nil, fmt.Errorf("vjp: missing argument fun")
	}
	fun, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("vjp: fun must be callable, got %s", args[0].Type())
	}
	return forwardAndLinear(thread, "vjp", fun, args[1:], hasAux, true)
}

// linearize(fun, *primals) -> (primals_out, f_jvp)
func builtinLinearize(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("linearize: unexpected keyword argument %s", kwargs[0][0])
	}
	if len(args) < 1 {
		return nil, fmt.Errorf("linearize: missing argument fun")
	}
	fun, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("linearize: fun must be callable, got %s", args[0].Type())
	}
	return forwardAndLinear(thread, "linearize", fun, args[1:], false, false)
}

// forwardAndLinear runs fun's forward computation at primals, keeping the
// residuals, and returns the outputs with the function that maps
// cotangents back (vjp) or tangents forward (linearize).
func forwardAndLinear(thread *starlark.Thread, name string, fun starlark.Callable, primals starlark.Tuple, hasAux, reverse bool) (starlark.Value, error) {
	var lin *ad.Linearized
	var bwd *trace.Jaxpr
	var bt *jstarlark.BodyTrace
	var inTree, outTree *jstarlark.TreeDef
	var nOut int
	var inAvals []trace.AVal
	result, err := jstarlark.ControlFlow(thread, name, devicesOf(thread, primals), func(ts *jstarlark.Trace) (starlark.Value, error) {
		leaves, tree, err := jstarlark.FlattenTree(name, primals)
		if err != nil {
			return nil, err
		}
		inTree = tree
		arrays, err := jstarlark.LeafArrays(name, leaves, ts.Device)
		if err != nil {
			return nil, err
		}
		inAvals = jstarlark.AValsOf(arrays)
		if bt, err = traceFun(ts, name, fun, tree, inAvals, nil); err != nil {
			return nil, err
		}
		if outTree, nOut, err = splitAux(name, bt, hasAux); err != nil {
			return nil, err
		}
		diff := make([]bool, len(bt.Consts)+len(arrays))
		for i := range arrays {
			diff[len(bt.Consts)+i] = true
		}
		if lin, err = ad.Linearize(bt.Jaxpr, diff); err != nil {
			return nil, adError(name, err)
		}
		if reverse {
			linear := make([]bool, len(lin.Linear.InVars))
			for i := lin.NumRes; i < len(linear); i++ {
				linear[i] = true
			}
			if bwd, err = ad.Transpose(lin.Linear, linear); err != nil {
				return nil, adError(name, err)
			}
		}
		outs, err := applyJaxpr(ts, lin.Forward, append(append([]*jstarlark.Array(nil), bt.Consts...), arrays...))
		if err != nil {
			return nil, err
		}
		all := len(bt.OutAvals)
		return starlark.Tuple{arrayTuple(outs[:all]), arrayTuple(outs[all:])}, nil
	})
	if err != nil {
		return nil, err
	}
	parts := result.(starlark.Tuple)
	outs, res := parts[0].(starlark.Tuple), parts[1].(starlark.Tuple)
	resArrays := make([]*jstarlark.Array, len(res))
	for i, r := range res {
		resArrays[i] = r.(*jstarlark.Array)
	}
	primalOut, err := outTree.Unflatten(outs[:nOut])
	if err != nil {
		return nil, err
	}
	nConsts := len(bt.Consts)
	diff := lin.Diff[nConsts:]
	var f starlark.Value
	if reverse {
		// Only the function's own output takes cotangents; aux outputs get
		// zero ones (their tangent outputs are dropped from the linear
		// part before transposing, so they cost nothing).
		hasCT := append([]bool(nil), lin.OutTangent[:nOut]...)
		bwdMain, err := vjpBackward(lin, bwd, nOut)
		if err != nil {
			return nil, adError(name, err)
		}
		vf := &vjpFun{name: "vjp(" + funName(fun) + ")", bwd: bwdMain, res: resArrays, outTree: outTree,
			outAvals: bt.OutAvals[:nOut], hasCT: hasCT, inTree: inTree, inAvals: inAvals, diff: diff}
		f = starlark.NewBuiltin(vf.name, vf.call)
	} else {
		lf := &linearFun{name: "jvp(" + funName(fun) + ")", lin: lin, res: resArrays, inTree: inTree, inAvals: inAvals,
			outTree: outTree, outAvals: bt.OutAvals[:nOut], nOut: nOut}
		f = starlark.NewBuiltin(lf.name, lf.call)
	}
	if hasAux {
		aux, err := bt.OutTree.Children[1].Unflatten(outs[nOut:])
		if err != nil {
			return nil, err
		}
		return starlark.Tuple{primalOut, f, aux}, nil
	}
	return starlark.Tuple{primalOut, f}, nil
}

// vjpBackward transposes the linear part for the main outputs only (the
// first nOut), so that aux outputs need no cotangents.
func vjpBackward(lin *ad.Linearized, full *trace.Jaxpr, nOut int) (*trace.Jaxpr, error) {
	k := 0
	for _, has := range lin.OutTangent[:nOut] {
		if has {
			k++
		}
	}
	if k == len(lin.Linear.OutVars) {
		return full, nil
	}
	main := *lin.Linear
	main.OutVars = main.OutVars[:k]
	linear := make([]bool, len(main.InVars))
	for i := lin.NumRes; i < len(linear); i++ {
		linear[i] = true
	}
	return ad.Transpose(&main, linear)
}

// A linearFun is the function linearize returns: tangents of the inputs to
// tangents of the outputs, through the linear jaxpr and the residuals.
type linearFun struct {
	name     string
	lin      *ad.Linearized
	res      []*jstarlark.Array
	inTree   *jstarlark.TreeDef
	inAvals  []trace.AVal
	outTree  *jstarlark.TreeDef
	outAvals []trace.AVal
	nOut     int
}

func (f *linearFun) call(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("unexpected keyword argument %s", kwargs[0][0])
	}
	return jstarlark.ControlFlow(thread, f.name, devicesOf(thread, args, arrayTuple(f.res)), func(ts *jstarlark.Trace) (starlark.Value, error) {
		leaves, tree, err := jstarlark.FlattenTree(f.name, args)
		if err != nil {
			return nil, err
		}
		if !tree.Equal(f.inTree) {
			return nil, fmt.Errorf("the tangents must have the structure of the primals %s, got %s", f.inTree, tree)
		}
		in := append([]*jstarlark.Array(nil), f.res...)
		nConsts := len(f.lin.Diff) - len(f.inAvals)
		for i, l := range leaves {
			if !f.lin.Diff[nConsts+i] {
				if err := float0Tangent(l, f.inAvals[i], "the tangent of a primal of dtype %s must be float0, got %s"); err != nil {
					return nil, err
				}
				continue
			}
			t, err := tangentLeaf(f.name, l, f.inAvals[i], ts)
			if err != nil {
				return nil, err
			}
			in = append(in, t)
		}
		outs, err := applyJaxpr(ts, f.lin.Linear, in)
		if err != nil {
			return nil, err
		}
		vals := make([]starlark.Value, f.nOut)
		for i := range f.nOut {
			if f.lin.OutTangent[i] {
				vals[i], outs = outs[0], outs[1:]
				continue
			}
			z, err := tangentZeros(ts, f.outAvals[i])
			if err != nil {
				return nil, err
			}
			vals[i] = z
		}
		return f.outTree.Unflatten(vals)
	})
}
