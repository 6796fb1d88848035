package transform

import (
	"errors"
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/ad"
	"go.starlark.net/starlark"
)

// Autodiff builtins (SPEC §4): jvp, linearize, vjp, grad, value_and_grad,
// custom_jvp, custom_vjp and checkpoint. Each traces the user's function
// into a jaxpr (a sub-trace, as control flow does), transforms it with
// trace/ad, and applies the result where it was called: its equations join
// the current trace, or, outside any trace, are compiled and run as one
// program (ControlFlow). So make_jaxpr(grad(f)) prints the gradient's
// equations, jit(grad(f)) is one program, and grad(grad(f)) transforms
// an already transformed function like any other.
//
// Integer and boolean values carry no tangents: their tangents and
// cotangents are float0 arrays, as in JAX (jvp's tangent of an integer
// output, grad with allow_int, a pullback's cotangent of an integer
// input), and jvp wants float0 tangents for integer primals.

func adBuiltins() starlark.StringDict {
	return starlark.StringDict{
		"grad":                starlark.NewBuiltin("grad", builtinGrad),
		"value_and_grad":      starlark.NewBuiltin("value_and_grad", builtinValueAndGrad),
		"jvp":                 starlark.NewBuiltin("jvp", builtinJVP),
		"vjp":                 starlark.NewBuiltin("vjp", builtinVJP),
		"linearize":           starlark.NewBuiltin("linearize", builtinLinearize),
		"custom_jvp":          starlark.NewBuiltin("custom_jvp", builtinCustomJVP),
		"custom_vjp":          starlark.NewBuiltin("custom_vjp", builtinCustomVJP),
		"checkpoint":          starlark.NewBuiltin("checkpoint", builtinCheckpoint),
		"remat":               starlark.NewBuiltin("remat", builtinCheckpoint),
		"checkpoint_policies": checkpointPolicies,
	}
}

// adError turns a failure of a transformation into the builtin's error,
// naming the line of the equation that could not be differentiated.
func adError(_ string, err error) error {
	var e *ad.Error
	if errors.As(err, &e) && e.Pos != (trace.Pos{}) {
		return fmt.Errorf("%v (differentiating %s at %s)", e.Err, e.Prim, e.Pos)
	}
	return err
}

// devicesOf finds the device of the arrays among the values' leaves (the
// thread's default device when there are none).
func devicesOf(thread *starlark.Thread, vals ...starlark.Value) func() (jit.Device, error) {
	return func() (jit.Device, error) {
		for _, v := range vals {
			leaves, _, err := jstarlark.FlattenTree("", v)
			if err != nil {
				return nil, err
			}
			for _, l := range leaves {
				if a, ok := l.(*jstarlark.Array); ok {
					return a.Device(), nil
				}
			}
		}
		return jstarlark.DefaultDeviceOf(thread)
	}
}

// traceFun traces fn called with the pytree of positional arguments tree
// (whose leaves have avals) and kwargs.
func traceFun(ts *jstarlark.Trace, name string, fn starlark.Callable, tree *jstarlark.TreeDef, avals []trace.AVal, kwargs []starlark.Tuple) (*jstarlark.BodyTrace, error) {
	return jstarlark.TraceBody(ts, name, avals, func(args []*jstarlark.Array) (starlark.Value, error) {
		argv, err := tree.Unflatten(jstarlark.ValuesOf(args))
		if err != nil {
			return nil, err
		}
		return starlark.Call(ts.Thread, fn, argv.(starlark.Tuple), kwargs)
	})
}

// applyJaxpr emits j applied to args into ts and returns its outputs.
func applyJaxpr(ts *jstarlark.Trace, j *trace.Jaxpr, args []*jstarlark.Array) ([]*jstarlark.Array, error) {
	atoms := make([]trace.Atom, len(args))
	for i, a := range args {
		at, err := ts.AtomOf(a)
		if err != nil {
			return nil, err
		}
		atoms[i] = at
	}
	outs, err := ts.Builder().Apply(j, atoms)
	if err != nil {
		return nil, err
	}
	res := make([]*jstarlark.Array, len(outs))
	for i, o := range outs {
		res[i] = jstarlark.NewTracedArray(ts, o)
	}
	return res, nil
}

// zerosArray is an array of zeros of aval in ts.
func zerosArray(ts *jstarlark.Trace, aval trace.AVal) (*jstarlark.Array, error) {
	e := &trace.Emitter{B: ts.Builder(), Pos: ts.Position()}
	var z trace.Atom
	if err := trace.Catch(func() { z = e.Zeros(trace.AVal{Shape: aval.Shape, DType: aval.DType}) }); err != nil {
		return nil, err
	}
	return jstarlark.NewTracedArray(ts, z), nil
}

// tangentZeros is the zero tangent of a value of aval: zeros of its dtype
// for an inexact one, and float0 (JAX's tangent type of integers and
// booleans, which carries no data) for the others.
func tangentZeros(ts *jstarlark.Trace, aval trace.AVal) (*jstarlark.Array, error) {
	if !aval.DType.IsInexact() {
		return jstarlark.Float0Array(ts.Device, aval.Shape)
	}
	return zerosArray(ts, aval)
}

// onesArray is an array of ones of aval in ts.
func onesArray(ts *jstarlark.Trace, aval trace.AVal) (*jstarlark.Array, error) {
	e := &trace.Emitter{B: ts.Builder(), Pos: ts.Position()}
	var z trace.Atom
	if err := trace.Catch(func() { z = e.Full(1, trace.AVal{Shape: aval.Shape, DType: aval.DType}) }); err != nil {
		return nil, err
	}
	return jstarlark.NewTracedArray(ts, z), nil
}

// argLeafRanges gives the range of leaves of each positional argument.
func argLeafRanges(name string, args starlark.Tuple) ([][2]int, error) {
	out := make([][2]int, len(args))
	n := 0
	for i, a := range args {
		leaves, _, err := jstarlark.FlattenTree(name, a)
		if err != nil {
			return nil, err
		}
		out[i] = [2]int{n, n + len(leaves)}
		n += len(leaves)
	}
	return out, nil
}

func falses(n int) []bool { return make([]bool, n) }
