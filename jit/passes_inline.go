package jit

import (
	"github.com/jaxsh/jaxsh/trace"
)

// inlineCalls replaces every nested jit by its equations, so that fusion and
// the other passes see across the call (XLA does the same: the study's
// f_with_subjit fuses into one kernel). Each inlined body gets fresh
// variables, so a body called twice binds distinct values. A body with
// captured constants of its own is left as a call: hoisting them would
// change the program's calling convention.
//
// jit's shape rule lets an operand differ from the body's input in its weak
// flag only; such operands are converted to the input's exact type first,
// so that the body's equations keep their types.
func inlineCalls(c *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
	if !hasInlinableCall(j) {
		return j, nil
	}
	r := newRewriter(j)
	for _, e := range j.Eqns {
		e = r.operands(e)
		if isIdentity(e) {
			for i, v := range e.Out {
				r.replace(v, e.In[i])
			}
			continue
		}
		if !isInlinableCall(e) {
			r.emit(e)
			continue
		}
		outs, err := inlineBody(r, e.Params.Jaxpr(e.Prim.CallParam), e.In, e.Pos)
		if err != nil {
			return nil, err
		}
		for i, v := range e.Out {
			to, err := coerce(r, outs[i], v.Aval(), e.Pos)
			if err != nil {
				return nil, err
			}
			r.replace(v, to)
		}
	}
	return r.finish(), nil
}

func isInlinableCall(e *trace.Eqn) bool {
	if e.Prim.CallParam == "" {
		return false
	}
	body := e.Params.Jaxpr(e.Prim.CallParam)
	return body != nil && len(body.ConstVars) == 0
}

// isIdentity: an equation that returns its operands (stop_gradient, whose
// only meaning is to autodiff) is removed, its outputs replaced by them.
func isIdentity(e *trace.Eqn) bool { return e.Prim.Has(trace.Identity) }

func hasInlinableCall(j *trace.Jaxpr) bool {
	for _, e := range j.Eqns {
		if isInlinableCall(e) || isIdentity(e) {
			return true
		}
	}
	return false
}

// inlineBody emits body's equations into r with fresh variables, its inputs
// bound to args, and returns the atoms of its outputs. Nested calls inside
// the body are inlined too.
func inlineBody(r *rewriter, body *trace.Jaxpr, args []trace.Atom, pos trace.Pos) ([]trace.Atom, error) {
	local := map[*trace.Var]trace.Atom{}
	for i, v := range body.InVars {
		a, err := coerce(r, args[i], v.Aval(), pos)
		if err != nil {
			return nil, err
		}
		local[v] = a
	}
	resolve := func(a trace.Atom) trace.Atom {
		if v, ok := a.(*trace.Var); ok {
			if to, ok := local[v]; ok {
				return to
			}
		}
		return a
	}
	for _, e := range body.Eqns {
		in := make([]trace.Atom, len(e.In))
		for i, a := range e.In {
			in[i] = resolve(a)
		}
		if isIdentity(e) {
			for i, v := range e.Out {
				local[v] = in[i]
			}
			continue
		}
		if isInlinableCall(e) {
			outs, err := inlineBody(r, e.Params.Jaxpr(e.Prim.CallParam), in, e.Pos)
			if err != nil {
				return nil, err
			}
			for i, v := range e.Out {
				to, err := coerce(r, outs[i], v.Aval(), e.Pos)
				if err != nil {
					return nil, err
				}
				local[v] = to
			}
			continue
		}
		clone := &trace.Eqn{Prim: e.Prim, In: in, Params: e.Params, Pos: e.Pos, Effects: e.Effects}
		for _, v := range e.Out {
			nv := trace.NewVar(v.Aval())
			clone.Out = append(clone.Out, nv)
			local[v] = nv
		}
		r.emit(clone)
	}
	outs := make([]trace.Atom, len(body.OutVars))
	for i, a := range body.OutVars {
		outs[i] = resolve(a)
	}
	return outs, nil
}

// coerce returns a with exactly the aval want, which differs from a's at
// most in the weak flag: a literal is remade, a variable converted.
func coerce(r *rewriter, a trace.Atom, want trace.AVal, pos trace.Pos) (trace.Atom, error) {
	if a.Aval().Equal(want) {
		return a, nil
	}
	if lit, ok := a.(*trace.Literal); ok {
		return trace.NewLiteral(lit.Value(), want.DType, want.Weak)
	}
	e, err := r.bind("convert_element_type", []trace.Atom{a},
		trace.Params{"new_dtype": want.DType, "weak_type": want.Weak}, pos)
	if err != nil {
		return nil, err
	}
	return e.Out[0], nil
}
