package ad

import (
	"github.com/jaxsh/jaxsh/trace"
)

// Transpose turns j, linear in the inputs marked in linear, into a jaxpr
// taking the other inputs followed by one cotangent per output and
// returning the cotangents of the linear inputs (zeros where nothing
// flows).
func Transpose(j *trace.Jaxpr, linear []bool) (*trace.Jaxpr, error) {
	b := trace.NewBuilder()
	var nonlin []trace.Atom
	for i, v := range j.InVars {
		if !linear[i] {
			nonlin = append(nonlin, b.Input(v.Aval()))
		}
	}
	cts := make([]trace.Atom, len(j.OutVars))
	for i, a := range j.OutVars {
		cts[i] = b.Input(a.Aval())
	}
	out, err := backwardPass(b, j, bindConsts(b, j), linear, nonlin, cts)
	if err != nil {
		return nil, err
	}
	var results []trace.Atom
	e := &trace.Emitter{B: b}
	if err := trace.Catch(func() {
		for i, v := range j.InVars {
			if linear[i] {
				results = append(results, e.Instantiate(out[i], v.Aval()))
			}
		}
	}); err != nil {
		return nil, err
	}
	return b.Build(results)
}

// backwardPass emits into b the transpose of j: nonlin holds b's atoms for
// the non-linear inputs (in order), cts one cotangent per output (nil for
// zero). It returns a cotangent per input of j, nil for the non-linear
// ones and for zeros. Equations without linear operands are evaluated
// forward first, in order (a checkpoint's recomputation among them).
func backwardPass(b *trace.Builder, j *trace.Jaxpr, consts []trace.Atom, linear []bool, nonlin, cts []trace.Atom) ([]trace.Atom, error) {
	env := map[*trace.Var]trace.Atom{}
	isLinear := map[*trace.Var]bool{}
	for i, v := range j.ConstVars {
		env[v] = consts[i]
	}
	k := 0
	for i, v := range j.InVars {
		if linear[i] {
			isLinear[v] = true
		} else {
			env[v] = nonlin[k]
			k++
		}
	}
	linearIn := func(a trace.Atom) bool {
		v, ok := a.(*trace.Var)
		return ok && isLinear[v]
	}
	value := func(a trace.Atom) trace.Atom {
		if v, ok := a.(*trace.Var); ok {
			return env[v]
		}
		return a
	}
	var linearEqns []*trace.Eqn
	for _, eqn := range j.Eqns {
		lin := false
		for _, a := range eqn.In {
			lin = lin || linearIn(a)
		}
		if lin {
			for _, v := range eqn.Out {
				isLinear[v] = true
			}
			linearEqns = append(linearEqns, eqn)
			continue
		}
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

	ct := map[*trace.Var]trace.Atom{}
	var addErr error
	accumulate := func(v *trace.Var, c trace.Atom, pos trace.Pos) {
		if c == nil || addErr != nil {
			return
		}
		prev := ct[v]
		if prev == nil {
			ct[v] = c
			return
		}
		e := &trace.Emitter{B: b, Pos: pos}
		addErr = trace.Catch(func() { ct[v] = e.Add(prev, c) })
	}
	for i, a := range j.OutVars {
		if v, ok := a.(*trace.Var); ok && isLinear[v] {
			accumulate(v, cts[i], trace.Pos{})
		}
	}
	for n := len(linearEqns) - 1; n >= 0; n-- {
		eqn := linearEqns[n]
		outCts := make([]trace.Atom, len(eqn.Out))
		any := false
		for i, v := range eqn.Out {
			outCts[i] = ct[v]
			any = any || outCts[i] != nil
		}
		if !any {
			continue
		}
		rule := eqn.Prim.Transpose
		if rule == nil {
			return nil, errorf(eqn, "cannot transpose %s: it is not linear (reverse-mode differentiation of it is not implemented)", eqn.Prim.Name)
		}
		in := make([]trace.Atom, len(eqn.In))
		mask := make([]bool, len(eqn.In))
		for i, a := range eqn.In {
			mask[i] = linearIn(a)
			if mask[i] {
				in[i] = a
			} else {
				in[i] = value(a)
			}
		}
		var inCts []trace.Atom
		e := &trace.Emitter{B: b, Pos: eqn.Pos}
		if err := trace.Catch(func() { inCts = rule(e, outCts, in, mask, eqn.Params) }); err != nil {
			return nil, eqnError(eqn, err)
		}
		for i, a := range eqn.In {
			if mask[i] && inCts[i] != nil {
				accumulate(a.(*trace.Var), inCts[i], eqn.Pos)
			}
		}
		if addErr != nil {
			return nil, eqnError(eqn, addErr)
		}
	}
	out := make([]trace.Atom, len(j.InVars))
	for i, v := range j.InVars {
		if linear[i] {
			out[i] = ct[v]
		}
	}
	return out, nil
}
