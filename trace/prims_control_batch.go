package trace

import (
	"fmt"
	"slices"
)

// Batching rules of control flow, after JAX's. Bodies are batched with the
// batch axis first on every batched value. A loop carry that becomes
// batched in the body must be batched on entry too, so carries are batched
// to a fixed point. A batched predicate cannot pick one branch or decide one
// loop exit for the whole batch:
//   - cond runs every branch on the whole batch and selects each element's
//     result (JAX converts to select the same way); prints and taps in the
//     branches therefore run for every branch, once each;
//   - while runs until every element is done, and elements that are done
//     keep their carry. The predicate vector is part of the carry, so the
//     condition's effects run once per evaluation, as unbatched: once
//     before the loop and once after each iteration.
//
// Bodies here hold no threaded tokens: batching runs on traced jaxprs,
// before the compiler threads tokens.

var _ = addBatchRules(map[string]BatchRule{
	"cond":  condBatch,
	"while": whileBatch,
	"scan":  scanBatch,
})

func rejectTokens(prim string, in []Atom) error {
	for _, x := range in {
		if x.Aval().IsToken() {
			return fmt.Errorf("%s: cannot batch a loop or branch whose effect token is already threaded", prim)
		}
	}
	return nil
}

func condBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	if err := rejectTokens("cond", in); err != nil {
		return nil, nil, err
	}
	branches, _ := ParamAs[[]*Jaxpr](p, "branches")
	ops, opDims := in[1:], dims[1:]
	if dims[0] == NotBatched {
		args, err := batchedOnlyAtFront(bt, ops, opDims)
		if err != nil {
			return nil, nil, err
		}
		// Outputs batched in any branch are batched in all of them.
		instantiate := make([]bool, len(branches[0].OutVars))
		for _, b := range branches {
			_, outB, err := bt.BatchJaxpr(b, asBools(opDims), instantiate)
			if err != nil {
				return nil, nil, err
			}
			for i, o := range outB {
				instantiate[i] = instantiate[i] || o
			}
		}
		batched := make([]*Jaxpr, len(branches))
		for i, b := range branches {
			var err error
			if batched[i], _, err = bt.BatchJaxpr(b, asBools(opDims), instantiate); err != nil {
				return nil, nil, err
			}
		}
		outs, err := bt.Builder().Bind("cond", append([]Atom{in[0]}, args...), Params{"branches": batched}, bt.Pos())
		if err != nil {
			return nil, nil, err
		}
		return varsAsAtoms(outs), fromBools(instantiate), nil
	}
	for _, b := range branches {
		for _, e := range b.Effects {
			if e.Kind == "call" {
				// JAX refuses IO callbacks in a vmapped cond; so do we: a
				// call in a branch not taken must not run.
				return nil, nil, fmt.Errorf("cond with a batched predicate: a call() in a branch is not supported under vmap (every branch runs on the whole batch); JAX raises \"IO effect not supported in vmap-of-cond\"")
			}
		}
	}
	index, err := MoveAxis(bt, in[0], dims[0], 0)
	if err != nil {
		return nil, nil, err
	}
	args, err := allAtFront(bt, ops, opDims)
	if err != nil {
		return nil, nil, err
	}
	all := make([]bool, len(ops))
	for i := range all {
		all[i] = true
	}
	outAll := make([]bool, len(branches[0].OutVars))
	for i := range outAll {
		outAll[i] = true
	}
	results := make([][]Atom, len(branches))
	for i, b := range branches {
		batched, _, err := bt.BatchJaxpr(b, all, outAll)
		if err != nil {
			return nil, nil, err
		}
		if results[i], err = InlineJaxpr(bt.Builder(), batched, args); err != nil {
			return nil, nil, err
		}
	}
	outs := make([]Atom, len(outAll))
	for k := range outs {
		cases := make([]Atom, len(branches))
		for i := range branches {
			cases[i] = results[i][k]
		}
		if len(cases) == 1 {
			outs[k] = cases[0]
			continue
		}
		which := index
		if cases[0].Aval().Rank() > 1 {
			if which, err = batchBind(bt, "broadcast_in_dim", Params{
				"shape": []int(cases[0].Aval().Shape), "broadcast_dimensions": []int{0},
			}, index); err != nil {
				return nil, nil, err
			}
		}
		if outs[k], err = batchBind(bt, "select_n", Params{}, append([]Atom{which}, cases...)...); err != nil {
			return nil, nil, err
		}
	}
	return outs, sameDims(len(outs), 0), nil
}

// carryFixpoint batches body (whose inputs are consts then carries and
// whose first outputs are the carries) until the carries batched on entry
// include every carry batched on exit.
func carryFixpoint(bt Batcher, body *Jaxpr, constsB, carryB []bool, extraIn []bool) ([]bool, error) {
	carryB = slices.Clone(carryB)
	for {
		in := append(append(slices.Clone(constsB), carryB...), extraIn...)
		_, outB, err := bt.BatchJaxpr(body, in, make([]bool, len(body.OutVars)))
		if err != nil {
			return nil, err
		}
		changed := false
		for i := range carryB {
			if outB[i] && !carryB[i] {
				carryB[i], changed = true, true
			}
		}
		if !changed {
			return carryB, nil
		}
	}
}

// instantiateCarry puts the batch axis first on carries that must be
// batched, broadcasting the ones that are not yet.
func instantiateCarry(bt Batcher, carry []Atom, dims []int, want []bool) ([]Atom, error) {
	out := make([]Atom, len(carry))
	for i, x := range carry {
		var err error
		switch {
		case want[i]:
			out[i], err = BatchAtFront(bt, x, dims[i])
		default:
			out[i] = x
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func whileBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	if err := rejectTokens("while", in); err != nil {
		return nil, nil, err
	}
	cn, bn := p.Int("cond_nconsts"), p.Int("body_nconsts")
	condJ, bodyJ := p.Jaxpr("cond_jaxpr"), p.Jaxpr("body_jaxpr")
	consts, err := batchedOnlyAtFront(bt, in[:cn+bn], dims[:cn+bn])
	if err != nil {
		return nil, nil, err
	}
	cconsts, bconsts, carry := consts[:cn], consts[cn:], in[cn+bn:]
	ccB, bcB, carryDims := asBools(dims[:cn]), asBools(dims[cn:cn+bn]), dims[cn+bn:]
	carryB := asBools(carryDims)
	var predB bool
	for {
		if carryB, err = carryFixpoint(bt, bodyJ, bcB, carryB, nil); err != nil {
			return nil, nil, err
		}
		_, outB, err := bt.BatchJaxpr(condJ, append(slices.Clone(ccB), carryB...), []bool{false})
		if err != nil {
			return nil, nil, err
		}
		if predB = outB[0]; !predB || !slices.Contains(carryB, false) {
			break
		}
		// A batched predicate stops elements at different iterations, so
		// every carry differs per element.
		for i := range carryB {
			carryB[i] = true
		}
	}
	carryIn, err := instantiateCarry(bt, carry, carryDims, carryB)
	if err != nil {
		return nil, nil, err
	}
	bodyB, _, err := bt.BatchJaxpr(bodyJ, append(slices.Clone(bcB), carryB...), carryB)
	if err != nil {
		return nil, nil, err
	}
	if !predB {
		condB, _, err := bt.BatchJaxpr(condJ, append(slices.Clone(ccB), carryB...), []bool{false})
		if err != nil {
			return nil, nil, err
		}
		outs, err := bt.Builder().Bind("while", append(slices.Clone(consts), carryIn...), Params{
			"cond_jaxpr": condB, "cond_nconsts": cn, "body_jaxpr": bodyB, "body_nconsts": bn,
		}, bt.Pos())
		if err != nil {
			return nil, nil, err
		}
		return varsAsAtoms(outs), fromBools(carryB), nil
	}
	condB, _, err := bt.BatchJaxpr(condJ, append(slices.Clone(ccB), carryB...), []bool{true})
	if err != nil {
		return nil, nil, err
	}
	return batchedPredicateWhile(bt, cconsts, bconsts, carryIn, condB, bodyB)
}

// batchedPredicateWhile loops while any element's predicate holds. The
// carry gains the predicate vector; the body steps every element, keeps
// the old carry of elements that were done, and evaluates the condition
// on the result for the next test.
func batchedPredicateWhile(bt Batcher, cconsts, bconsts, carry []Atom, condB, bodyB *Jaxpr) ([]Atom, []int, error) {
	pred, err := InlineJaxpr(bt.Builder(), condB, append(slices.Clone(cconsts), carry...))
	if err != nil {
		return nil, nil, err
	}
	predAval := pred[0].Aval()

	cb := NewBuilder()
	cpred := cb.Input(predAval)
	for _, x := range carry {
		cb.Input(x.Aval())
	}
	anyLeft, err := cb.Bind("reduce_or", []Atom{cpred}, Params{"axes": []int{0}}, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	newCond, err := cb.Build(varsAsAtoms(anyLeft))
	if err != nil {
		return nil, nil, err
	}

	bb := NewBuilder()
	var inCC, inBC, inCarry []Atom
	for _, x := range cconsts {
		inCC = append(inCC, bb.Input(x.Aval()))
	}
	for _, x := range bconsts {
		inBC = append(inBC, bb.Input(x.Aval()))
	}
	bpred := bb.Input(predAval)
	for _, x := range carry {
		inCarry = append(inCarry, bb.Input(x.Aval()))
	}
	stepped, err := InlineJaxpr(bb, bodyB, append(slices.Clone(inBC), inCarry...))
	if err != nil {
		return nil, nil, err
	}
	kept := make([]Atom, len(carry))
	for i, x := range stepped {
		var which Atom = bpred
		if x.Aval().Rank() > 1 {
			w, err := bb.Bind("broadcast_in_dim", []Atom{bpred}, Params{
				"shape": []int(x.Aval().Shape), "broadcast_dimensions": []int{0},
			}, bt.Pos())
			if err != nil {
				return nil, nil, err
			}
			which = w[0]
		}
		sel, err := bb.Bind("select_n", []Atom{which, inCarry[i], x}, Params{}, bt.Pos())
		if err != nil {
			return nil, nil, err
		}
		kept[i] = sel[0]
	}
	next, err := InlineJaxpr(bb, condB, append(slices.Clone(inCC), kept...))
	if err != nil {
		return nil, nil, err
	}
	newBody, err := bb.Build(append([]Atom{next[0]}, kept...))
	if err != nil {
		return nil, nil, err
	}
	operands := append(append(append(slices.Clone(cconsts), bconsts...), pred[0]), carry...)
	outs, err := bt.Builder().Bind("while", operands, Params{
		"cond_jaxpr": newCond, "cond_nconsts": 0, "body_jaxpr": newBody, "body_nconsts": len(cconsts) + len(bconsts),
	}, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs[1:]), sameDims(len(outs)-1, 0), nil
}

// scanBatch scans over the same leading axis: batched xs carry their batch
// axis second, the body sees it first, and batched ys come out with it
// second.
func scanBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	if err := rejectTokens("scan", in); err != nil {
		return nil, nil, err
	}
	nc, ncar := p.Int("num_consts"), p.Int("num_carry")
	j := p.Jaxpr("jaxpr")
	consts, err := batchedOnlyAtFront(bt, in[:nc], dims[:nc])
	if err != nil {
		return nil, nil, err
	}
	xs := slices.Clone(in[nc+ncar:])
	xsDims := dims[nc+ncar:]
	for i, x := range xs {
		if xsDims[i] != NotBatched {
			if xs[i], err = MoveAxis(bt, x, xsDims[i], 1); err != nil {
				return nil, nil, err
			}
		}
	}
	constsB, xsB := asBools(dims[:nc]), asBools(xsDims)
	carryDims := dims[nc : nc+ncar]
	carryB, err := carryFixpoint(bt, j, constsB, asBools(carryDims), xsB)
	if err != nil {
		return nil, nil, err
	}
	carry, err := instantiateCarry(bt, in[nc:nc+ncar], carryDims, carryB)
	if err != nil {
		return nil, nil, err
	}
	instantiate := append(slices.Clone(carryB), make([]bool, len(j.OutVars)-ncar)...)
	body, outB, err := bt.BatchJaxpr(j, append(append(slices.Clone(constsB), carryB...), xsB...), instantiate)
	if err != nil {
		return nil, nil, err
	}
	q := cloneParams(p)
	q["jaxpr"] = body
	outs, err := bt.Builder().Bind("scan", append(append(consts, carry...), xs...), q, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	outDims := fromBools(outB)
	for i := ncar; i < len(outDims); i++ {
		if outDims[i] == 0 {
			outDims[i] = 1
		}
	}
	return varsAsAtoms(outs), outDims, nil
}
