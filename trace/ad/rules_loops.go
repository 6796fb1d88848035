package ad

import (
	"github.com/jaxsh/jaxsh/trace"
)

// Rules of scan (both modes) and while (forward mode only, as in JAX).

func init() {
	trace.SetAD("scan", scanJVP, scanTranspose)
	peRules["scan"] = scanPE
	trace.SetAD("while", whileJVP, nil)
	peRules["while"] = whilePE
}

// ErrWhileReverse is JAX's message for reverse mode through while_loop.
const ErrWhileReverse = "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values. " +
	"Try using lax.scan, or using fori_loop with static start/stop."

func subset(a, b []bool) bool {
	for i := range a {
		if a[i] && !b[i] {
			return false
		}
	}
	return true
}

func inexactMask(in []trace.Atom, m []bool) []bool {
	out := make([]bool, len(m))
	for i := range m {
		out[i] = m[i] && trace.HasTangent(in[i].Aval())
	}
	return out
}

func concat(parts ...[]bool) []bool {
	var out []bool
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func count(m []bool) int {
	n := 0
	for _, b := range m {
		if b {
			n++
		}
	}
	return n
}

// pick returns the elements of xs where m is true.
func pick[T any](xs []T, m []bool) []T {
	var out []T
	for i, x := range xs {
		if m[i] {
			out = append(out, x)
		}
	}
	return out
}

// regroup reorders a JVP jaxpr's tangent inputs and outputs to follow their
// primals group by group: inputs (g1, g2, ..., t(g1), t(g2), ...) become
// (g1, t(g1), g2, t(g2), ...), given each group's size and tangent mask;
// likewise for outputs.
func regroup(j *trace.Jaxpr, inGroups, outGroups [][]bool) *trace.Jaxpr {
	reorder := func(vs []trace.Atom, groups [][]bool) []trace.Atom {
		nPrimal := 0
		for _, g := range groups {
			nPrimal += len(g)
		}
		primals, tangents := vs[:nPrimal], vs[nPrimal:]
		var out []trace.Atom
		for _, g := range groups {
			out = append(out, primals[:len(g)]...)
			primals = primals[len(g):]
			n := count(g)
			out = append(out, tangents[:n]...)
			tangents = tangents[n:]
		}
		return out
	}
	in := make([]trace.Atom, len(j.InVars))
	for i, v := range j.InVars {
		in[i] = v
	}
	r := *j
	r.InVars = nil
	for _, a := range reorder(in, inGroups) {
		r.InVars = append(r.InVars, a.(*trace.Var))
	}
	r.OutVars = reorder(j.OutVars, outGroups)
	return &r
}

func scanJVP(e *trace.Emitter, in, ts []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
	nc, ncar := p.Int("num_consts"), p.Int("num_carry")
	body := p.Jaxpr("jaxpr")
	nz := inexactMask(in, nonzeroMask(ts))
	nzConsts, nzCarry, nzXs := nz[:nc], nz[nc:nc+ncar], nz[nc+ncar:]
	nYs := len(body.OutVars) - ncar
	var jv *trace.Jaxpr
	var outT []bool
	for {
		instantiate := concat(nzCarry, make([]bool, nYs))
		var err error
		jv, outT, err = JVP(body, concat(nzConsts, nzCarry, nzXs), instantiate)
		fail(e, err)
		if subset(outT[:ncar], nzCarry) {
			break
		}
		nzCarry = or(nzCarry, outT[:ncar])
	}
	nzYs := outT[ncar:]
	jv = regroup(jv, [][]bool{nzConsts, nzCarry, nzXs}, [][]bool{nzCarry, nzYs})
	consts, carry, xs := in[:nc], in[nc:nc+ncar], in[nc+ncar:]
	var args []trace.Atom
	args = append(args, consts...)
	args = append(args, pick(ts[:nc], nzConsts)...)
	args = append(args, carry...)
	for i, m := range nzCarry {
		if m {
			args = append(args, e.Instantiate(ts[nc+i], carry[i].Aval()))
		}
	}
	args = append(args, xs...)
	args = append(args, pick(ts[nc+ncar:], nzXs)...)
	q := copyParams(p)
	q["jaxpr"] = jv
	q["num_consts"] = nc + count(nzConsts)
	q["num_carry"] = ncar + count(nzCarry)
	outs := e.Bind("scan", args, q)
	primals := make([]trace.Atom, 0, len(body.OutVars))
	tangents := make([]trace.Atom, 0, len(body.OutVars))
	k := 0
	for _, g := range [][]bool{nzCarry, nzYs} {
		primals = append(primals, outs[k:k+len(g)]...)
		k += len(g)
		for _, m := range g {
			if m {
				tangents = append(tangents, outs[k])
				k++
			} else {
				tangents = append(tangents, nil)
			}
		}
	}
	return primals, tangents
}

// scanPE splits a scan into a known scan, which also returns the
// residuals of each iteration stacked as extra ys, and an unknown scan that
// reads them as xs. Residuals that are known consts of the body stay
// consts. A carry is unknown when its initial value or its update is.
func scanPE(t *peTrace, eqn *trace.Eqn) error {
	p := eqn.Params
	nc, ncar := p.Int("num_consts"), p.Int("num_carry")
	body := p.Jaxpr("jaxpr")
	unknownIn := make([]bool, len(eqn.In))
	for i, a := range eqn.In {
		unknownIn[i] = t.isUnknown(a)
	}
	uConsts, uCarry, uXs := unknownIn[:nc], append([]bool(nil), unknownIn[nc:nc+ncar]...), unknownIn[nc+ncar:]
	nYs := len(body.OutVars) - ncar
	var s *Split
	for {
		var err error
		s, err = PartialEval(body, concat(uConsts, uCarry, uXs), concat(uCarry, make([]bool, nYs)))
		if err != nil {
			return err
		}
		if subset(s.OutUnknown[:ncar], uCarry) {
			break
		}
		uCarry = or(uCarry, s.OutUnknown[:ncar])
	}
	unknownIn = concat(uConsts, uCarry, uXs)
	// Which residuals are known consts of the body (loop invariant)?
	knownConstIn := map[*trace.Var]int{}
	k := 0
	for i := range body.InVars {
		if unknownIn[i] {
			continue
		}
		if i < nc {
			knownConstIn[s.Known.InVars[k]] = i
		}
		k++
	}
	nKnownOut := len(s.Known.OutVars) - s.NumRes
	residuals := s.Known.OutVars[nKnownOut:]
	invariant := make([]bool, len(residuals))
	for i, r := range residuals {
		if v, ok := r.(*trace.Var); ok {
			_, invariant[i] = knownConstIn[v]
		}
	}
	// The known scan: known ins -> known carry, known ys, per-iteration
	// residuals.
	known := *s.Known
	known.OutVars = append(append([]trace.Atom(nil), s.Known.OutVars[:nKnownOut]...), pick(residuals, not(invariant))...)
	var kArgs []trace.Atom
	for i, a := range eqn.In {
		if !unknownIn[i] {
			kArgs = append(kArgs, t.knownAtom(a))
		}
	}
	kq := copyParams(p)
	kq["jaxpr"] = &known
	kq["num_consts"] = nc - count(uConsts)
	kq["num_carry"] = ncar - count(uCarry)
	kOuts, err := t.kb.Bind("scan", kArgs, kq, eqn.Pos)
	if err != nil {
		return eqnError(eqn, err)
	}
	// The unknown scan: consts (invariant residuals, unknown consts), carry
	// (unknown carry), xs (stacked residuals, unknown xs).
	resVars := s.Unknown.InVars[:s.NumRes]
	uInVars := s.Unknown.InVars[s.NumRes:]
	nuc, nucar := count(uConsts), count(uCarry)
	unknown := *s.Unknown
	unknown.InVars = nil
	unknown.InVars = append(unknown.InVars, pick(resVars, invariant)...)
	unknown.InVars = append(unknown.InVars, uInVars[:nuc+nucar]...)
	unknown.InVars = append(unknown.InVars, pick(resVars, not(invariant))...)
	unknown.InVars = append(unknown.InVars, uInVars[nuc+nucar:]...)
	var uArgs []trace.Atom
	for i, r := range residuals {
		if invariant[i] {
			uArgs = append(uArgs, t.unknownAtom(eqn.In[knownConstIn[r.(*trace.Var)]]))
		}
	}
	for i, a := range eqn.In[:nc+ncar] {
		if unknownIn[i] {
			uArgs = append(uArgs, t.unknownAtom(a))
		}
	}
	nKnownScanOut := nKnownOut
	for _, r := range kOuts[nKnownScanOut:] {
		uArgs = append(uArgs, t.residual(r))
	}
	for i, a := range eqn.In[nc+ncar:] {
		if uXs[i] {
			uArgs = append(uArgs, t.unknownAtom(a))
		}
	}
	uq := copyParams(p)
	uq["jaxpr"] = &unknown
	uq["num_consts"] = count(invariant) + nuc
	uq["num_carry"] = nucar
	uOuts, err := t.ub.Bind("scan", uArgs, uq, eqn.Pos)
	if err != nil {
		return eqnError(eqn, err)
	}
	ki, ui := 0, 0
	for i, v := range eqn.Out {
		if s.OutUnknown[i] {
			t.unknown[v] = uOuts[ui]
			ui++
		} else {
			t.known[v] = kOuts[ki]
			ki++
		}
	}
	return nil
}

func not(m []bool) []bool {
	out := make([]bool, len(m))
	for i, b := range m {
		out[i] = !b
	}
	return out
}

// scanTranspose runs the transposed body backwards over the iterations,
// carrying the carries' cotangents and the running sums of the linear
// consts' cotangents, and stacking the linear xs' cotangents.
func scanTranspose(e *trace.Emitter, cts, in []trace.Atom, linear []bool, p trace.Params) []trace.Atom {
	nc, ncar := p.Int("num_consts"), p.Int("num_carry")
	body := p.Jaxpr("jaxpr")
	// Every carry is linear in the body: a carry whose initial value is not
	// (a zero the JVP instantiated) still carries tangents, its own
	// cotangent is just not wanted.
	bodyLinear := append([]bool(nil), linear...)
	for i := nc; i < nc+ncar; i++ {
		bodyLinear[i] = true
	}
	linConsts, linXs := linear[:nc], linear[nc+ncar:]
	consts, xs := in[:nc], in[nc+ncar:]
	nYs := len(body.OutVars) - ncar
	// The transposed body: consts (non-linear consts), carry (sums of the
	// linear consts' cotangents, carry cotangents), xs (non-linear xs, ys
	// cotangents) -> carry, ys (linear xs' cotangents).
	b := trace.NewBuilder()
	var nlc, nlx, acc, ctCarry, ctYs []trace.Atom
	for i, a := range consts {
		if !linConsts[i] {
			nlc = append(nlc, b.Input(a.Aval()))
		}
	}
	for i, a := range consts {
		if linConsts[i] {
			acc = append(acc, b.Input(a.Aval()))
		}
	}
	for _, v := range body.InVars[nc : nc+ncar] {
		ctCarry = append(ctCarry, b.Input(v.Aval()))
	}
	for i, v := range body.InVars[nc+ncar:] {
		if !linXs[i] {
			nlx = append(nlx, b.Input(v.Aval()))
		}
	}
	for _, a := range body.OutVars[ncar:] {
		ctYs = append(ctYs, b.Input(a.Aval()))
	}
	ctIn, err := backwardPass(b, body, nil, bodyLinear, append(append([]trace.Atom(nil), nlc...), nlx...),
		append(append([]trace.Atom(nil), ctCarry...), ctYs...))
	fail(e, err)
	be := &trace.Emitter{B: b}
	var bodyOuts []trace.Atom
	fail(e, trace.Catch(func() {
		k := 0
		for i := range nc {
			if linConsts[i] {
				c := ctIn[i]
				if c == nil {
					bodyOuts = append(bodyOuts, acc[k])
				} else {
					bodyOuts = append(bodyOuts, be.Add(acc[k], c))
				}
				k++
			}
		}
		for i := nc; i < nc+ncar; i++ {
			bodyOuts = append(bodyOuts, be.Instantiate(ctIn[i], body.InVars[i].Aval()))
		}
		for i := nc + ncar; i < len(body.InVars); i++ {
			if bodyLinear[i] {
				bodyOuts = append(bodyOuts, be.Instantiate(ctIn[i], body.InVars[i].Aval()))
			}
		}
	}))
	tb, err := b.Build(bodyOuts)
	fail(e, err)

	var args []trace.Atom
	args = append(args, nonlinear(consts, linConsts)...)
	for i, a := range consts {
		if linConsts[i] {
			args = append(args, e.Zeros(a.Aval()))
		}
	}
	for i := range ncar {
		args = append(args, e.Instantiate(cts[i], in[nc+i].Aval()))
	}
	args = append(args, nonlinear(xs, linXs)...)
	for i := range nYs {
		args = append(args, e.Instantiate(cts[ncar+i], body.OutVars[ncar+i].Aval().WithShape(append(trace.Shape{p.Int("length")}, body.OutVars[ncar+i].Aval().Shape...))))
	}
	q := copyParams(p)
	q["jaxpr"] = tb
	q["reverse"] = !p.Bool("reverse")
	q["num_consts"] = len(nlc)
	q["num_carry"] = len(acc) + ncar
	outs := e.Bind("scan", args, q)
	res := make([]trace.Atom, len(in))
	k := 0
	for i := range nc {
		if linConsts[i] {
			res[i] = outs[k]
			k++
		}
	}
	for i := range ncar {
		if linear[nc+i] {
			res[nc+i] = outs[k]
		}
		k++
	}
	for i := range xs {
		if linXs[i] {
			res[nc+ncar+i] = outs[k]
			k++
		}
	}
	return res
}

func whileJVP(e *trace.Emitter, in, ts []trace.Atom, p trace.Params) ([]trace.Atom, []trace.Atom) {
	cn, bn := p.Int("cond_nconsts"), p.Int("body_nconsts")
	body, cond := p.Jaxpr("body_jaxpr"), p.Jaxpr("cond_jaxpr")
	nz := inexactMask(in, nonzeroMask(ts))
	nzBConsts, nzCarry := nz[cn:cn+bn], nz[cn+bn:]
	var jv *trace.Jaxpr
	for {
		var outT []bool
		var err error
		jv, outT, err = JVP(body, concat(nzBConsts, nzCarry), nzCarry)
		fail(e, err)
		if subset(outT, nzCarry) {
			break
		}
		nzCarry = or(nzCarry, outT)
	}
	jv = regroup(jv, [][]bool{nzBConsts, nzCarry}, [][]bool{nzCarry})
	carry := in[cn+bn:]
	// The condition ignores the tangents it is now given.
	c := *cond
	c.InVars = append([]*trace.Var(nil), cond.InVars...)
	for i, m := range nzCarry {
		if m {
			c.InVars = append(c.InVars, trace.NewVar(carry[i].Aval()))
		}
	}
	var args []trace.Atom
	args = append(args, in[:cn]...)
	args = append(args, in[cn:cn+bn]...)
	args = append(args, pick(ts[cn:cn+bn], nzBConsts)...)
	args = append(args, carry...)
	for i, m := range nzCarry {
		if m {
			args = append(args, e.Instantiate(ts[cn+bn+i], carry[i].Aval()))
		}
	}
	q := copyParams(p)
	q["body_jaxpr"] = jv
	q["cond_jaxpr"] = &c
	q["body_nconsts"] = bn + count(nzBConsts)
	outs := e.Bind("while", args, q)
	primals := outs[:len(carry)]
	tangents := make([]trace.Atom, len(carry))
	k := len(carry)
	for i, m := range nzCarry {
		if m {
			tangents[i] = outs[k]
			k++
		}
	}
	return primals, tangents
}

// whilePE: a loop whose trip count is unknown until it runs has no
// reverse mode (JAX's error).
func whilePE(t *peTrace, eqn *trace.Eqn) error {
	return errorf(eqn, "%s", ErrWhileReverse)
}
