package ad

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// A Linearized function: Forward maps j's inputs to j's outputs followed by
// NumRes residuals; Linear maps the residuals followed by the tangents of
// the differentiated inputs to the tangents of the outputs marked in
// OutTangent (the inexact ones). Linear is linear in the tangents.
type Linearized struct {
	Forward, Linear *trace.Jaxpr
	NumRes          int
	Diff            []bool
	OutTangent      []bool
}

// Linearize is JVP then partial evaluation with the primals known. diff
// marks the inputs to differentiate (inexact ones only take tangents).
func Linearize(j *trace.Jaxpr, diff []bool) (*Linearized, error) {
	nonzero := make([]bool, len(j.InVars))
	nTangents := 0
	for i, v := range j.InVars {
		nonzero[i] = diff[i] && trace.HasTangent(v.Aval())
		if nonzero[i] {
			nTangents++
		}
	}
	jv, outTangent, err := JVP(j, nonzero, nil)
	if err != nil {
		return nil, err
	}
	nOut := len(j.OutVars)
	unknownIn := make([]bool, len(jv.InVars))
	for i := len(j.InVars); i < len(unknownIn); i++ {
		unknownIn[i] = true
	}
	instantiate := make([]bool, len(jv.OutVars))
	for i := nOut; i < len(instantiate); i++ {
		instantiate[i] = true
	}
	split, err := PartialEval(jv, unknownIn, instantiate)
	if err != nil {
		return nil, err
	}
	for i := range nOut {
		if split.OutUnknown[i] {
			return nil, fmt.Errorf("internal error: output %d of the function depends on tangents", i)
		}
	}
	return &Linearized{Forward: split.Known, Linear: split.Unknown, NumRes: split.NumRes, Diff: nonzero, OutTangent: outTangent}, nil
}

// A VJPResult is a function split for reverse mode: Forward maps the inputs
// to the outputs followed by NumRes residuals; Backward maps the residuals
// followed by one cotangent per output with a tangent (OutTangent) to the
// cotangents of the differentiated inputs (Diff).
type VJPResult struct {
	Forward, Backward *trace.Jaxpr
	NumRes            int
	Diff, OutTangent  []bool
}

// VJP is Linearize then Transpose.
func VJP(j *trace.Jaxpr, diff []bool) (*VJPResult, error) {
	lin, err := Linearize(j, diff)
	if err != nil {
		return nil, err
	}
	linear := make([]bool, len(lin.Linear.InVars))
	for i := lin.NumRes; i < len(linear); i++ {
		linear[i] = true
	}
	bwd, err := Transpose(lin.Linear, linear)
	if err != nil {
		return nil, err
	}
	return &VJPResult{Forward: lin.Forward, Backward: bwd, NumRes: lin.NumRes, Diff: lin.Diff, OutTangent: lin.OutTangent}, nil
}

// Apply emits j's equations into b with its inputs bound to args and
// returns its outputs; j's constants become b's.
func Apply(b *trace.Builder, j *trace.Jaxpr, args []trace.Atom) ([]trace.Atom, error) {
	return applyEnv(b, j, args, map[*trace.Var]trace.Atom{})
}

// applyEnv is Apply with some of j's variables already bound in env.
func applyEnv(b *trace.Builder, j *trace.Jaxpr, args []trace.Atom, env map[*trace.Var]trace.Atom) ([]trace.Atom, error) {
	if len(args) != len(j.InVars) {
		return nil, fmt.Errorf("internal error: applying a jaxpr of %d inputs to %d values", len(j.InVars), len(args))
	}
	for i, v := range j.ConstVars {
		env[v] = b.Const(j.Consts[i], v.Aval())
	}
	for i, v := range j.InVars {
		env[v] = args[i]
	}
	value := func(a trace.Atom) trace.Atom {
		if v, ok := a.(*trace.Var); ok {
			return env[v]
		}
		return a
	}
	for _, eqn := range j.Eqns {
		in := make([]trace.Atom, len(eqn.In))
		for i, a := range eqn.In {
			in[i] = value(a)
		}
		outs, err := b.Bind(eqn.Prim.Name, in, eqn.Params, eqn.Pos)
		if err != nil {
			return nil, eqnError(eqn, err)
		}
		for i, v := range eqn.Out {
			env[v] = outs[i]
		}
	}
	out := make([]trace.Atom, len(j.OutVars))
	for i, a := range j.OutVars {
		out[i] = value(a)
	}
	return out, nil
}

// ValueAndGrad builds the jaxpr of JAX's value_and_grad: j's first output
// must be an inexact scalar (complex for holomorphic functions: its
// cotangent is 1); the result maps j's inputs to j's outputs followed
// by the gradients of the first output with respect to the inputs marked
// in diff (zeros for integer inputs are left out: one gradient per inexact
// marked input). Further outputs of j ride along (has_aux).
func ValueAndGrad(j *trace.Jaxpr, diff []bool) (*trace.Jaxpr, error) {
	if len(j.OutVars) == 0 {
		return nil, fmt.Errorf("grad requires a function with an output")
	}
	if out := j.OutVars[0].Aval(); out.Rank() != 0 || !out.DType.IsInexact() {
		return nil, fmt.Errorf("grad requires an inexact scalar output, got %s", out.LongString())
	}
	lin, err := Linearize(j, diff)
	if err != nil {
		return nil, err
	}
	// Only the first output's cotangent is nonzero: transpose the linear
	// part with that output alone, so nothing is computed for the others.
	first := *lin.Linear
	first.OutVars = first.OutVars[:1]
	linear := make([]bool, len(first.InVars))
	for i := lin.NumRes; i < len(linear); i++ {
		linear[i] = true
	}
	bwd, err := Transpose(&first, linear)
	if err != nil {
		return nil, err
	}
	b := trace.NewBuilder()
	args := make([]trace.Atom, len(j.InVars))
	for i, in := range j.InVars {
		args[i] = b.Input(in.Aval())
	}
	fwd, err := Apply(b, lin.Forward, args)
	if err != nil {
		return nil, err
	}
	nOut := len(j.OutVars)
	outs, res := fwd[:nOut], fwd[nOut:]
	e := &trace.Emitter{B: b}
	var one trace.Atom
	if err := trace.Catch(func() { one = e.Full(1, j.OutVars[0].Aval()) }); err != nil {
		return nil, err
	}
	grads, err := Apply(b, bwd, append(append([]trace.Atom(nil), res...), one))
	if err != nil {
		return nil, err
	}
	return b.Build(append(append([]trace.Atom(nil), outs...), grads...))
}
