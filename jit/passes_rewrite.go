package jit

import (
	"github.com/jaxsh/jaxsh/trace"
)

// A rewriter builds a new jaxpr from an old one, equation by equation: it
// substitutes replaced variables in operands, keeps unchanged equations
// (shared with the old jaxpr, which is never modified), and appends new
// ones. A replacement is always an atom of the new jaxpr, so one lookup
// resolves it.
type rewriter struct {
	old   *trace.Jaxpr
	subst map[*trace.Var]trace.Atom
	eqns  []*trace.Eqn
	// producer maps each output var of an equation of the new jaxpr to it.
	producer map[*trace.Var]*trace.Eqn
	// extraConsts are constants (vars and values) appended to ConstVars.
	extraConstVars []*trace.Var
	extraConsts    []any
	// dropConsts marks ConstVars to leave out of the new jaxpr.
	dropConsts map[*trace.Var]bool
}

func newRewriter(old *trace.Jaxpr) *rewriter {
	return &rewriter{
		old:      old,
		subst:    map[*trace.Var]trace.Atom{},
		eqns:     make([]*trace.Eqn, 0, len(old.Eqns)),
		producer: make(map[*trace.Var]*trace.Eqn, len(old.Eqns)),
	}
}

// atom resolves a substituted variable.
func (r *rewriter) atom(a trace.Atom) trace.Atom {
	if v, ok := a.(*trace.Var); ok {
		if to, ok := r.subst[v]; ok {
			return to
		}
	}
	return a
}

// replace makes later uses of v read to instead.
func (r *rewriter) replace(v *trace.Var, to trace.Atom) { r.subst[v] = to }

// operands returns e with its operands resolved: e itself when none
// changed, else a copy.
func (r *rewriter) operands(e *trace.Eqn) *trace.Eqn {
	var in []trace.Atom
	for i, a := range e.In {
		if b := r.atom(a); b != a {
			if in == nil {
				in = append([]trace.Atom(nil), e.In...)
			}
			in[i] = b
		}
	}
	if in == nil {
		return e
	}
	c := *e
	c.In = in
	return &c
}

// emit appends an equation of the new jaxpr.
func (r *rewriter) emit(e *trace.Eqn) {
	r.eqns = append(r.eqns, e)
	for _, v := range e.Out {
		r.producer[v] = e
	}
}

// bind makes and emits a new equation (its outputs fresh variables) after
// checking it with the primitive's shape rule.
func (r *rewriter) bind(prim string, in []trace.Atom, params trace.Params, pos trace.Pos) (*trace.Eqn, error) {
	e, err := newEqn(prim, in, params, pos)
	if err != nil {
		return nil, err
	}
	r.emit(e)
	return e, nil
}

// newEqn makes an equation with fresh output variables, checked by the
// primitive's shape rule.
func newEqn(prim string, in []trace.Atom, params trace.Params, pos trace.Pos) (*trace.Eqn, error) {
	p := trace.Lookup(prim)
	if params == nil {
		params = trace.Params{}
	}
	avals := make([]trace.AVal, len(in))
	for i, a := range in {
		avals[i] = a.Aval()
	}
	outs, effects, err := p.Infer(avals, params)
	if err != nil {
		return nil, err
	}
	e := &trace.Eqn{Prim: p, In: in, Params: params, Pos: pos, Effects: effects}
	for _, a := range outs {
		e.Out = append(e.Out, trace.NewVar(a))
	}
	return e, nil
}

// addConst appends a constant to the new jaxpr's ConstVars.
func (r *rewriter) addConst(v *trace.Var, value any) {
	r.extraConstVars = append(r.extraConstVars, v)
	r.extraConsts = append(r.extraConsts, value)
}

// finish builds the new jaxpr: the old one's constants and inputs (less
// dropped constants, plus added ones), the emitted equations, the resolved
// outputs, and the union of the equations' effects.
func (r *rewriter) finish() *trace.Jaxpr {
	j := &trace.Jaxpr{InVars: r.old.InVars, Eqns: r.eqns}
	for i, v := range r.old.ConstVars {
		if !r.dropConsts[v] {
			j.ConstVars = append(j.ConstVars, v)
			j.Consts = append(j.Consts, r.old.Consts[i])
		}
	}
	j.ConstVars = append(j.ConstVars, r.extraConstVars...)
	j.Consts = append(j.Consts, r.extraConsts...)
	j.OutVars = make([]trace.Atom, len(r.old.OutVars))
	for i, a := range r.old.OutVars {
		j.OutVars[i] = r.atom(a)
	}
	for _, e := range r.eqns {
		j.Effects = j.Effects.Union(e.Effects)
	}
	return j
}

// isEffectful reports whether an equation must run even if its results are
// unused, and must not be merged with another or reordered against other
// effects.
func isEffectful(e *trace.Eqn) bool {
	return len(e.Effects) > 0 || e.Prim.Has(trace.HostOp)
}

// isBarrier reports an optimization_barrier: no computation moves across it.
func isBarrier(e *trace.Eqn) bool { return e.Prim.Name == "optimization_barrier" }

// bytesOf is the size of an aval's elements in memory.
func bytesOf(a trace.AVal) int { return a.Size() * a.DType.Size() }
