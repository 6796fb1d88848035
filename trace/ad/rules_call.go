package ad

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// Rules of the primitives that apply a jaxpr: nested jit, checkpoint, and
// the custom-derivative calls.

func init() {
	trace.SetAD("jit", jitJVP, callTranspose("jaxpr"))
	peRules["jit"] = inlinePE("jaxpr")
	trace.SetAD("checkpoint", checkpointJVP, checkpointTranspose)
	peRules["checkpoint"] = checkpointPE
	trace.SetAD("custom_jvp_call", customJVPCallJVP, nil)
	trace.SetAD("custom_vjp_call", customVJPCallJVP, nil)
	trace.SetAD("custom_lin", customLinJVP, customLinTranspose)
}

// fail stops a rule with err.
func fail(e *trace.Emitter, err error) {
	if err != nil {
		e.Fail(err)
	}
}

func nonzeroMask(ts []trace.Atom) []bool {
	m := make([]bool, len(ts))
	for i, t := range ts {
		m[i] = t != nil
	}
	return m
}

// withTangents appends the nonzero tangents (of inexact values) to in, as
// JVP's jaxprs take them.
func withTangents(in, ts []trace.Atom) []trace.Atom {
	out := append([]trace.Atom(nil), in...)
	for i, t := range ts {
		if t != nil && trace.HasTangent(in[i].Aval()) {
			out = append(out, t)
		}
	}
	return out
}

// splitTangents splits the outputs of a JVP jaxpr into primals and a
// tangent per primal (nil where outTangent is false).
func splitTangents(outs []trace.Atom, outTangent []bool) ([]trace.Atom, []trace.Atom) {
	n := len(outTangent)
	primals, ts := outs[:n], make([]trace.Atom, n)
	k := n
	for i, has := range outTangent {
		if has {
			ts[i] = outs[k]
			k++
		}
	}
	return primals, ts
}

// jitJVP differentiates the body and calls it as one jit.
func jitJVP(e *trace.Emitter, in, ts []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
	body := p.Jaxpr("jaxpr")
	jv, outTangent, err := JVP(body, nonzeroMask(ts), nil)
	fail(e, err)
	name, _ := trace.ParamAs[trace.Ident](p, "name")
	outs := e.Bind("jit", withTangents(in, ts), trace.Params{"name": trace.Ident("jvp(" + string(name) + ")"), "jaxpr": jv})
	primals, tangents := splitTangents(outs, outTangent)
	return primals, tangents
}

// inlinePE splits a call by splitting its body in place: the known part
// of the body joins the known computation, the rest the unknown one.
func inlinePE(param string) peRule {
	return func(t *peTrace, eqn *trace.Eqn) error {
		body := eqn.Params.Jaxpr(param)
		for i, v := range body.ConstVars {
			t.known[v] = t.kb.Const(body.Consts[i], v.Aval())
			t.constOf[v] = body.Consts[i]
		}
		return t.inline(body, eqn.In, eqn.Out)
	}
}

// callTranspose transposes a call by transposing its body in place.
func callTranspose(param string) trace.TransposeRule {
	return func(e *trace.Emitter, cts, in []trace.Atom, linear []bool, p trace.Params) []trace.Atom {
		body := p.Jaxpr(param)
		out, err := backwardPass(e.B, body, bindConsts(e.B, body), linear, nonlinear(in, linear), cts)
		fail(e, err)
		return out
	}
}

func nonlinear(in []trace.Atom, linear []bool) []trace.Atom {
	var out []trace.Atom
	for i, a := range in {
		if !linear[i] {
			out = append(out, a)
		}
	}
	return out
}

// checkpointJVP keeps the differentiated body under checkpoint, so that
// reverse mode can still rematerialise it.
func checkpointJVP(e *trace.Emitter, in, ts []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
	jv, outTangent, err := JVP(p.Jaxpr("jaxpr"), nonzeroMask(ts), nil)
	fail(e, err)
	q := copyParams(p)
	q["jaxpr"] = jv
	outs := e.Bind("checkpoint", withTangents(in, ts), q)
	return splitTangents(outs, outTangent)
}

func copyParams(p trace.Params) trace.Params {
	q := trace.Params{}
	for k, v := range p {
		q[k] = v
	}
	return q
}

// saveable says which equations' outputs a checkpoint policy lets the
// forward computation keep for the backward pass.
func saveable(policy trace.Params) func(*trace.Eqn) bool {
	name, _ := trace.ParamAs[trace.Ident](policy, "policy")
	switch name {
	case "everything_saveable":
		return func(*trace.Eqn) bool { return true }
	case "dots_saveable":
		return func(e *trace.Eqn) bool { return e.Prim.Name == "dot_general" }
	}
	return func(*trace.Eqn) bool { return false }
}

// checkpointPE splits a checkpoint whose tangents are unknown. The known
// part computes the primal outputs (its taps run once, forward) and keeps
// only what the policy saves: the outputs of saveable equations. The
// unknown part is a checkpoint that takes the known operands and the saved
// values and computes the primal part again before the tangents, so its
// taps run again in the backward pass.
func checkpointPE(t *peTrace, eqn *trace.Eqn) error {
	body := eqn.Params.Jaxpr("jaxpr")
	save := saveable(eqn.Params)
	unknownIn := make([]bool, len(eqn.In))
	for i, a := range eqn.In {
		unknownIn[i] = t.isUnknown(a)
	}
	split, err := PartialEval(body, unknownIn, nil)
	if err != nil {
		return err
	}
	// Saved values: outputs of saveable known equations that the unknown
	// part reads.
	nKnownOut := len(split.Known.OutVars) - split.NumRes
	residuals := split.Known.OutVars[nKnownOut:]
	producer := map[*trace.Var]*trace.Eqn{}
	for _, e := range split.Known.Eqns {
		for _, v := range e.Out {
			producer[v] = e
		}
	}
	saved := map[*trace.Var]bool{}
	for _, r := range residuals {
		if v, ok := r.(*trace.Var); ok && producer[v] != nil && save(producer[v]) {
			saved[v] = true
		}
	}
	var knownArgs []trace.Atom
	for i, a := range eqn.In {
		if !unknownIn[i] {
			knownArgs = append(knownArgs, t.knownAtom(a))
		}
	}
	// Known side: the body's known part, inlined.
	kOuts, err := Apply(t.kb, split.Known, knownArgs)
	if err != nil {
		return err
	}
	env := map[*trace.Var]trace.Atom{}
	for i, r := range residuals {
		if v, ok := r.(*trace.Var); ok && saved[v] {
			env[v] = kOuts[nKnownOut+i]
		}
	}
	// Unknown side: a checkpoint of (known operands, saved values, unknown
	// operands) -> unknown outputs that recomputes the rest.
	rb := trace.NewBuilder()
	var rKnown, rSaved, rUnknown []trace.Atom
	var outerArgs []trace.Atom
	for i, a := range eqn.In {
		if !unknownIn[i] {
			rKnown = append(rKnown, rb.Input(a.Aval()))
			outerArgs = append(outerArgs, t.unknownAtom(a))
		}
	}
	var savedVars []*trace.Var
	for _, r := range residuals {
		if v, ok := r.(*trace.Var); ok && saved[v] {
			savedVars = append(savedVars, v)
			rSaved = append(rSaved, rb.Input(v.Aval()))
			outerArgs = append(outerArgs, t.residual(env[v]))
		}
	}
	for i, a := range eqn.In {
		if unknownIn[i] {
			rUnknown = append(rUnknown, rb.Input(a.Aval()))
			outerArgs = append(outerArgs, t.unknownAtom(a))
		}
	}
	override := map[*trace.Var]trace.Atom{}
	for i, v := range savedVars {
		override[v] = rSaved[i]
	}
	recomputed, err := applyWith(rb, split.Known, rKnown, override)
	if err != nil {
		return err
	}
	uOuts, err := Apply(rb, split.Unknown, append(append([]trace.Atom(nil), recomputed[nKnownOut:]...), rUnknown...))
	if err != nil {
		return err
	}
	remat, err := rb.Build(uOuts)
	if err != nil {
		return err
	}
	q := copyParams(eqn.Params)
	q["jaxpr"] = remat
	q["differentiated"] = true
	outs, err := t.ub.Bind("checkpoint", outerArgs, q, eqn.Pos)
	if err != nil {
		return eqnError(eqn, err)
	}
	k, u := 0, 0
	for i, v := range eqn.Out {
		if split.OutUnknown[i] {
			t.unknown[v] = outs[u]
			u++
		} else {
			t.known[v] = kOuts[k]
			k++
		}
	}
	return nil
}

// applyWith is Apply where the equations producing the vars in override
// are skipped and their values taken from it.
func applyWith(b *trace.Builder, j *trace.Jaxpr, args []trace.Atom, override map[*trace.Var]trace.Atom) ([]trace.Atom, error) {
	if len(override) == 0 {
		return Apply(b, j, args)
	}
	keep := *j
	keep.Eqns = nil
	for _, e := range j.Eqns {
		all := len(e.Out) > 0
		for _, v := range e.Out {
			_, ok := override[v]
			all = all && ok
		}
		if !all {
			keep.Eqns = append(keep.Eqns, e)
		}
	}
	env := map[*trace.Var]trace.Atom{}
	for v, a := range override {
		env[v] = a
	}
	return applyEnv(b, &keep, args, env)
}

// checkpointTranspose recomputes the checkpoint's primal part and
// transposes its linear part. With prevent_cse the recomputation reads its
// operands through an optimization barrier that also takes the incoming
// cotangents, so it runs in the backward pass (after the cotangents
// exist) and the compiler cannot merge it with the forward computation.
func checkpointTranspose(e *trace.Emitter, cts, in []trace.Atom, linear []bool, p trace.Params) []trace.Atom {
	nonlin := nonlinear(in, linear)
	if p.Bool("prevent_cse") {
		var live []trace.Atom
		for _, c := range cts {
			if c != nil {
				live = append(live, c)
			}
		}
		through := e.Bind("optimization_barrier", append(append([]trace.Atom(nil), nonlin...), live...), nil)
		nonlin = through[:len(nonlin)]
		k := len(nonlin)
		cts = append([]trace.Atom(nil), cts...)
		for i, c := range cts {
			if c != nil {
				cts[i] = through[k]
				k++
			}
		}
	}
	body := p.Jaxpr("jaxpr")
	out, err := backwardPass(e.B, body, bindConsts(e.B, body), linear, nonlin, cts)
	fail(e, err)
	return out
}

// customJVPCallJVP applies the user's rule: the tangents are instantiated
// (the rule was traced with every tangent) and the rule's equations join
// the JVP, so its taps see tangents.
func customJVPCallJVP(e *trace.Emitter, in, ts []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
	rule := p.Jaxpr("jvp_jaxpr")
	args := append([]trace.Atom(nil), in...)
	for i, t := range ts {
		args = append(args, e.Instantiate(t, in[i].Aval()))
	}
	outs, err := Apply(e.B, rule, args)
	fail(e, err)
	n := len(outs) / 2
	return outs[:n], outs[n:]
}

// customVJPCallJVP runs the user's fwd and leaves the tangents to
// custom_lin, which reverse mode transposes into the user's bwd.
func customVJPCallJVP(e *trace.Emitter, in, ts []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
	fwd := p.Jaxpr("fwd_jaxpr")
	outs, err := Apply(e.B, fwd, in)
	fail(e, err)
	nOut := len(outs) - p.Int("num_res")
	primals, res := outs[:nOut], outs[nOut:]
	args := append([]trace.Atom(nil), res...)
	for i, t := range ts {
		args = append(args, e.Instantiate(t, in[i].Aval()))
	}
	avals := make([]trace.AVal, nOut)
	for i, a := range primals {
		avals[i] = a.Aval()
	}
	tangents := e.Bind("custom_lin", args, trace.Params{"bwd_jaxpr": p.Jaxpr("bwd_jaxpr"), "num_res": len(res), "out_avals": avals})
	return primals, tangents
}

// ErrJVPOfCustomVJP is JAX's message for forward mode through custom_vjp.
var ErrJVPOfCustomVJP = fmt.Errorf("can't apply forward-mode autodiff (jvp) to a custom_vjp function")

func customLinJVP(e *trace.Emitter, _, _ []trace.Atom, _ trace.Params) ([]trace.Atom, []trace.Atom) {
	e.Fail(ErrJVPOfCustomVJP)
	return nil, nil
}

// customLinTranspose is the user's bwd applied to the residuals and the
// output cotangents; its taps see cotangents.
func customLinTranspose(e *trace.Emitter, cts, in []trace.Atom, linear []bool, p trace.Params) []trace.Atom {
	numRes := p.Int("num_res")
	for _, l := range linear[:numRes] {
		if l {
			e.Failf("custom_lin is not linear in its residuals")
		}
	}
	avals, _ := trace.ParamAs[[]trace.AVal](p, "out_avals")
	args := append([]trace.Atom(nil), in[:numRes]...)
	for i, c := range cts {
		args = append(args, e.Instantiate(c, avals[i]))
	}
	ctIn, err := Apply(e.B, p.Jaxpr("bwd_jaxpr"), args)
	fail(e, err)
	out := make([]trace.Atom, len(in))
	for i := range ctIn {
		if linear[numRes+i] {
			out[numRes+i] = ctIn[i]
		}
	}
	return out
}

// Runnable reports an error when j holds equations that only exist to be
// transposed (custom_lin: forward mode through a custom_vjp function).
func Runnable(j *trace.Jaxpr) error {
	for _, e := range j.Eqns {
		if e.Prim.Name == "custom_lin" {
			return &Error{Pos: e.Pos, Prim: e.Prim.Name, Err: ErrJVPOfCustomVJP}
		}
		for _, v := range e.Params {
			var subs []*trace.Jaxpr
			switch x := v.(type) {
			case *trace.Jaxpr:
				subs = []*trace.Jaxpr{x}
			case []*trace.Jaxpr:
				subs = x
			}
			for _, sub := range subs {
				if err := Runnable(sub); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
