package jit

import (
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// DefaultFoldLimit is the largest result, in bytes, constant folding
// produces (SPEC §4: small values only).
const DefaultFoldLimit = 1024

// A RefusedFold is an equation folding could have evaluated but did not,
// because a result would have been larger than the limit: a large constant
// would have grown the program (the study's "worst of all evils").
type RefusedFold struct {
	Prim   string
	Pos    trace.Pos
	Result trace.AVal
	Bytes  int
	Limit  int
}

func (r RefusedFold) String() string {
	return fmt.Sprintf("not folding %s at %s: its %s result would take %d bytes, over the %d-byte limit",
		r.Prim, r.Pos, r.Result, r.Bytes, r.Limit)
}

// foldConstants evaluates, with the caller's Evaluator, every pure equation
// whose operands are all constants (literals, or arrays earlier folds
// made) when each result takes at most the fold limit (1 KiB). A scalar
// result becomes a literal; an array whose elements are all equal becomes a
// broadcast of a literal (a splat: free inside a fused loop); any other
// array becomes an embedded constant (when the backend takes them).
//
// Never folded: captured constants (the caller's device arrays are
// arguments, whatever their size), effectful equations, barriers, calls,
// and broadcast_in_dim, which would only turn a free index map into bytes
// to store (XLA skips it for the same reason). A result over the limit is
// refused and reported through Options.OnRefusedFold.
func foldConstants(c *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
	limit := c.opts.FoldLimit
	if limit <= 0 {
		limit = DefaultFoldLimit
	}
	known := map[*trace.Var]*Constant{}
	for i, v := range j.ConstVars[c.numCapturedConsts:] {
		known[v] = j.Consts[c.numCapturedConsts+i].(*Constant)
	}
	r := newRewriter(j)
	folded := false
	for _, e := range j.Eqns {
		e = r.operands(e)
		in, ok := constantOperands(e, known)
		if !ok || !foldable(e) {
			r.emit(e)
			continue
		}
		if big := largestResult(e); bytesOf(big) > limit {
			if c.opts.OnRefusedFold != nil {
				c.opts.OnRefusedFold(RefusedFold{Prim: e.Prim.Name, Pos: e.Pos, Result: big, Bytes: bytesOf(big), Limit: limit})
			}
			r.emit(e)
			continue
		}
		outs, err := c.opts.Evaluator.Evaluate(e, in)
		if err != nil || !resultsMatch(e, outs) || !representable(c, outs) {
			// Not foldable after all (the evaluator cannot run it, or the
			// result needs an embedded constant the backend cannot take):
			// it runs with the program, which reports any error then.
			r.emit(e)
			continue
		}
		for i, v := range e.Out {
			to, err := constantAtom(r, outs[i], v, e.Pos)
			if err != nil {
				return nil, err
			}
			if to == v {
				known[v] = outs[i]
			} else {
				r.replace(v, to)
			}
		}
		folded = true
	}
	if !folded {
		return j, nil
	}
	return r.finish(), nil
}

// foldable reports whether folding may evaluate e. Tokens (create_token's
// result) have no value to fold into.
func foldable(e *trace.Eqn) bool {
	return !isEffectful(e) && !isBarrier(e) && !e.Prim.Has(trace.CallsJaxpr) &&
		e.Prim.Name != "broadcast_in_dim" && len(e.Out) > 0 &&
		!slices.ContainsFunc(e.Out, func(v *trace.Var) bool { return v.Aval().IsToken() })
}

// constantOperands returns e's operands as Constants, if all are known.
func constantOperands(e *trace.Eqn, known map[*trace.Var]*Constant) ([]*Constant, bool) {
	in := make([]*Constant, len(e.In))
	for i, a := range e.In {
		switch x := a.(type) {
		case *trace.Literal:
			in[i] = constantOf(x)
		case *trace.Var:
			k, ok := known[x]
			if !ok {
				return nil, false
			}
			in[i] = k
		}
	}
	return in, true
}

func largestResult(e *trace.Eqn) trace.AVal {
	big := e.Out[0].Aval()
	for _, v := range e.Out[1:] {
		if bytesOf(v.Aval()) > bytesOf(big) {
			big = v.Aval()
		}
	}
	return big
}

func resultsMatch(e *trace.Eqn, outs []*Constant) bool {
	if len(outs) != len(e.Out) {
		return false
	}
	for i, v := range e.Out {
		if outs[i] == nil || !outs[i].AVal.SameType(v.Aval()) || len(outs[i].Data) != bytesOf(v.Aval()) {
			return false
		}
	}
	return true
}

// representable reports whether every result can be written into the
// program: as a literal or splat, or as an embedded constant when allowed.
func representable(c *compilation, outs []*Constant) bool {
	for _, k := range outs {
		if k.AVal.Size() == 0 {
			return false
		}
		if k.AVal.Rank() > 0 && !k.uniform() && !c.opts.EmbedConstants {
			return false
		}
	}
	return true
}

// constantAtom writes a folded result k of v into the program and returns
// the atom that now stands for v: a literal, a splat's output, or v itself,
// rebound as an embedded constant.
func constantAtom(r *rewriter, k *Constant, v *trace.Var, pos trace.Pos) (trace.Atom, error) {
	k = &Constant{AVal: v.Aval(), Data: k.Data} // keep v's weak flag
	if k.AVal.Rank() > 0 && !k.uniform() {
		r.addConst(v, k)
		return v, nil
	}
	lit, err := k.literal()
	if err != nil {
		return nil, err
	}
	if k.AVal.Rank() == 0 {
		return lit, nil
	}
	return splat(r, lit, k.AVal.Shape, pos)
}

// splat emits a broadcast of the rank-0 atom a to shape.
func splat(r *rewriter, a trace.Atom, shape trace.Shape, pos trace.Pos) (trace.Atom, error) {
	e, err := r.bind("broadcast_in_dim", []trace.Atom{a},
		trace.Params{"shape": []int(shape.Clone()), "broadcast_dimensions": []int{}}, pos)
	if err != nil {
		return nil, err
	}
	return e.Out[0], nil
}
