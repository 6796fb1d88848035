package jit

import (
	"math"

	"github.com/jaxsh/jaxsh/trace"
)

// simplify applies algebraic identities that hold bit for bit, so a
// simplified program computes exactly what the traced one does (and what
// eager execution does):
//
//   - x*1, x/1, x-0 and x+(-0.0) are x; x+0 is x for integers, and for a
//     float only where x cannot be -0.0 (x+0.0 turns -0.0 into +0.0): x
//     converted from an integer, iota, abs, exp, square and the like.
//     Complex operands are left alone (their products mix components).
//   - neg(neg x), not(not x), integer_pow[y=1] x, copy x, max/min/and/or of
//     x with itself, and select_n whose cases are all x are x; select_n
//     with a literal selector is the selected case.
//   - Conversions to the same type, reshapes to the same shape,
//     broadcasts to the same shape, identity transposes, and squeeze, rev,
//     slice, pad, concatenate and reductions that change nothing are their
//     operand. Chains of reshapes, broadcasts and transposes become one.
//   - An elementwise operation whose array operands are all splats (a
//     broadcast of a scalar) becomes the scalar operation, broadcast once;
//     an index map of a splat is a splat. Folding then evaluates the
//     scalar, so jnp.ones((n, n)) * 2 costs nothing at run time.
//
// A replacement must have the replaced value's exact aval, weak flag
// included, so no later equation changes type. Floating-point
// reassociation (XLA turns (x + 25) + 3 into x + 28) is not done: it
// changes results.
func simplify(c *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
	s := &simplifier{rewriter: newRewriter(j)}
	changed := false
	for _, e := range j.Eqns {
		e = s.operands(e)
		if len(e.Out) == 1 && !isEffectful(e) && !isBarrier(e) {
			to, err := s.simplifyEqn(e)
			if err != nil {
				return nil, err
			}
			if to != nil {
				s.replace(e.Out[0], to)
				changed = true
				continue
			}
		}
		s.emit(e)
	}
	if !changed {
		return j, nil
	}
	return s.finish(), nil
}

type simplifier struct{ *rewriter }

// simplifyEqn returns what e's result simplifies to, or nil.
func (s *simplifier) simplifyEqn(e *trace.Eqn) (trace.Atom, error) {
	out := e.Out[0].Aval()
	// same returns a if it can stand for e's result.
	same := func(a trace.Atom) trace.Atom {
		if a.Aval().Equal(out) {
			return a
		}
		return nil
	}
	in := e.In
	switch e.Prim.Name {
	case "mul":
		if x := s.identityOperand(e, func(v any, _ trace.Atom) bool { return isOne(v) }); x != nil {
			return same(x), nil
		}
	case "add":
		if x := s.identityOperand(e, s.isAdditiveIdentity); x != nil {
			return same(x), nil
		}
	case "sub":
		if s.isZeroKeepingSign(in[1], in[0]) {
			return same(in[0]), nil
		}
	case "div":
		if !in[0].Aval().DType.IsComplex() && isOne(s.scalarValue(in[1])) {
			return same(in[0]), nil
		}
	case "neg", "not":
		if p := s.producerOf(in[0], e.Prim.Name); p != nil {
			return same(p.In[0]), nil
		}
	case "copy":
		return same(in[0]), nil
	case "integer_pow":
		if e.Params.Int("y") == 1 {
			return same(in[0]), nil
		}
	case "max", "min", "and", "or":
		if atomsEqual(in[0], in[1]) {
			return same(in[0]), nil
		}
	case "select_n":
		return s.simplifySelect(e, same), nil
	case "convert_element_type":
		return same(in[0]), nil
	case "reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or":
		if len(e.Params.Ints("axes")) == 0 {
			return same(in[0]), nil
		}
	case "squeeze", "rev":
		if len(e.Params.Ints("dimensions")) == 0 {
			return same(in[0]), nil
		}
	case "concatenate":
		if len(in) == 1 {
			return same(in[0]), nil
		}
	case "slice", "pad":
		if in[0].Aval().Shape.Equal(out.Shape) {
			// A slice or pad that keeps the shape keeps every element
			// (pad's negative edges would cut; equal shapes rule that
			// out only together with no interior padding).
			if e.Prim.Name == "slice" || padIsNoop(e) {
				return same(in[0]), nil
			}
		}
	}
	if a, err := s.simplifyIndexMap(e, same); a != nil || err != nil {
		return a, err
	}
	return s.sinkSplats(e)
}

// identityOperand returns the operand x of a binary e whose other
// operand's scalar value v is an identity for x (isIdentity(v, x)).
func (s *simplifier) identityOperand(e *trace.Eqn, isIdentity func(v any, x trace.Atom) bool) trace.Atom {
	for i := 0; i < 2; i++ {
		x, other := e.In[i], e.In[1-i]
		if x.Aval().DType.IsComplex() {
			return nil
		}
		if v := s.scalarValue(other); v != nil && isIdentity(v, x) {
			return x
		}
	}
	return nil
}

// isAdditiveIdentity: x + 0 = x for integers; for floats x + (-0.0) = x
// always, x + 0.0 = x only when x cannot be -0.0.
func (s *simplifier) isAdditiveIdentity(zero any, x trace.Atom) bool {
	if !isZero(zero) {
		return false
	}
	f, isFloat := zero.(float64)
	return !isFloat || math.Signbit(f) || s.cannotBeNegativeZero(x)
}

// isZeroKeepingSign reports whether x - z = x: z is an integer zero or a
// float +0.0 (x - 0.0 keeps -0.0; x - (-0.0) does not).
func (s *simplifier) isZeroKeepingSign(z, x trace.Atom) bool {
	if x.Aval().DType.IsComplex() {
		return false
	}
	v := s.scalarValue(z)
	if !isZero(v) {
		return false
	}
	f, isFloat := v.(float64)
	return !isFloat || !math.Signbit(f)
}

// cannotBeNegativeZero reports whether x is never -0.0: its producer rules
// it out.
func (s *simplifier) cannotBeNegativeZero(x trace.Atom) bool {
	if lit, ok := x.(*trace.Literal); ok {
		f, isFloat := lit.Value().(float64)
		return !isFloat || !(f == 0 && math.Signbit(f))
	}
	p := s.producer[x.(*trace.Var)]
	if p == nil {
		return false
	}
	switch p.Prim.Name {
	case "convert_element_type":
		dt := p.In[0].Aval().DType
		return dt.IsInteger() || dt == trace.Bool
	case "iota", "abs", "exp", "exp2", "square", "logistic":
		return true
	case "integer_pow":
		return p.Params.Int("y")%2 == 0
	case "broadcast_in_dim", "reshape", "transpose", "squeeze", "rev", "slice", "copy":
		return s.cannotBeNegativeZero(p.In[0])
	}
	return false
}

// scalarValue returns the value of a literal, or of a splat of a literal;
// nil otherwise.
func (s *simplifier) scalarValue(a trace.Atom) any {
	if lit, ok := a.(*trace.Literal); ok {
		return lit.Value()
	}
	if src := s.splatSource(a); src != nil {
		if lit, ok := src.(*trace.Literal); ok {
			return lit.Value()
		}
	}
	return nil
}

// splatSource returns the rank-0 atom a splat broadcasts, or nil if a is
// not a splat.
func (s *simplifier) splatSource(a trace.Atom) trace.Atom {
	v, ok := a.(*trace.Var)
	if !ok {
		return nil
	}
	p := s.producer[v]
	if p == nil || p.Prim.Name != "broadcast_in_dim" || p.In[0].Aval().Rank() != 0 {
		return nil
	}
	return p.In[0]
}

// producerOf returns the equation of primitive prim that computes a, or nil.
func (s *simplifier) producerOf(a trace.Atom, prim string) *trace.Eqn {
	v, ok := a.(*trace.Var)
	if !ok {
		return nil
	}
	if p := s.producer[v]; p != nil && p.Prim.Name == prim {
		return p
	}
	return nil
}

func isZero(v any) bool {
	switch x := v.(type) {
	case int64:
		return x == 0
	case float64:
		return x == 0
	}
	return false
}

func isOne(v any) bool {
	switch x := v.(type) {
	case int64:
		return x == 1
	case float64:
		return x == 1
	}
	return false
}

func (s *simplifier) simplifySelect(e *trace.Eqn, same func(trace.Atom) trace.Atom) trace.Atom {
	cases := e.In[1:]
	all := true
	for _, c := range cases[1:] {
		all = all && atomsEqual(c, cases[0])
	}
	if all {
		return same(cases[0])
	}
	lit, ok := e.In[0].(*trace.Literal)
	if !ok {
		return nil
	}
	k := 0
	switch w := lit.Value().(type) {
	case bool:
		if w {
			k = 1
		}
	case int64:
		// select_n clamps nothing: an out-of-range literal selector is
		// left for the runtime.
		if w < 0 || int(w) >= len(cases) {
			return nil
		}
		k = int(w)
	}
	return same(cases[k])
}

func padIsNoop(e *trace.Eqn) bool {
	cfg, _ := trace.ParamAs[trace.PaddingConfig](e.Params, "padding_config")
	for _, d := range cfg {
		if d != (trace.PadDim{}) {
			return false
		}
	}
	return true
}

// isIdentityPerm reports whether perm is 0, 1, ..., n-1.
func isIdentityPerm(perm []int) bool {
	for i, p := range perm {
		if p != i {
			return false
		}
	}
	return true
}

// simplifyIndexMap drops identity reshapes, broadcasts and transposes,
// merges chains of them, and turns an index map of a splat into a splat.
func (s *simplifier) simplifyIndexMap(e *trace.Eqn, same func(trace.Atom) trace.Atom) (trace.Atom, error) {
	out := e.Out[0].Aval()
	if len(e.In) == 0 {
		return nil, nil
	}
	x := e.In[0]
	switch e.Prim.Name {
	case "reshape":
		if x.Aval().Shape.Equal(out.Shape) {
			return same(x), nil
		}
		if p := s.producerOf(x, "reshape"); p != nil {
			return s.rebind(e, "reshape", p.In[0], trace.Params{"new_sizes": []int(out.Shape.Clone())})
		}
	case "broadcast_in_dim":
		bdims := e.Params.Ints("broadcast_dimensions")
		if x.Aval().Shape.Equal(out.Shape) && isIdentityPerm(bdims) {
			return same(x), nil
		}
		if p := s.producerOf(x, "broadcast_in_dim"); p != nil {
			inner := p.Params.Ints("broadcast_dimensions")
			composed := make([]int, len(inner))
			for i, d := range inner {
				composed[i] = bdims[d]
			}
			return s.rebind(e, "broadcast_in_dim", p.In[0],
				trace.Params{"shape": []int(out.Shape.Clone()), "broadcast_dimensions": composed})
		}
		return nil, nil // a splat is already a broadcast
	case "transpose":
		perm := e.Params.Ints("permutation")
		if isIdentityPerm(perm) {
			return same(x), nil
		}
		if p := s.producerOf(x, "transpose"); p != nil {
			inner := p.Params.Ints("permutation")
			composed := make([]int, len(perm))
			for i, d := range perm {
				composed[i] = inner[d]
			}
			if isIdentityPerm(composed) {
				return same(p.In[0]), nil
			}
			return s.rebind(e, "transpose", p.In[0], trace.Params{"permutation": composed})
		}
	}
	if FusionClassOf(e.Prim) == FuseIndexMap && len(e.In) == 1 && out.Rank() > 0 {
		if src := s.splatSource(x); src != nil {
			a, err := splat(s.rewriter, src, out.Shape, e.Pos)
			if err != nil {
				return nil, err
			}
			return same(a), nil
		}
	}
	return nil, nil
}

// rebind emits prim(x) with params in place of e, if it has e's exact type.
func (s *simplifier) rebind(e *trace.Eqn, prim string, x trace.Atom, params trace.Params) (trace.Atom, error) {
	n, err := newEqn(prim, []trace.Atom{x}, params, e.Pos)
	if err != nil || !n.Out[0].Aval().Equal(e.Out[0].Aval()) {
		return nil, nil // the chain does not compose to e's type: keep e
	}
	s.emit(n)
	return n.Out[0], nil
}

// sinkSplats turns an elementwise e whose array operands are all splats of
// e's shape into the scalar operation broadcast to that shape.
func (s *simplifier) sinkSplats(e *trace.Eqn) (trace.Atom, error) {
	out := e.Out[0].Aval()
	if FusionClassOf(e.Prim) != FuseElementwise || out.Rank() == 0 {
		return nil, nil
	}
	scalars := make([]trace.Atom, len(e.In))
	splats := 0
	for i, a := range e.In {
		if a.Aval().Rank() == 0 {
			scalars[i] = a
			continue
		}
		src := s.splatSource(a)
		if src == nil || !a.Aval().Shape.Equal(out.Shape) {
			return nil, nil
		}
		scalars[i] = src
		splats++
	}
	if splats == 0 {
		return nil, nil
	}
	n, err := newEqn(e.Prim.Name, scalars, e.Params, e.Pos)
	if err != nil || !n.Out[0].Aval().Equal(out.WithShape(trace.Shape{})) {
		return nil, nil
	}
	s.emit(n)
	a, err := splat(s.rewriter, n.Out[0], out.Shape, e.Pos)
	if err != nil {
		return nil, err
	}
	if !a.Aval().Equal(out) {
		return nil, nil
	}
	return a, nil
}
