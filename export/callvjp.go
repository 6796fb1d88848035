package export

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// Calling a loaded artifact inside a program, with reverse-mode AD up to
// the VJP levels it was serialized with (JAX's Exported.call under grad).
// Each level is a custom_vjp_call whose backward pass calls the next
// level's structure; the last level is a call_exported equation, which has
// no derivative: differentiating it is JAX's "No VJP is available".

func init() {
	if err := trace.Register(&trace.Primitive{
		Name: "call_exported", Props: trace.CallsJaxpr, MinIn: 0, MaxIn: -1,
		Params:     []trace.ParamSpec{{Name: "name", Kind: trace.ParamIdent}, {Name: "jaxpr", Kind: trace.ParamJaxpr}},
		ParamOrder: []string{"name"},
		NamesLike:  "jaxpr",
		CallParam:  "jaxpr",
		Rule:       applyRule,
		Effects:    func(_ []trace.AVal, p trace.Params) trace.Effects { return p.Jaxpr("jaxpr").Effects },
	}); err != nil {
		panic(err) // a programming error: the name is taken
	}
	trace.SetAD("call_exported", func(e *trace.Emitter, _, _ []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
		e.Fail(fmt.Errorf("%w for the exported function %s: serialize it with a higher vjp_order", ErrNoVJP, p["name"]))
		return nil, nil
	}, nil)
}

// applyRule is the shape rule of an equation applying its jaxpr param to
// its operands.
func applyRule(in []trace.AVal, p trace.Params) ([]trace.AVal, error) {
	j := p.Jaxpr("jaxpr")
	if len(in) != len(j.InVars) {
		return nil, fmt.Errorf("jaxpr takes %d inputs, got %d", len(j.InVars), len(in))
	}
	for i, v := range j.InVars {
		if !in[i].SameType(v.Aval()) {
			return nil, fmt.Errorf("operand %d is %s but the jaxpr's input is %s", i, in[i], v.Aval())
		}
	}
	return j.OutAvals(), nil
}

// Loaded reports whether the artifact was deserialized (its VJPs are
// those it stores) rather than exported in this process (its VJPs are
// computed when asked, to any order).
func (e *Exported) Loaded() bool { return e.loaded }

// CallJaxpr returns a closed jaxpr that applies a loaded artifact: its
// inputs are the constants of the artifact and of its stored VJPs, then
// the artifact's inputs; consts are those constants' values, in order.
func (e *Exported) CallJaxpr() (*trace.Jaxpr, []any, error) {
	j, _, consts, err := callStructure(e)
	return j, consts, err
}

// closedOf is the artifact's program with its constants as leading inputs.
func closedOf(e *Exported) *trace.Jaxpr {
	j := e.Jaxpr
	return &trace.Jaxpr{
		InVars:  append(append([]*trace.Var(nil), j.ConstVars...), j.InVars...),
		OutVars: j.OutVars, Eqns: j.Eqns, Effects: j.Effects,
	}
}

func inputs(b *trace.Builder, avals ...[]trace.AVal) []trace.Atom {
	var out []trace.Atom
	for _, list := range avals {
		for _, a := range list {
			out = append(out, b.Input(a))
		}
	}
	return out
}

func atoms(vs []*trace.Var) []trace.Atom {
	out := make([]trace.Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func callStructure(e *Exported) (*trace.Jaxpr, []trace.AVal, []any, error) {
	closed := closedOf(e)
	var kAvals []trace.AVal
	for _, v := range e.Jaxpr.ConstVars {
		kAvals = append(kAvals, v.Aval())
	}
	payloads := append([]any(nil), e.Jaxpr.Consts...)
	name := trace.Ident(e.FunName)
	if e.storedVJP == nil {
		b := trace.NewBuilder()
		in := inputs(b, kAvals, e.InAvals)
		outs, err := b.Bind("call_exported", in, trace.Params{"name": name, "jaxpr": closed}, trace.Pos{})
		if err != nil {
			return nil, nil, nil, err
		}
		j, err := b.Build(atoms(outs))
		return j, kAvals, payloads, err
	}
	vj, vAvals, vPayloads, err := callStructure(e.storedVJP)
	if err != nil {
		return nil, nil, nil, err
	}
	nk, nv, nin := len(kAvals), len(vAvals), len(e.InAvals)

	// The primal: the artifact on its own constants and the arguments.
	primal := func(withResiduals bool) (*trace.Jaxpr, error) {
		b := trace.NewBuilder()
		in := inputs(b, kAvals, vAvals, e.InAvals)
		args := append(append([]trace.Atom(nil), in[:nk]...), in[nk+nv:]...)
		outs, err := b.Bind("jit", args, trace.Params{"name": name, "jaxpr": closed}, trace.Pos{})
		if err != nil {
			return nil, err
		}
		res := atoms(outs)
		if withResiduals { // the VJP's constants and the arguments
			res = append(res, in[nk:]...)
		}
		return b.Build(res)
	}
	call, err := primal(false)
	if err != nil {
		return nil, nil, nil, err
	}
	fwd, err := primal(true)
	if err != nil {
		return nil, nil, nil, err
	}
	// The backward pass: the next level on the residuals and the output
	// cotangents; the constants get zero cotangents.
	b := trace.NewBuilder()
	in := inputs(b, vAvals, e.InAvals, e.OutAvals)
	cts, err := b.Bind("jit", in, trace.Params{"name": trace.Ident(e.storedVJP.FunName), "jaxpr": vj}, trace.Pos{})
	if err != nil {
		return nil, nil, nil, err
	}
	em := &trace.Emitter{B: b}
	var bwdOuts []trace.Atom
	if err := trace.Catch(func() {
		for _, a := range append(append([]trace.AVal(nil), kAvals...), vAvals...) {
			bwdOuts = append(bwdOuts, em.Full(0, a))
		}
	}); err != nil {
		return nil, nil, nil, err
	}
	bwd, err := b.Build(append(bwdOuts, atoms(cts)...))
	if err != nil {
		return nil, nil, nil, err
	}
	top := trace.NewBuilder()
	all := inputs(top, kAvals, vAvals, e.InAvals)
	outs, err := top.Bind("custom_vjp_call", all, trace.Params{"call_jaxpr": call, "fwd_jaxpr": fwd, "bwd_jaxpr": bwd,
		"num_res": nv + nin, "symbolic_zeros": false}, trace.Pos{})
	if err != nil {
		return nil, nil, nil, err
	}
	j, err := top.Build(atoms(outs))
	return j, append(append([]trace.AVal(nil), kAvals...), vAvals...), append(payloads, vPayloads...), err
}
