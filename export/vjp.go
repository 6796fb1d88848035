package export

import (
	"fmt"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/ad"
)

// The VJP of an exported function, as JAX's Exported.vjp: a function of
// the primal inputs followed by one cotangent per output, returning one
// cotangent per input (zeros for inputs without tangents, such as
// integers). It is computed from the program while it is at hand (in the
// process that exported it), and serialized with the artifact up to
// vjp_order levels; an artifact loaded without it has none.

// lazyVJP computes the VJP once, when first asked.
func lazyVJP(e *Exported) func() (*Exported, error) {
	var once sync.Once
	var v *Exported
	var err error
	return func() (*Exported, error) {
		once.Do(func() { v, err = vjpOf(e) })
		return v, err
	}
}

func vjpOf(e *Exported) (*Exported, error) {
	j := e.Jaxpr
	nc := len(j.ConstVars)
	// The program with its constants as leading inputs, which are not
	// differentiated.
	closed := &trace.Jaxpr{
		InVars:  append(append([]*trace.Var(nil), j.ConstVars...), j.InVars...),
		OutVars: j.OutVars, Eqns: j.Eqns, Effects: j.Effects,
	}
	diff := make([]bool, len(closed.InVars))
	for i := nc; i < len(diff); i++ {
		diff[i] = true
	}
	r, err := ad.VJP(closed, diff)
	if err != nil {
		return nil, fmt.Errorf("the VJP of %s: %w", e.FunName, err)
	}
	b := trace.NewBuilder()
	args := make([]trace.Atom, 0, len(closed.InVars))
	for i, v := range j.ConstVars {
		args = append(args, b.Const(j.Consts[i], v.Aval()))
	}
	for _, a := range e.InAvals {
		args = append(args, b.Input(a))
	}
	var cts []trace.Atom
	for i, a := range e.OutAvals {
		ct := b.Input(a)
		if r.OutTangent[i] {
			cts = append(cts, ct)
		}
	}
	fwd, err := ad.Apply(b, r.Forward, args)
	if err != nil {
		return nil, fmt.Errorf("the VJP of %s: %w", e.FunName, err)
	}
	res := fwd[len(j.OutVars):]
	grads, err := ad.Apply(b, r.Backward, append(append([]trace.Atom(nil), res...), cts...))
	if err != nil {
		return nil, fmt.Errorf("the VJP of %s: %w", e.FunName, err)
	}
	em := &trace.Emitter{B: b}
	outs := make([]trace.Atom, 0, len(e.InAvals))
	k := 0
	for i, a := range e.InAvals {
		if r.Diff[nc+i] {
			outs = append(outs, grads[k])
			k++
			continue
		}
		var zero trace.Atom
		if err := trace.Catch(func() { zero = em.Full(0, a) }); err != nil {
			return nil, err
		}
		outs = append(outs, zero)
	}
	vj, err := b.Build(outs)
	if err != nil {
		return nil, err
	}
	// Flat, as JAX's: vjp(*primals, *cotangents) -> (cotangents of the primals).
	flat := func(n int) *TreeDef {
		t := Tuple()
		for range n {
			t.Children = append(t.Children, Leaf())
		}
		return t
	}
	inTree := Tuple(flat(len(vj.InVars)), &TreeDef{Kind: TreeDict})
	outTree := flat(len(vj.OutVars))
	return New("vjp_"+e.FunName, vj, inTree, outTree, e.Platforms[0], Options{Platforms: e.Platforms, DisabledChecks: e.DisabledChecks})
}
