package jit

import (
	"fmt"
	"maps"

	"github.com/jaxsh/jaxsh/trace"
)

// Token threading through control flow (see threadTokens). A control-flow
// equation with ordered effects takes the token as its first operand and
// returns it as its first result; its bodies take it as their first input
// after their consts and return it first (the layouts are in
// trace/prims_control.go). Inside a body the token is threaded through the
// body's own ordered equations, nested control flow included, exactly as
// at the top level. So:
//
//   - cond: every branch takes and returns the token; only the branch that
//     runs chains its effects.
//   - while: the token is a carry. The condition takes it too and returns
//     it with the predicate, so a print in the condition runs before each
//     body and once more at the end, in order.
//   - scan: the token is a carry.
func init() {
	tokenThreaders["cond"] = threadCond
	tokenThreaders["while"] = threadWhile
	tokenThreaders["scan"] = threadScan
}

func threadCond(e *trace.Eqn, tok *trace.Var) (*trace.Eqn, error) {
	branches := e.Params["branches"].([]*trace.Jaxpr)
	nbs := make([]*trace.Jaxpr, len(branches))
	for i, b := range branches {
		nb, err := threadBody(b, 0)
		if err != nil {
			return nil, fmt.Errorf("branch %d: %w", i, err)
		}
		nbs[i] = nb
	}
	params := maps.Clone(e.Params)
	params["branches"] = nbs
	return withLeadingToken(e, tok, params)
}

func threadWhile(e *trace.Eqn, tok *trace.Var) (*trace.Eqn, error) {
	cond, err := threadBody(e.Params.Jaxpr("cond_jaxpr"), e.Params.Int("cond_nconsts"))
	if err != nil {
		return nil, fmt.Errorf("cond_jaxpr: %w", err)
	}
	body, err := threadBody(e.Params.Jaxpr("body_jaxpr"), e.Params.Int("body_nconsts"))
	if err != nil {
		return nil, fmt.Errorf("body_jaxpr: %w", err)
	}
	params := maps.Clone(e.Params)
	params["cond_jaxpr"], params["body_jaxpr"] = cond, body
	return withLeadingToken(e, tok, params)
}

func threadScan(e *trace.Eqn, tok *trace.Var) (*trace.Eqn, error) {
	body, err := threadBody(e.Params.Jaxpr("jaxpr"), e.Params.Int("num_consts"))
	if err != nil {
		return nil, err
	}
	params := maps.Clone(e.Params)
	params["jaxpr"] = body
	return withLeadingToken(e, tok, params)
}

// withLeadingToken makes e with params, tok as its first operand and a new
// token as its first result, checked by the primitive's shape rule.
func withLeadingToken(e *trace.Eqn, tok *trace.Var, params trace.Params) (*trace.Eqn, error) {
	if tok == nil {
		return nil, fmt.Errorf("%s needs a token to start from", e.Prim.Name)
	}
	c := *e
	c.In = append([]trace.Atom{tok}, e.In...)
	c.Params = params
	c.Out = append([]*trace.Var{trace.NewVar(trace.TokenAVal)}, e.Out...)
	avals := make([]trace.AVal, len(c.In))
	for i, a := range c.In {
		avals[i] = a.Aval()
	}
	outs, effects, err := e.Prim.Infer(avals, params)
	if err != nil {
		return nil, err
	}
	if len(outs) != len(c.Out) {
		return nil, fmt.Errorf("threaded %s has %d results, want %d", e.Prim.Name, len(outs), len(c.Out))
	}
	c.Effects = effects
	return &c, nil
}

// threadBody returns j taking a token as input at (after its consts) and
// returning it first, threaded through j's ordered equations.
func threadBody(j *trace.Jaxpr, at int) (*trace.Jaxpr, error) {
	tok := trace.NewVar(trace.TokenAVal)
	r := newRewriter(j)
	cur := tok
	for _, old := range j.Eqns {
		e := r.operands(old)
		if len(e.Effects.Ordered()) == 0 {
			r.emit(e)
			continue
		}
		threaded, err := withToken(e, cur)
		if err != nil {
			return nil, fmt.Errorf("%s: threading the token through %s: %w", e.Pos, e.Prim.Name, err)
		}
		r.emit(threaded)
		cur = threaded.Out[0]
	}
	out := r.finish()
	out.InVars = make([]*trace.Var, 0, len(j.InVars)+1)
	out.InVars = append(append(append(out.InVars, j.InVars[:at]...), tok), j.InVars[at:]...)
	out.OutVars = append([]trace.Atom{cur}, out.OutVars...)
	return out, nil
}
