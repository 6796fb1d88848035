package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Tracing for control flow (lib/lax/control.go). As in JAX, a body is traced
// once into a jaxpr of its own, in a sub-trace of the trace the construct
// is recorded in: values it closes over (tracers of enclosing traces,
// concrete arrays) become leading inputs of the body jaxpr and operands of
// the control-flow equation (JAX's consts). Outside any trace, the
// construct itself is traced into a one-equation jaxpr that is compiled and
// run like a jitted function: loops outside jit are the same compiled loops.

// A bodyTrace is one traced body.
type BodyTrace struct {
	Jaxpr    *trace.Jaxpr // inputs: the closed-over values, then the arguments
	Consts   []*Array     // the closed-over values, operands of the equation
	OutTree  *TreeDef
	OutAvals []trace.AVal
}

// TraceBody traces fn on traced arguments of avals in a sub-trace of outer.
// fn returns a pytree of arrays and numbers (numbers become weakly typed
// arrays).
func TraceBody(outer *Trace, name string, avals []trace.AVal, fn func(args []*Array) (starlark.Value, error)) (*BodyTrace, error) {
	ts := &Trace{b: trace.NewBuilder(), Thread: outer.Thread, name: name, Device: outer.Device, parent: outer}
	defer func() { ts.done = true }()
	args := make([]*Array, len(avals))
	for i, a := range avals {
		args[i] = NewTracedArray(ts, ts.b.Input(a))
	}
	result, err := withTrace(ts, func() (starlark.Value, error) { return fn(args) })
	if err != nil {
		return nil, err
	}
	leaves, tree, err := FlattenTree(name, result)
	if err != nil {
		return nil, err
	}
	outs := make([]trace.Atom, len(leaves))
	bt := &BodyTrace{OutTree: tree}
	for i, l := range leaves {
		a, err := LeafArray(name, l, ts.Device)
		if err != nil {
			return nil, err
		}
		if outs[i], err = ts.AtomOf(a); err != nil {
			return nil, err
		}
		bt.OutAvals = append(bt.OutAvals, outs[i].Aval())
	}
	inner, err := ts.b.Build(outs)
	if err != nil {
		return nil, err
	}
	for _, c := range inner.Consts {
		switch c := c.(type) {
		case *Array:
			bt.Consts = append(bt.Consts, c)
		case jit.Buffer:
			bt.Consts = append(bt.Consts, NewArray(c))
		default:
			return nil, fmt.Errorf("internal error: constant of type %T in %s", c, name)
		}
	}
	bt.Jaxpr = &trace.Jaxpr{
		InVars:  append(append([]*trace.Var(nil), inner.ConstVars...), inner.InVars...),
		OutVars: inner.OutVars,
		Eqns:    inner.Eqns,
		Effects: inner.Effects,
	}
	return bt, nil
}

// CurrentTraceOf is the trace active on thread, or nil.
func CurrentTraceOf(thread *starlark.Thread) *Trace {
	ts, _ := thread.Local(currentTraceKey).(*Trace)
	return ts
}

// ControlFlow records a control-flow construct: build records it into ts
// and returns its result pytree. Inside a trace, ts is that trace. Outside,
// ts is a fresh top-level trace on dev (the operands' device), whose jaxpr
// is compiled and run at once, asynchronously as a jitted call is, with the
// concrete operands passed as its constants.
func ControlFlow(thread *starlark.Thread, name string, dev func() (jit.Device, error), build func(ts *Trace) (starlark.Value, error)) (starlark.Value, error) {
	if ts := CurrentTraceOf(thread); ts != nil {
		return build(ts)
	}
	d, err := dev()
	if err != nil {
		return nil, err
	}
	defer beginStep(thread, "compiling "+name)()
	top := &Trace{b: trace.NewBuilder(), Thread: thread, name: name, Device: d}
	result, err := withTrace(top, func() (starlark.Value, error) { return build(top) })
	defer func() { top.done = true }()
	if err != nil {
		return nil, err
	}
	leaves, tree, err := FlattenTree(name, result)
	if err != nil {
		return nil, err
	}
	outs := make([]trace.Atom, len(leaves))
	for i, l := range leaves {
		a, ok := l.(*Array)
		if !ok {
			return nil, fmt.Errorf("internal error: %s produced a %s", name, l.Type())
		}
		if outs[i], err = top.AtomOf(a); err != nil {
			return nil, err
		}
	}
	jaxpr, err := top.b.Build(outs)
	if err != nil {
		return nil, err
	}
	program, exe, err := jit.CompileCached(d, jaxpr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	consts := make([]jit.Buffer, len(jaxpr.Consts))
	for i, c := range jaxpr.Consts {
		b, ok := c.(jit.Buffer)
		if !ok {
			return nil, fmt.Errorf("internal error: %s captured a %T", name, c)
		}
		consts[i] = b
	}
	p := dispatch(thread, d, jaxpr.Effects, nil, name, func(_ []jit.Buffer, host jit.Host) ([]jit.Buffer, error) {
		return exe.Execute(consts, host)
	})
	results := make([]starlark.Value, len(jaxpr.OutVars))
	for i, ov := range program.Jaxpr.OutVars {
		r := newPendingArray(p, i, ov.Aval())
		if i < len(program.OutAliases) && program.OutAliases[i] >= 0 {
			r.shared = true // an operand returned as it is
		}
		for k, prev := range program.Jaxpr.OutVars[:i] {
			if prev == ov {
				results[k].(*Array).shared, r.shared = true, true
			}
		}
		results[i] = r
	}
	return tree.Unflatten(results)
}

// LeafArray converts a pytree leaf a body returned: arrays as they are,
// numbers as weakly typed arrays.
func LeafArray(name string, l starlark.Value, dev jit.Device) (*Array, error) {
	if a, ok := l.(*Array); ok {
		return a, nil
	}
	if t, ok := ScalarType(l); ok {
		return ArrayFromValue(name, l, t, dev)
	}
	return nil, fmt.Errorf("%s returned a %s inside its result; it must return arrays, numbers, or tuples, lists and dicts of them", name, l.Type())
}

// LeafArrays converts each of a pytree's leaves with LeafArray.
func LeafArrays(name string, leaves []starlark.Value, dev jit.Device) ([]*Array, error) {
	out := make([]*Array, len(leaves))
	for i, l := range leaves {
		a, err := LeafArray(name, l, dev)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// AValsOf returns the abstract values of arrays, in order.
func AValsOf(arrays []*Array) []trace.AVal {
	out := make([]trace.AVal, len(arrays))
	for i, a := range arrays {
		out[i] = a.AVal()
	}
	return out
}

// ValuesOf returns arrays as Starlark values, for Unflatten and calls.
func ValuesOf(arrays []*Array) []starlark.Value {
	out := make([]starlark.Value, len(arrays))
	for i, a := range arrays {
		out[i] = a
	}
	return out
}
