package ad

import (
	"github.com/jaxsh/jaxsh/trace"
)

// A Split is a jaxpr partially evaluated: Known maps the known inputs to
// the known outputs followed by NumRes residuals; Unknown maps the
// residuals followed by the unknown inputs to the unknown outputs.
// OutUnknown says which of the original outputs are unknown.
type Split struct {
	Known, Unknown *trace.Jaxpr
	OutUnknown     []bool
	NumRes         int
}

// PartialEval splits j given which inputs are unknown. An equation is known
// when all its operands are; known values that unknown equations use become
// residuals. Outputs marked in instantiate are unknown even when they could
// be known (their known value is then a residual the unknown part returns).
// Effects of known equations stay in the known part: they run once, in the
// forward computation.
func PartialEval(j *trace.Jaxpr, unknownIn, instantiate []bool) (*Split, error) {
	t := newPE()
	for i, v := range j.ConstVars {
		t.known[v] = t.kb.Const(j.Consts[i], v.Aval())
		t.constOf[v] = j.Consts[i]
	}
	var uIn []*trace.Var
	for i, v := range j.InVars {
		if unknownIn[i] {
			u := t.ub.Input(v.Aval())
			uIn = append(uIn, u)
			t.unknown[v] = u
		} else {
			t.known[v] = t.kb.Input(v.Aval())
		}
	}
	if err := t.eqns(j.Eqns); err != nil {
		return nil, err
	}
	return t.finish(j.OutVars, uIn, instantiate)
}

// peTrace holds the two halves being built. Vars of j (and of bodies it
// inlines) map to atoms of the known builder or of the unknown one.
type peTrace struct {
	kb, ub  *trace.Builder
	known   map[*trace.Var]trace.Atom
	unknown map[*trace.Var]trace.Atom
	constOf map[*trace.Var]any
	// residuals: known atoms (of kb) that the unknown part reads, and the
	// unknown part's inputs standing for them.
	resIn   map[trace.Atom]*trace.Var
	resOut  []trace.Atom
	resVars []*trace.Var
}

func newPE() *peTrace {
	return &peTrace{
		kb: trace.NewBuilder(), ub: trace.NewBuilder(),
		known: map[*trace.Var]trace.Atom{}, unknown: map[*trace.Var]trace.Atom{},
		constOf: map[*trace.Var]any{}, resIn: map[trace.Atom]*trace.Var{},
	}
}

func (t *peTrace) isUnknown(a trace.Atom) bool {
	v, ok := a.(*trace.Var)
	if !ok {
		return false
	}
	_, u := t.unknown[v]
	return u
}

// knownAtom is a's atom in the known part.
func (t *peTrace) knownAtom(a trace.Atom) trace.Atom {
	if v, ok := a.(*trace.Var); ok {
		return t.known[v]
	}
	return a
}

// unknownAtom is a's atom in the unknown part: its own, a literal, a
// constant, or a residual carrying its known value.
func (t *peTrace) unknownAtom(a trace.Atom) trace.Atom {
	v, ok := a.(*trace.Var)
	if !ok {
		return a
	}
	if u, ok := t.unknown[v]; ok {
		return u
	}
	if payload, ok := t.constOf[v]; ok {
		return t.ub.Const(payload, v.Aval())
	}
	return t.residual(t.known[v])
}

// residual makes the known atom k an input of the unknown part.
func (t *peTrace) residual(k trace.Atom) trace.Atom {
	if _, lit := k.(*trace.Literal); lit {
		return k
	}
	if r, ok := t.resIn[k]; ok {
		return r
	}
	r := t.ub.Input(k.Aval())
	t.resIn[k] = r
	t.resOut = append(t.resOut, k)
	t.resVars = append(t.resVars, r)
	return r
}

// alias makes v stand for a (an atom of the jaxpr being split), known or
// not, as when a call's body input stands for the call's operand.
func (t *peTrace) alias(v *trace.Var, a trace.Atom) {
	if t.isUnknown(a) {
		t.unknown[v] = t.unknown[a.(*trace.Var)]
		return
	}
	if c, ok := a.(*trace.Var); ok {
		if payload, ok := t.constOf[c]; ok {
			t.constOf[v] = payload
		}
	}
	t.known[v] = t.knownAtom(a)
}

func (t *peTrace) eqns(eqns []*trace.Eqn) error {
	for _, eqn := range eqns {
		if err := t.eqn(eqn); err != nil {
			return err
		}
	}
	return nil
}

// A peRule partially evaluates an equation with some unknown operands.
type peRule func(t *peTrace, eqn *trace.Eqn) error

// peRules are the partial-evaluation rules of primitives that hold jaxprs;
// every other equation with an unknown operand is unknown as a whole.
var peRules = map[string]peRule{}

func (t *peTrace) eqn(eqn *trace.Eqn) error {
	anyUnknown := false
	for _, a := range eqn.In {
		anyUnknown = anyUnknown || t.isUnknown(a)
	}
	if !anyUnknown {
		in := make([]trace.Atom, len(eqn.In))
		for i, a := range eqn.In {
			in[i] = t.knownAtom(a)
		}
		outs, err := t.kb.Bind(eqn.Prim.Name, in, eqn.Params, eqn.Pos)
		if err != nil {
			return eqnError(eqn, err)
		}
		for i, v := range eqn.Out {
			t.known[v] = outs[i]
		}
		return nil
	}
	if rule := peRules[eqn.Prim.Name]; rule != nil {
		return rule(t, eqn)
	}
	return t.stageUnknown(eqn)
}

// stageUnknown puts the whole equation in the unknown part.
func (t *peTrace) stageUnknown(eqn *trace.Eqn) error {
	in := make([]trace.Atom, len(eqn.In))
	for i, a := range eqn.In {
		in[i] = t.unknownAtom(a)
	}
	outs, err := t.ub.Bind(eqn.Prim.Name, in, eqn.Params, eqn.Pos)
	if err != nil {
		return eqnError(eqn, err)
	}
	for i, v := range eqn.Out {
		t.unknown[v] = outs[i]
	}
	return nil
}

// inline splits body's equations as if they were the caller's, with its
// inputs standing for args and outs standing for its outputs.
func (t *peTrace) inline(body *trace.Jaxpr, args []trace.Atom, outs []*trace.Var) error {
	for i, v := range body.InVars {
		t.alias(v, args[i])
	}
	if err := t.eqns(body.Eqns); err != nil {
		return err
	}
	for i, v := range outs {
		t.alias(v, body.OutVars[i])
	}
	return nil
}

func (t *peTrace) finish(outVars []trace.Atom, uIn []*trace.Var, instantiate []bool) (*Split, error) {
	outUnknown := make([]bool, len(outVars))
	var kOuts, uOuts []trace.Atom
	for i, a := range outVars {
		switch {
		case t.isUnknown(a):
			outUnknown[i] = true
			uOuts = append(uOuts, t.unknownAtom(a))
		case instantiate != nil && instantiate[i]:
			outUnknown[i] = true
			uOuts = append(uOuts, t.unknownAtom(a))
		default:
			kOuts = append(kOuts, t.knownAtom(a))
		}
	}
	unknown, err := t.ub.Build(uOuts)
	if err != nil {
		return nil, err
	}
	unknown.InVars = append(append([]*trace.Var(nil), t.resVars...), uIn...)
	known, err := t.kb.Build(append(kOuts, t.resOut...))
	if err != nil {
		return nil, err
	}
	return &Split{Known: known, Unknown: unknown, OutUnknown: outUnknown, NumRes: len(t.resOut)}, nil
}
