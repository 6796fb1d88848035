package jit

import (
	"github.com/jaxsh/jaxsh/trace"
)

// eliminateDeadCode removes equations none of whose results is used, and
// embedded constants nothing reads. Effectful equations (effects, or a host
// operation) always stay: a print runs even when its token is unused. An
// equation with some results used stays whole. Captured constants and
// inputs stay too: they are the program's calling convention.
func eliminateDeadCode(c *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
	live := make(map[*trace.Var]bool, len(j.Eqns))
	for _, a := range j.OutVars {
		if v, ok := a.(*trace.Var); ok {
			live[v] = true
		}
	}
	keep := make([]bool, len(j.Eqns))
	removed := false
	for i := len(j.Eqns) - 1; i >= 0; i-- {
		e := j.Eqns[i]
		keep[i] = isEffectful(e)
		for _, v := range e.Out {
			keep[i] = keep[i] || live[v]
		}
		if !keep[i] {
			removed = true
			continue
		}
		for _, a := range e.In {
			if v, ok := a.(*trace.Var); ok {
				live[v] = true
			}
		}
	}
	var dead map[*trace.Var]bool
	for _, v := range j.ConstVars[c.numCapturedConsts:] {
		if !live[v] {
			if dead == nil {
				dead = map[*trace.Var]bool{}
			}
			dead[v] = true
		}
	}
	if !removed && dead == nil {
		return j, nil
	}
	r := newRewriter(j)
	r.dropConsts = dead
	for i, e := range j.Eqns {
		if keep[i] {
			r.emit(e)
		}
	}
	return r.finish(), nil
}
