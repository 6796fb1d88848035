package jit

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// threadTokens chains the jaxpr's ordered effects with compiler tokens, as
// JAX's lowering does (sequencing-effects.txt, "compiler tokens"): each
// equation with an ordered effect takes the previous one's token as its
// first operand and produces the next as its first result. After this pass
// the order of ordered effects within a program is a data dependency, so
// the scheduler may reorder everything else freely (Options.ShuffleSeed
// shows it does not matter) and the prints still come out in program order.
//
// One chain serves every ordered kind: within a program, program order is
// what each kind needs, and one chain is also that. The chain starts with
// the first ordered equation when it can start one (a debug_print makes a
// token from nothing); otherwise a create_token equation starts it.
//
// Equations holding jaxprs (control flow) are threaded by the hook their
// primitive registers in tokenThreaders, which rewrites the bodies to carry
// the token too.
func threadTokens(_ *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
	if len(j.Effects.Ordered()) == 0 {
		return j, nil
	}
	r := newRewriter(j)
	var tok *trace.Var
	for _, old := range j.Eqns {
		e := r.operands(old)
		if len(e.Effects.Ordered()) == 0 {
			r.emit(e)
			continue
		}
		if tok == nil && !startsTokenChain(e) {
			start, err := newEqn("create_token", nil, nil, e.Pos)
			if err != nil {
				return nil, err
			}
			r.emit(start)
			tok = start.Out[0]
		}
		threaded, err := withToken(e, tok)
		if err != nil {
			return nil, fmt.Errorf("%s: threading the token through %s: %w", e.Pos, e.Prim.Name, err)
		}
		// Results keep their variables (after the new leading token), so
		// later equations and the outputs need no substitution.
		r.emit(threaded)
		tok = threaded.Out[0]
	}
	return r.finish(), nil
}

// startsTokenChain reports an equation that makes a token without being
// given one.
func startsTokenChain(e *trace.Eqn) bool { return e.Prim.Name == "debug_print" }

// A tokenThreader rewrites an equation of its primitive to take tok as its
// first operand and to produce a token as its first result, followed by
// the equation's own results (the same variables).
type tokenThreader func(e *trace.Eqn, tok *trace.Var) (*trace.Eqn, error)

// tokenThreaders holds the threaders of primitives that need more than a
// leading operand and result (those holding jaxprs, whose bodies carry the
// token).
var tokenThreaders = map[string]tokenThreader{}

// withToken threads tok (nil: none yet) through e.
func withToken(e *trace.Eqn, tok *trace.Var) (*trace.Eqn, error) {
	if th, ok := tokenThreaders[e.Prim.Name]; ok {
		return th(e, tok)
	}
	switch e.Prim.Name {
	case "debug_print":
		c := *e
		if tok != nil {
			c.In = append([]trace.Atom{tok}, e.In...)
		}
		c.Out = []*trace.Var{trace.NewVar(trace.TokenAVal)}
		return &c, nil
	case "call":
		c := *e
		c.In = append([]trace.Atom{tok}, e.In...)
		c.Out = append([]*trace.Var{trace.NewVar(trace.TokenAVal)}, e.Out...)
		return &c, nil
	}
	return nil, fmt.Errorf("primitive %s has ordered effects but no token rule", e.Prim.Name)
}
