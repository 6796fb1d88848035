package ad

import (
	"github.com/jaxsh/jaxsh/trace"
)

// Rules of cond (and so of switch): every branch is transformed, with the
// same tangents, residuals and cotangents in and out, so that the result is
// again one cond.

func init() {
	trace.SetAD("cond", condJVP, condTranspose)
	peRules["cond"] = condPE
}

func or(a, b []bool) []bool {
	out := make([]bool, len(a))
	for i := range a {
		out[i] = a[i] || b[i]
	}
	return out
}

func condJVP(e *trace.Emitter, in, ts []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
	branches := p["branches"].([]*trace.Jaxpr)
	nonzero := nonzeroMask(ts[1:])
	// The tangent outputs are those some branch makes nonzero.
	union := make([]bool, len(branches[0].OutVars))
	for _, br := range branches {
		_, outT, err := JVP(br, nonzero, union)
		fail(e, err)
		union = or(union, outT)
	}
	jvps := make([]*trace.Jaxpr, len(branches))
	for i, br := range branches {
		jv, _, err := JVP(br, nonzero, union)
		fail(e, err)
		jvps[i] = jv
	}
	args := append([]trace.Atom{in[0]}, withTangents(in[1:], ts[1:])...)
	outs := e.Bind("cond", args, trace.Params{"branches": jvps})
	return splitTangents(outs, union)
}

// condPE splits every branch with the same unknown outputs. The known cond
// returns the known outputs and every branch's residuals (a branch returns
// zeros for the others'); the unknown cond takes the index and all
// residuals.
func condPE(t *peTrace, eqn *trace.Eqn) error {
	if t.isUnknown(eqn.In[0]) {
		return t.stageUnknown(eqn)
	}
	branches := eqn.Params["branches"].([]*trace.Jaxpr)
	ops := eqn.In[1:]
	unknownIn := make([]bool, len(ops))
	for i, a := range ops {
		unknownIn[i] = t.isUnknown(a)
	}
	outUnknown := make([]bool, len(eqn.Out))
	for _, br := range branches {
		s, err := PartialEval(br, unknownIn, outUnknown)
		if err != nil {
			return err
		}
		outUnknown = or(outUnknown, s.OutUnknown)
	}
	splits := make([]*Split, len(branches))
	var resAvals []trace.AVal
	resStart := make([]int, len(branches))
	for i, br := range branches {
		s, err := PartialEval(br, unknownIn, outUnknown)
		if err != nil {
			return err
		}
		splits[i] = s
		resStart[i] = len(resAvals)
		for _, r := range s.Known.OutVars[len(s.Known.OutVars)-s.NumRes:] {
			resAvals = append(resAvals, r.Aval())
		}
	}
	var knownAvals, unknownAvals []trace.AVal
	for _, a := range ops {
		if t.isUnknown(a) {
			unknownAvals = append(unknownAvals, a.Aval())
		} else {
			knownAvals = append(knownAvals, a.Aval())
		}
	}
	known := make([]*trace.Jaxpr, len(branches))
	unknown := make([]*trace.Jaxpr, len(branches))
	for i, s := range splits {
		var err error
		known[i], err = padResiduals(s, knownAvals, resAvals, resStart[i])
		if err != nil {
			return err
		}
		unknown[i], err = selectResiduals(s, resAvals, resStart[i], unknownAvals)
		if err != nil {
			return err
		}
	}
	var kArgs, uArgs []trace.Atom
	for _, a := range ops {
		if t.isUnknown(a) {
			uArgs = append(uArgs, t.unknownAtom(a))
		} else {
			kArgs = append(kArgs, t.knownAtom(a))
		}
	}
	kOuts, err := t.kb.Bind("cond", append([]trace.Atom{t.knownAtom(eqn.In[0])}, kArgs...), trace.Params{"branches": known}, eqn.Pos)
	if err != nil {
		return eqnError(eqn, err)
	}
	nKnown := len(kOuts) - len(resAvals)
	index := t.unknownAtom(eqn.In[0])
	var resArgs []trace.Atom
	for _, r := range kOuts[nKnown:] {
		resArgs = append(resArgs, t.residual(r))
	}
	uOuts, err := t.ub.Bind("cond", append(append([]trace.Atom{index}, resArgs...), uArgs...), trace.Params{"branches": unknown}, eqn.Pos)
	if err != nil {
		return eqnError(eqn, err)
	}
	k, u := 0, 0
	for i, v := range eqn.Out {
		if outUnknown[i] {
			t.unknown[v] = uOuts[u]
			u++
		} else {
			t.known[v] = kOuts[k]
			k++
		}
	}
	return nil
}

// padResiduals makes a branch's known part return every branch's residuals:
// its own at start, zeros for the others.
func padResiduals(s *Split, in, resAvals []trace.AVal, start int) (*trace.Jaxpr, error) {
	b := trace.NewBuilder()
	args := make([]trace.Atom, len(in))
	for i, a := range in {
		args[i] = b.Input(a)
	}
	outs, err := Apply(b, s.Known, args)
	if err != nil {
		return nil, err
	}
	nKnown := len(outs) - s.NumRes
	results := append([]trace.Atom(nil), outs[:nKnown]...)
	e := &trace.Emitter{B: b}
	err = trace.Catch(func() {
		for k, a := range resAvals {
			if k >= start && k < start+s.NumRes {
				results = append(results, outs[nKnown+k-start])
			} else {
				results = append(results, e.Zeros(a))
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return b.Build(results)
}

// selectResiduals makes a branch's unknown part take every branch's
// residuals and use its own.
func selectResiduals(s *Split, resAvals []trace.AVal, start int, in []trace.AVal) (*trace.Jaxpr, error) {
	b := trace.NewBuilder()
	res := make([]trace.Atom, len(resAvals))
	for i, a := range resAvals {
		res[i] = b.Input(a)
	}
	args := append([]trace.Atom(nil), res[start:start+s.NumRes]...)
	for _, a := range in {
		args = append(args, b.Input(a))
	}
	outs, err := Apply(b, s.Unknown, args)
	if err != nil {
		return nil, err
	}
	return b.Build(outs)
}

func condTranspose(e *trace.Emitter, cts, in []trace.Atom, linear []bool, p trace.Params) []trace.Atom {
	if linear[0] {
		e.Failf("cond is not linear in its index")
	}
	branches := p["branches"].([]*trace.Jaxpr)
	opsLinear := linear[1:]
	transposed := make([]*trace.Jaxpr, len(branches))
	for i, br := range branches {
		tj, err := Transpose(br, opsLinear)
		fail(e, err)
		transposed[i] = tj
	}
	args := []trace.Atom{in[0]}
	args = append(args, nonlinear(in[1:], opsLinear)...)
	for i, c := range cts {
		args = append(args, e.Instantiate(c, branches[0].OutVars[i].Aval()))
	}
	ctOps := e.Bind("cond", args, trace.Params{"branches": transposed})
	out := make([]trace.Atom, len(in))
	k := 0
	for i, l := range opsLinear {
		if l {
			out[i+1] = ctOps[k]
			k++
		}
	}
	return out
}
