package jit

import (
	"github.com/jaxsh/jaxsh/trace"
)

// An optimization_barrier computes nothing: its results are its operands.
// What it means is a constraint, which the compiler keeps after removing
// the equation:
//   - nothing fuses across it: its operands are written to memory, and
//     equations that read its results read that memory (no recomputation
//     of the operands' producers after the barrier);
//   - it orders its operands: every operand is computed before any
//     equation that reads any of its results runs (JAX's documentation;
//     the study uses it to serialise branches and cut peak memory).
//
// An operand computed from literals alone (a broadcast of a constant, an
// iota) is exempt from both: it has no inputs to wait for and nothing to
// protect from recomputation, so its readers compute it themselves
// instead of reading it from memory. Reverse mode meets this at every
// checkpoint whose cotangent is a broadcast one: it goes through the
// barrier that pins the recomputation to the backward pass, and
// materialising it cost a whole activation-sized buffer.

// A barrier is what remains of one optimization_barrier once removed.
type barrier struct {
	// ins are its variable operands, which must be materialised.
	ins []*trace.Var
	// readers are the equations (of the barrier-free jaxpr) that read any
	// of its results, directly or through later barriers.
	readers []*trace.Eqn
}

// resolveBarriers returns j without optimization_barrier equations (each
// result replaced by its operand) and the barriers' constraints.
func resolveBarriers(j *trace.Jaxpr) (*trace.Jaxpr, []*barrier) {
	has := false
	for _, e := range j.Eqns {
		has = has || isBarrier(e)
	}
	if !has {
		return j, nil
	}
	r := newRewriter(j)
	var barriers []*barrier
	// outOf maps each removed barrier result to its barrier.
	outOf := map[*trace.Var]int{}
	// children[b] are barriers that read b's results: their readers read
	// b's values too.
	var children [][]int
	// fromLiterals are the variables computed from literals alone.
	fromLiterals := map[*trace.Var]bool{}
	for _, e := range j.Eqns {
		if !isBarrier(e) && !isEffectful(e) && len(e.Out) > 0 {
			constant := true
			for _, a := range e.In {
				if v, ok := a.(*trace.Var); ok && !fromLiterals[v] {
					constant = false
				}
			}
			for _, v := range e.Out {
				fromLiterals[v] = constant
			}
		}
		reads := map[int]bool{}
		for _, a := range e.In {
			if v, ok := a.(*trace.Var); ok {
				if b, ok := outOf[v]; ok {
					reads[b] = true
				}
			}
		}
		ne := r.operands(e)
		if !isBarrier(e) {
			r.emit(ne)
			for b := range reads {
				barriers[b].readers = append(barriers[b].readers, ne)
			}
			continue
		}
		b := &barrier{}
		for i, a := range ne.In {
			v, ok := a.(*trace.Var)
			if ok && !fromLiterals[v] {
				b.ins = append(b.ins, v)
			}
			fromLiterals[e.Out[i]] = !ok || fromLiterals[v]
			r.replace(e.Out[i], a)
			outOf[e.Out[i]] = len(barriers)
		}
		for parent := range reads {
			children[parent] = append(children[parent], len(barriers))
		}
		barriers = append(barriers, b)
		children = append(children, nil)
	}
	// Children come after their parents: propagate readers backwards.
	for b := len(barriers) - 1; b >= 0; b-- {
		for _, c := range children[b] {
			barriers[b].readers = append(barriers[b].readers, barriers[c].readers...)
		}
	}
	return r.finish(), barriers
}
