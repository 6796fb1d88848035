package jit

import (
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// eliminateCommonSubexpressions merges equations that compute the same thing:
// same primitive, same operands (the operands of a commutative binary
// primitive in either order) and equal params (paramsEqual). The later
// equation's results become the earlier's. Effectful equations and
// optimization barriers are never merged: two prints print twice, and a
// barrier exists to keep values apart. Nested jaxprs are separate scopes:
// CSE neither looks into them nor merges across them (their params compare
// by identity).
//
// Merging never costs memory by itself: fusion decides afterwards whether a
// shared value is recomputed in each kernel or stored once (fuse.go).
func eliminateCommonSubexpressions(c *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
	r := newRewriter(j)
	seen := make(map[string][]*trace.Eqn, len(j.Eqns))
	var key strings.Builder
	merged := false
	for _, e := range j.Eqns {
		e = r.operands(e)
		if isEffectful(e) || isBarrier(e) {
			r.emit(e)
			continue
		}
		key.Reset()
		key.WriteString(e.Prim.Name)
		key.WriteByte('(')
		in := e.In
		if swapOperands(e) {
			in = []trace.Atom{e.In[1], e.In[0]}
		}
		for _, a := range in {
			atomKey(&key, a)
		}
		k := key.String()
		if prev := findEqual(seen[k], e); prev != nil {
			for i, v := range e.Out {
				r.replace(v, prev.Out[i])
			}
			merged = true
			continue
		}
		seen[k] = append(seen[k], e)
		r.emit(e)
	}
	if !merged {
		return j, nil
	}
	return r.finish(), nil
}

// swapOperands puts the operands of a commutative binary equation in a
// canonical order (by their keys), so that add a b and add b a meet.
func swapOperands(e *trace.Eqn) bool {
	if !e.Prim.Has(trace.Commutative) || len(e.In) != 2 {
		return false
	}
	var a, b strings.Builder
	atomKey(&a, e.In[0])
	atomKey(&b, e.In[1])
	return a.String() > b.String()
}

// findEqual returns the candidate with e's params and output types, or nil.
// Candidates already share e's primitive and operands.
func findEqual(candidates []*trace.Eqn, e *trace.Eqn) *trace.Eqn {
	for _, c := range candidates {
		if len(c.Out) != len(e.Out) || !paramsEqual(c.Params, e.Params) {
			continue
		}
		same := true
		for i, v := range c.Out {
			same = same && v.Aval().Equal(e.Out[i].Aval())
		}
		if same {
			return c
		}
	}
	return nil
}
