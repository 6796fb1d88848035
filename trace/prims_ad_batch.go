package trace

import "fmt"

// Batching rules of the autodiff primitives. Each batches its jaxprs with
// the same batched inputs; the custom-rule jaxprs must keep the types the
// primal call has, so every output is given a batch axis.

var _ = addBatchRules(map[string]BatchRule{
	"stop_gradient": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		outs, err := bt.Builder().Bind("stop_gradient", in, p, bt.Pos())
		if err != nil {
			return nil, nil, err
		}
		return varsAsAtoms(outs), append([]int(nil), dims...), nil
	},
	"checkpoint":      checkpointBatch("jaxpr"),
	"custom_jvp_call": customJVPBatch,
	"custom_vjp_call": customVJPBatch,
	"custom_lin":      customLinBatch,
})

// checkpointBatch batches the body and keeps the checkpoint (as jit's rule does).
func checkpointBatch(param string) BatchRule {
	return func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		args, err := batchedOnlyAtFront(bt, in, dims)
		if err != nil {
			return nil, nil, err
		}
		j := p.Jaxpr(param)
		batched, outBatched, err := bt.BatchJaxpr(j, asBools(dims), make([]bool, len(j.OutVars)))
		if err != nil {
			return nil, nil, err
		}
		q := cloneParams(p)
		q[param] = batched
		outs, err := bt.Builder().Bind("checkpoint", args, q, bt.Pos())
		if err != nil {
			return nil, nil, err
		}
		return varsAsAtoms(outs), fromBools(outBatched), nil
	}
}

func allTrue(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}

// customJVPBatch batches the primal and the rule; tangents are batched
// where their primals are.
func customJVPBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	args, err := batchedOnlyAtFront(bt, in, dims)
	if err != nil {
		return nil, nil, err
	}
	batched := asBools(dims)
	call := p.Jaxpr("call_jaxpr")
	nOut := len(call.OutVars)
	bcall, _, err := bt.BatchJaxpr(call, batched, allTrue(nOut))
	if err != nil {
		return nil, nil, err
	}
	brule, _, err := bt.BatchJaxpr(p.Jaxpr("jvp_jaxpr"), append(append([]bool(nil), batched...), batched...), allTrue(2*nOut))
	if err != nil {
		return nil, nil, err
	}
	q := cloneParams(p)
	q["call_jaxpr"], q["jvp_jaxpr"] = bcall, brule
	outs, err := bt.Builder().Bind("custom_jvp_call", args, q, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), sameDims(len(outs), 0), nil
}

// customVJPBatch batches the primal, fwd (every output and residual
// batched) and bwd; bwd's cotangents of unbatched operands are summed over
// the batch, as the cotangent of a value shared by the whole batch.
func customVJPBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	args, err := batchedOnlyAtFront(bt, in, dims)
	if err != nil {
		return nil, nil, err
	}
	batched := asBools(dims)
	call, fwd := p.Jaxpr("call_jaxpr"), p.Jaxpr("fwd_jaxpr")
	bcall, _, err := bt.BatchJaxpr(call, batched, allTrue(len(call.OutVars)))
	if err != nil {
		return nil, nil, err
	}
	bfwd, _, err := bt.BatchJaxpr(fwd, batched, allTrue(len(fwd.OutVars)))
	if err != nil {
		return nil, nil, err
	}
	bwd, err := batchBwd(bt, p.Jaxpr("bwd_jaxpr"), batched)
	if err != nil {
		return nil, nil, err
	}
	q := cloneParams(p)
	q["call_jaxpr"], q["fwd_jaxpr"], q["bwd_jaxpr"] = bcall, bfwd, bwd
	outs, err := bt.Builder().Bind("custom_vjp_call", args, q, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), sameDims(len(outs), 0), nil
}

// batchBwd batches a bwd jaxpr whose inputs (residuals and cotangents) are
// all batched, and sums the cotangents of unbatched operands over the
// batch.
func batchBwd(bt Batcher, bwd *Jaxpr, operandBatched []bool) (*Jaxpr, error) {
	b, _, err := bt.BatchJaxpr(bwd, allTrue(len(bwd.InVars)), allTrue(len(bwd.OutVars)))
	if err != nil {
		return nil, err
	}
	if len(b.OutVars) != len(operandBatched) {
		return nil, fmt.Errorf("bwd returns %d cotangents for %d operands", len(b.OutVars), len(operandBatched))
	}
	nb := NewBuilder()
	args := make([]Atom, len(b.InVars))
	for i, v := range b.InVars {
		args[i] = nb.Input(v.Aval())
	}
	outs, err := nb.Apply(b, args)
	if err != nil {
		return nil, err
	}
	for i, isBatched := range operandBatched {
		if !isBatched {
			sum, err := nb.Bind("reduce_sum", []Atom{outs[i]}, Params{"axes": []int{0}}, bt.Pos())
			if err != nil {
				return nil, err
			}
			outs[i] = sum[0]
		}
	}
	return nb.Build(outs)
}

// customLinBatch batches the bwd a custom_lin will be transposed into;
// its outputs (tangents) are all batched.
func customLinBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	args, err := allAtFront(bt, in, dims)
	if err != nil {
		return nil, nil, err
	}
	numRes := p.Int("num_res")
	bwd, err := batchBwd(bt, p.Jaxpr("bwd_jaxpr"), allTrue(len(in)-numRes))
	if err != nil {
		return nil, nil, err
	}
	avals, _ := ParamAs[[]AVal](p, "out_avals")
	batchedAvals := make([]AVal, len(avals))
	for i, a := range avals {
		batchedAvals[i] = a.WithShape(append(Shape{bt.Size()}, a.Shape...))
	}
	q := cloneParams(p)
	q["bwd_jaxpr"], q["out_avals"] = bwd, batchedAvals
	outs, err := bt.Builder().Bind("custom_lin", args, q, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), sameDims(len(outs), 0), nil
}
