package trace

import (
	"fmt"
)

// Control flow: primitives that apply nested jaxprs conditionally or
// repeatedly, as JAX's lax.cond, lax.while_loop and lax.scan do. Their
// bodies are jaxprs without constvars: values a body closes over are
// explicit operands of the equation (JAX's consts), so a body is a closed
// function of its inputs.
//
// Each may carry an effect token. When the compiler threads tokens (jit's
// tokens pass), the equation's first operand and first result are tokens,
// and every body takes the token as its first input after its consts and
// returns it as its first output:
//
//	cond   [tok] index ops...            branches: ([tok] ops...) -> ([tok] outs...)
//	while  [tok] cconsts bconsts carry   cond_jaxpr: (cconsts [tok] carry) -> ([tok] pred)
//	                                     body_jaxpr: (bconsts [tok] carry) -> ([tok] carry)
//	scan   [tok] consts carry xs         jaxpr: (consts [tok] carry x) -> ([tok] carry y)
//
// The token goes through the loop condition too: a print in a while loop's
// condition runs, in order, before every evaluation of the body and once
// more before the loop ends (JAX carries the token and the predicate).
//
// Effects of a control-flow equation are the union of its bodies'.

func init() {
	for _, p := range controlPrims() {
		if err := Register(p); err != nil {
			panic(err) // a programming error in this package's tables
		}
	}
}

// ControlFlowPrims names the control-flow primitives.
var ControlFlowPrims = []string{"cond", "while", "scan"}

// IsControlFlow reports whether p is a control-flow primitive.
func IsControlFlow(p *Primitive) bool {
	return p != nil && (p.Name == "cond" || p.Name == "while" || p.Name == "scan")
}

func controlPrims() []*Primitive {
	return []*Primitive{
		{
			// Applies branches[index] to the operands. The index is an int32
			// scalar in range (lax.switch clamps it before).
			Name: "cond", Props: CallsJaxpr, MinIn: 1, MaxIn: -1,
			Params: []ParamSpec{{Name: "branches", Kind: ParamJaxprs}},
			Rule:   condRule,
			Effects: func(_ []AVal, p Params) Effects {
				var es Effects
				for _, b := range p["branches"].([]*Jaxpr) {
					es = es.Union(b.Effects)
				}
				return es
			},
		},
		{
			// Applies body_jaxpr to the carry while cond_jaxpr says so.
			Name: "while", Props: CallsJaxpr, MinIn: 0, MaxIn: -1,
			Params: []ParamSpec{
				{Name: "body_jaxpr", Kind: ParamJaxpr}, {Name: "body_nconsts", Kind: ParamInt},
				{Name: "cond_jaxpr", Kind: ParamJaxpr}, {Name: "cond_nconsts", Kind: ParamInt},
			},
			Rule: whileRule,
			Effects: func(_ []AVal, p Params) Effects {
				return p.Jaxpr("cond_jaxpr").Effects.Union(p.Jaxpr("body_jaxpr").Effects)
			},
		},
		{
			// Loops jaxpr over the leading axis of xs, length times (in
			// reverse with reverse=True), carrying num_carry values and
			// stacking the per-iteration outputs ys. unroll is how many
			// iterations the compiler runs per trip through the loop.
			Name: "scan", Props: CallsJaxpr, MinIn: 0, MaxIn: -1,
			Params: []ParamSpec{
				{Name: "jaxpr", Kind: ParamJaxpr}, {Name: "length", Kind: ParamInt},
				{Name: "reverse", Kind: ParamBool}, {Name: "num_consts", Kind: ParamInt},
				{Name: "num_carry", Kind: ParamInt}, {Name: "unroll", Kind: ParamInt},
			},
			Rule:    scanRule,
			Effects: func(_ []AVal, p Params) Effects { return p.Jaxpr("jaxpr").Effects },
		},
	}
}

// splitToken removes a leading token from avals.
func splitToken(in []AVal) (bool, []AVal) {
	if len(in) > 0 && in[0].IsToken() {
		return true, in[1:]
	}
	return false, in
}

// withTokenAt inserts a token aval at position i when tok is set.
func withTokenAt(tok bool, avals []AVal, i int) []AVal {
	if !tok {
		return avals
	}
	out := make([]AVal, 0, len(avals)+1)
	out = append(out, avals[:i]...)
	out = append(out, TokenAVal)
	return append(out, avals[i:]...)
}

// checkJaxprInputs requires the jaxpr's inputs to have the types of in
// (weak flags may differ, as for jit).
func checkJaxprInputs(what string, j *Jaxpr, in []AVal) error {
	if len(j.ConstVars) != 0 {
		return fmt.Errorf("%s has %d constvars; a body's captured values must be operands", what, len(j.ConstVars))
	}
	if len(j.InVars) != len(in) {
		return fmt.Errorf("%s takes %d inputs, but is given %d", what, len(j.InVars), len(in))
	}
	for i, v := range j.InVars {
		if !v.aval.SameType(in[i]) {
			return fmt.Errorf("%s input %d is %s, but is given %s", what, i, v.aval, in[i])
		}
	}
	return nil
}

func checkJaxprOutputs(what string, j *Jaxpr, want []AVal) error {
	outs := j.OutAvals()
	if len(outs) != len(want) {
		return fmt.Errorf("%s returns %d outputs, want %d", what, len(outs), len(want))
	}
	for i, a := range outs {
		if !a.SameType(want[i]) {
			return fmt.Errorf("%s output %d is %s, want %s", what, i, a, want[i])
		}
	}
	return nil
}

func condRule(in []AVal, p Params) ([]AVal, error) {
	tok, rest := splitToken(in)
	if len(rest) == 0 {
		return nil, fmt.Errorf("needs an index operand")
	}
	idx, ops := rest[0], rest[1:]
	if idx.DType != Int32 || idx.Rank() != 0 {
		return nil, fmt.Errorf("index must be an int32 scalar, got %s", idx)
	}
	if err := checkArray(ops); err != nil {
		return nil, err
	}
	branches, _ := ParamAs[[]*Jaxpr](p, "branches")
	if len(branches) == 0 {
		return nil, fmt.Errorf("needs at least one branch")
	}
	ins := withTokenAt(tok, ops, 0)
	var outs []AVal
	for i, b := range branches {
		what := fmt.Sprintf("branch %d", i)
		if err := checkJaxprInputs(what, b, ins); err != nil {
			return nil, err
		}
		if i == 0 {
			outs = b.OutAvals()
			if tok && (len(outs) == 0 || !outs[0].IsToken()) {
				return nil, fmt.Errorf("branch 0 must return the token first")
			}
			continue
		}
		if err := checkJaxprOutputs(what, b, outs); err != nil {
			return nil, err
		}
		for k, a := range b.OutAvals() {
			outs[k].Weak = outs[k].Weak && a.Weak
		}
	}
	return outs, nil
}

func whileRule(in []AVal, p Params) ([]AVal, error) {
	tok, rest := splitToken(in)
	cn, bn := p.Int("cond_nconsts"), p.Int("body_nconsts")
	if cn < 0 || bn < 0 || cn+bn > len(rest) {
		return nil, fmt.Errorf("cond_nconsts=%d and body_nconsts=%d do not fit %d operands", cn, bn, len(rest))
	}
	if err := checkArray(rest); err != nil {
		return nil, err
	}
	cconsts, bconsts, carry := rest[:cn], rest[cn:cn+bn], rest[cn+bn:]
	condIn := append(append([]AVal(nil), cconsts...), withTokenAt(tok, carry, 0)...)
	if err := checkJaxprInputs("cond_jaxpr", p.Jaxpr("cond_jaxpr"), condIn); err != nil {
		return nil, err
	}
	pred := withTokenAt(tok, []AVal{{Shape: Shape{}, DType: Bool}}, 0)
	if err := checkJaxprOutputs("cond_jaxpr", p.Jaxpr("cond_jaxpr"), pred); err != nil {
		return nil, err
	}
	carryOut := withTokenAt(tok, carry, 0)
	bodyIn := append(append([]AVal(nil), bconsts...), carryOut...)
	if err := checkJaxprInputs("body_jaxpr", p.Jaxpr("body_jaxpr"), bodyIn); err != nil {
		return nil, err
	}
	if err := checkJaxprOutputs("body_jaxpr", p.Jaxpr("body_jaxpr"), carryOut); err != nil {
		return nil, err
	}
	return append([]AVal(nil), carryOut...), nil
}

func scanRule(in []AVal, p Params) ([]AVal, error) {
	tok, rest := splitToken(in)
	nc, ncar, length := p.Int("num_consts"), p.Int("num_carry"), p.Int("length")
	if nc < 0 || ncar < 0 || nc+ncar > len(rest) {
		return nil, fmt.Errorf("num_consts=%d and num_carry=%d do not fit %d operands", nc, ncar, len(rest))
	}
	if length < 0 {
		return nil, fmt.Errorf("length must be non-negative, got %d", length)
	}
	if p.Int("unroll") < 1 {
		return nil, fmt.Errorf("unroll must be at least 1, got %d", p.Int("unroll"))
	}
	if err := checkArray(rest); err != nil {
		return nil, err
	}
	consts, carry, xs := rest[:nc], rest[nc:nc+ncar], rest[nc+ncar:]
	bodyIn := append(append([]AVal(nil), consts...), withTokenAt(tok, carry, 0)...)
	for i, x := range xs {
		if x.Rank() == 0 || x.Shape[0] != length {
			return nil, fmt.Errorf("xs operand %d is %s, but every xs needs a leading axis of length %d", i, x, length)
		}
		bodyIn = append(bodyIn, x.WithShape(x.Shape[1:].Clone()))
	}
	j := p.Jaxpr("jaxpr")
	if err := checkJaxprInputs("jaxpr", j, bodyIn); err != nil {
		return nil, err
	}
	outs := j.OutAvals()
	carryOut := withTokenAt(tok, carry, 0)
	if len(outs) < len(carryOut) {
		return nil, fmt.Errorf("jaxpr returns %d outputs, fewer than its %d carries", len(outs), len(carryOut))
	}
	for i, a := range carryOut {
		if !outs[i].SameType(a) {
			return nil, fmt.Errorf("jaxpr output %d is %s, but the carry is %s", i, outs[i], a)
		}
	}
	res := append([]AVal(nil), carryOut...)
	for _, y := range outs[len(carryOut):] {
		if y.IsToken() {
			return nil, fmt.Errorf("jaxpr returns a token among its ys")
		}
		res = append(res, y.WithShape(append(Shape{length}, y.Shape...)))
	}
	return res, nil
}
