package transform

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// A CustomVJP is a function with a custom VJP (@custom_vjp, f.defvjp(fwd,
// bwd)). fwd(*args) returns (output, residuals); bwd(*nondiff, residuals,
// output_cotangent) returns one cotangent per differentiable argument (None
// for zero).
type CustomVJP struct {
	fun      starlark.Callable
	nondiff  []int
	fwd, bwd starlark.Callable
}

var (
	_ starlark.Callable = (*CustomVJP)(nil)
	_ starlark.HasAttrs = (*CustomVJP)(nil)
)

func builtinCustomVJP(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fun starlark.Callable
	var nondiff starlark.Value = starlark.Tuple{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &fun, "nondiff_argnums?", &nondiff); err != nil {
		return nil, err
	}
	nums, err := jstarlark.IntsArg("custom_vjp: nondiff_argnums", nondiff)
	if err != nil {
		return nil, err
	}
	return &CustomVJP{fun: fun, nondiff: nums}, nil
}

func (f *CustomVJP) String() string        { return "<custom_vjp " + funName(f.fun) + ">" }
func (f *CustomVJP) Type() string          { return "custom_vjp" }
func (f *CustomVJP) Freeze()               {}
func (f *CustomVJP) Truth() starlark.Bool  { return true }
func (f *CustomVJP) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: custom_vjp") }
func (f *CustomVJP) Name() string          { return funName(f.fun) }
func (f *CustomVJP) AttrNames() []string   { return []string{"defvjp"} }

func (f *CustomVJP) Attr(name string) (starlark.Value, error) {
	if name != "defvjp" {
		return nil, nil
	}
	return starlark.NewBuiltin("defvjp", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var fwd, bwd starlark.Callable
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fwd", &fwd, "bwd", &bwd); err != nil {
			return nil, err
		}
		f.fwd, f.bwd = fwd, bwd
		return starlark.None, nil
	}), nil
}

func (f *CustomVJP) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := funName(f.fun)
	if f.fwd == nil {
		return nil, fmt.Errorf("No VJP defined for custom_vjp function %s using defvjp.", name)
	}
	return callCustom(thread, "custom_vjp", f, f.fun, f.nondiff, args, kwargs, func(ts *jstarlark.Trace, c *customCall) (starlark.Value, error) {
		call, tree, arrays, avals, fixed := c.call, c.tree, c.arrays, c.avals, c.fixed
		full := func(a []*jstarlark.Array) (starlark.Tuple, error) {
			argv, err := tree.Unflatten(jstarlark.ValuesOf(a))
			if err != nil {
				return nil, err
			}
			return mergeNondiff(argv.(starlark.Tuple), fixed, f.nondiff), nil
		}
		fwdWhat := "the custom_vjp fwd of " + name
		fwd, err := jstarlark.TraceBody(ts, fwdWhat, avals, func(a []*jstarlark.Array) (starlark.Value, error) {
			argv, err := full(a)
			if err != nil {
				return nil, err
			}
			out, err := starlark.Call(thread, f.fwd, argv, nil)
			if err != nil {
				return nil, err
			}
			pair, ok := out.(starlark.Tuple)
			if !ok || len(pair) != 2 {
				return nil, fmt.Errorf("%s must return a pair (output, residuals), got %s", fwdWhat, out.Type())
			}
			return pair, nil
		})
		if err != nil {
			return nil, err
		}
		outTree, resTree := fwd.OutTree.Children[0], fwd.OutTree.Children[1]
		nOut := outTree.NumLeaves()
		if err := checkSameOutputs(fwdWhat, outTree, fwd.OutAvals[:nOut], call.OutTree, call.OutAvals); err != nil {
			return nil, err
		}
		resAvals := fwd.OutAvals[nOut:]
		bwd, err := f.traceBwd(ts, name, tree, avals, fixed, resTree, resAvals, call.OutTree, call.OutAvals)
		if err != nil {
			return nil, err
		}
		cc, fc, bc := call.Consts, fwd.Consts, bwd.Consts
		callJ := withInputs(call.Jaxpr, nil, len(cc), append(constAvals(fc), constAvals(bc)...), nil)
		// fwd takes (cc, fc, bc, args) and returns the outputs, then bwd's
		// closed-over values (passed through as residuals), then the
		// residuals.
		fwdJ := withInputs(fwd.Jaxpr, constAvals(cc), len(fc), constAvals(bc), nil)
		bcVars := fwdJ.InVars[len(cc)+len(fc) : len(cc)+len(fc)+len(bc)]
		outs := append([]trace.Atom(nil), fwd.Jaxpr.OutVars[:nOut]...)
		for _, v := range bcVars {
			outs = append(outs, v)
		}
		fwdJ.OutVars = append(outs, fwd.Jaxpr.OutVars[nOut:]...)
		bwdJ, err := bwdWithConstZeros(bwd.Jaxpr, append(append(append([]*jstarlark.Array(nil), cc...), fc...), bc...))
		if err != nil {
			return nil, err
		}
		operands := append(append(append(append([]*jstarlark.Array(nil), cc...), fc...), bc...), arrays...)
		results, err := jstarlark.BindTraced(ts, "custom_vjp_call", trace.Params{
			"call_jaxpr": callJ, "fwd_jaxpr": fwdJ, "bwd_jaxpr": bwdJ,
			"num_res": len(bc) + len(resAvals), "symbolic_zeros": false,
		}, operands...)
		if err != nil {
			return nil, err
		}
		return call.OutTree.Unflatten(jstarlark.ValuesOf(results))
	})
}

// traceBwd traces bwd(*nondiff, residuals, output_cotangent) into a jaxpr
// of (closed-over values, residuals, cotangents) -> one cotangent per leaf
// of the differentiable arguments, checking what bwd returns.
func (f *CustomVJP) traceBwd(ts *jstarlark.Trace, name string, argTree *jstarlark.TreeDef, argAvals []trace.AVal, fixed starlark.Tuple,
	resTree *jstarlark.TreeDef, resAvals []trace.AVal, outTree *jstarlark.TreeDef, outAvals []trace.AVal) (*jstarlark.BodyTrace, error) {
	what := "the custom_vjp bwd of " + name
	nRes := len(resAvals)
	return jstarlark.TraceBody(ts, what, append(append([]trace.AVal(nil), resAvals...), outAvals...), func(a []*jstarlark.Array) (starlark.Value, error) {
		res, err := resTree.Unflatten(jstarlark.ValuesOf(a[:nRes]))
		if err != nil {
			return nil, err
		}
		ct, err := outTree.Unflatten(jstarlark.ValuesOf(a[nRes:]))
		if err != nil {
			return nil, err
		}
		out, err := starlark.Call(ts.Thread, f.bwd, append(append(starlark.Tuple(nil), fixed...), res, ct), nil)
		if err != nil {
			return nil, err
		}
		var cts []starlark.Value
		switch x := out.(type) {
		case starlark.Tuple:
			cts = x
		case *starlark.List:
			for i := range x.Len() {
				cts = append(cts, x.Index(i))
			}
		default:
			return nil, fmt.Errorf("Custom VJP bwd rule must produce a tuple with one cotangent per differentiable argument, but %s returned a %s", what, out.Type())
		}
		if len(cts) != len(argTree.Children) {
			return nil, fmt.Errorf("Custom VJP bwd rule must produce an output with the same container (pytree) structure as the args tuple of the primal function, "+
				"and in particular must produce a tuple of length equal to the number of arguments to the primal function, "+
				"but %s returned %d cotangent(s) for %d argument(s)", what, len(cts), len(argTree.Children))
		}
		inner := jstarlark.CurrentTraceOf(ts.Thread)
		var leaves []starlark.Value
		k := 0
		for i, c := range cts {
			want := argTree.Children[i]
			n := want.NumLeaves()
			if c == starlark.None {
				for _, av := range argAvals[k : k+n] {
					z, err := zerosArray(inner, av)
					if err != nil {
						return nil, err
					}
					leaves = append(leaves, z)
				}
				k += n
				continue
			}
			cl, ctree, err := jstarlark.FlattenTree(what, c)
			if err != nil {
				return nil, err
			}
			if !ctree.Equal(want) {
				return nil, fmt.Errorf("Custom VJP bwd rule must produce an output with the same container (pytree) structure as the args tuple of the primal function, "+
					"but %s returned %s for argument %d of structure %s", what, ctree, i, want)
			}
			for j, l := range cl {
				arr, err := jstarlark.LeafArray(what, l, ts.Device)
				if err != nil {
					return nil, err
				}
				if want := argAvals[k+j]; !arr.AVal().SameType(want) {
					return nil, fmt.Errorf("Custom VJP bwd rule must produce an output with shape/dtypes as args tuple of the primal function, "+
						"but %s produced an output of shape/dtype %s for argument %d, whose shape/dtype is %s",
						what, arr.AVal().LongString(), i, want.LongString())
				}
				leaves = append(leaves, arr)
			}
			k += n
		}
		return starlark.Tuple(leaves), nil
	})
}

// bwdWithConstZeros makes bwd's jaxpr return zero cotangents for the
// closed-over operands (consts) before the arguments' cotangents.
func bwdWithConstZeros(bwd *trace.Jaxpr, consts []*jstarlark.Array) (*trace.Jaxpr, error) {
	b := trace.NewBuilder()
	in := make([]trace.Atom, len(bwd.InVars))
	for i, v := range bwd.InVars {
		in[i] = b.Input(v.Aval())
	}
	cts, err := b.Apply(bwd, in)
	if err != nil {
		return nil, err
	}
	e := &trace.Emitter{B: b}
	var zeros []trace.Atom
	if err := trace.Catch(func() {
		for _, c := range consts {
			zeros = append(zeros, e.Zeros(trace.AVal{Shape: c.AVal().Shape, DType: c.AVal().DType}))
		}
	}); err != nil {
		return nil, err
	}
	return b.Build(append(zeros, cts...))
}
