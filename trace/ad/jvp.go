package ad

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// JVP transforms j into its forward-mode derivative: a jaxpr taking j's
// inputs followed by tangents of the inexact inputs marked in nonzero
// (integer inputs take none), and
// returning j's outputs followed by the tangents of the outputs marked in
// the returned outTangent. An output's tangent is returned when it can be
// nonzero or when instantiate asks for it (nil instantiate asks for every
// inexact output); integer and bool outputs never have one.
func JVP(j *trace.Jaxpr, nonzero, instantiate []bool) (*trace.Jaxpr, []bool, error) {
	b := trace.NewBuilder()
	primals := make([]trace.Atom, len(j.InVars))
	var tangents []trace.Atom
	for i, v := range j.InVars {
		primals[i] = b.Input(v.Aval())
	}
	tangents = make([]trace.Atom, len(j.InVars))
	for i, v := range j.InVars {
		if nonzero[i] && trace.HasTangent(v.Aval()) {
			tangents[i] = b.Input(v.Aval())
		}
	}
	consts := bindConsts(b, j)
	outs, outT, err := jvpEqns(b, j, consts, primals, tangents)
	if err != nil {
		return nil, nil, err
	}
	outTangent := make([]bool, len(outs))
	var tangentOuts []trace.Atom
	e := &trace.Emitter{B: b}
	for i, t := range outT {
		aval := j.OutVars[i].Aval()
		if !trace.HasTangent(aval) {
			continue
		}
		if t == nil && (instantiate == nil || instantiate[i]) {
			if err := trace.Catch(func() { t = e.Zeros(aval) }); err != nil {
				return nil, nil, err
			}
		}
		if t != nil {
			outTangent[i] = true
			tangentOuts = append(tangentOuts, t)
		}
	}
	jv, err := b.Build(append(outs, tangentOuts...))
	if err != nil {
		return nil, nil, err
	}
	return jv, outTangent, nil
}

// bindConsts captures j's constants in b.
func bindConsts(b *trace.Builder, j *trace.Jaxpr) []trace.Atom {
	out := make([]trace.Atom, len(j.ConstVars))
	for i, v := range j.ConstVars {
		out[i] = b.Const(j.Consts[i], v.Aval())
	}
	return out
}

// jvpEqns emits j's equations and their tangents into b, given atoms of b
// for j's constants, inputs and input tangents (nil for zero), and returns
// the outputs and their tangents.
func jvpEqns(b *trace.Builder, j *trace.Jaxpr, consts, primals, tangents []trace.Atom) ([]trace.Atom, []trace.Atom, error) {
	primal := map[*trace.Var]trace.Atom{}
	tangent := map[*trace.Var]trace.Atom{}
	for i, v := range j.ConstVars {
		primal[v] = consts[i]
	}
	for i, v := range j.InVars {
		primal[v] = primals[i]
		if tangents[i] != nil && trace.HasTangent(v.Aval()) {
			tangent[v] = tangents[i]
		}
	}
	read := func(a trace.Atom) (trace.Atom, trace.Atom) {
		if v, ok := a.(*trace.Var); ok {
			return primal[v], tangent[v]
		}
		return a, nil
	}
	for _, eqn := range j.Eqns {
		in := make([]trace.Atom, len(eqn.In))
		ts := make([]trace.Atom, len(eqn.In))
		anyTangent := false
		for i, a := range eqn.In {
			in[i], ts[i] = read(a)
			anyTangent = anyTangent || ts[i] != nil
		}
		outs, outT, err := jvpEqn(b, eqn, in, ts, anyTangent)
		if err != nil {
			return nil, nil, err
		}
		for i, v := range eqn.Out {
			primal[v] = outs[i]
			if outT[i] != nil && trace.HasTangent(v.Aval()) {
				if !outT[i].Aval().Shape.Equal(v.Aval().Shape) {
					return nil, nil, errorf(eqn, "internal error: the JVP rule of %s gave a tangent of shape %s for an output of shape %s",
						eqn.Prim.Name, outT[i].Aval().Shape, v.Aval().Shape)
				}
				tangent[v] = outT[i]
			}
		}
	}
	outs := make([]trace.Atom, len(j.OutVars))
	outT := make([]trace.Atom, len(j.OutVars))
	for i, a := range j.OutVars {
		outs[i], outT[i] = read(a)
	}
	return outs, outT, nil
}

func jvpEqn(b *trace.Builder, eqn *trace.Eqn, in, ts []trace.Atom, anyTangent bool) ([]trace.Atom, []trace.Atom, error) {
	p := eqn.Prim
	if !anyTangent || p.NonDifferentiable {
		outs, err := b.Bind(p.Name, in, eqn.Params, eqn.Pos)
		if err != nil {
			return nil, nil, eqnError(eqn, err)
		}
		return atoms(outs), make([]trace.Atom, len(outs)), nil
	}
	if p.JVP == nil {
		return nil, nil, errorf(eqn, "differentiation rule for '%s' not implemented", p.Name)
	}
	var outs, outT []trace.Atom
	e := &trace.Emitter{B: b, Pos: eqn.Pos}
	if err := trace.Catch(func() { outs, outT = p.JVP(e, in, ts, eqn.Params) }); err != nil {
		return nil, nil, eqnError(eqn, err)
	}
	if len(outs) != len(eqn.Out) || len(outT) != len(eqn.Out) {
		return nil, nil, eqnError(eqn, fmt.Errorf("internal error: the JVP rule of %s gave %d outputs and %d tangents for %d outputs",
			p.Name, len(outs), len(outT), len(eqn.Out)))
	}
	return outs, outT, nil
}

func atoms(vs []*trace.Var) []trace.Atom {
	out := make([]trace.Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}
