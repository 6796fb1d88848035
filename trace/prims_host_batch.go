package trace

import (
	"fmt"
	"slices"
)

// Batching rules of the host operations and of nested jit. A print or a
// tap runs once with the whole batched value (SPEC §5): taps see where each
// operand's batch axis is through a ("batch", {"batch_dims": ...}) entry
// of their transforms, one per vmap level. A call batches as its
// vmap_method says, as JAX's pure_callback does.

var _ = addBatchRules(map[string]BatchRule{
	"debug_print":          debugPrintBatch,
	"id_tap":               idTapBatch,
	"call":                 callBatch,
	"jit":                  jitBatch,
	"optimization_barrier": barrierBatch,
})

// debugPrintBatch prints the batched values with the batch axis first, or
// with per_element once per element of the batch, in order.
func debugPrintBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	if each, _ := p["per_element"].(bool); each {
		return sequentialPrint(bt, in, dims, p)
	}
	args, err := batchedOnlyAtFront(bt, in, dims)
	if err != nil {
		return nil, nil, err
	}
	outs, err := bt.Builder().Bind("debug_print", args, p, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), sameDims(len(outs), NotBatched), nil
}

// idTapBatch taps the operands where they are and records their batch axes.
func idTapBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	q := cloneParams(p)
	prev, _ := ParamAs[Transforms](p, "transforms")
	q["transforms"] = append(slices.Clone(prev), Transform{Name: "batch", BatchDims: slices.Clone(dims)})
	outs, err := bt.Builder().Bind("id_tap", in, q, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), slices.Clone(dims), nil
}

// callBatch follows vmap_method. "sequential" calls once per element, in
// order, from a scan over the batch (lax.map); "expand_dims" calls once
// with the batch axis first on batched operands and a size-1 axis on the
// others; "broadcast_all" calls once with every operand broadcast to the
// batch. The last two expect results with a leading batch axis.
func callBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	if len(in) > 0 && in[0].Aval().IsToken() {
		return nil, nil, fmt.Errorf("call: cannot batch a call whose effect token is already threaded")
	}
	method, _ := p["vmap_method"].(string)
	results, _ := ParamAs[[]AVal](p, "result_avals")
	batchedResults := func() Params {
		q := cloneParams(p)
		avals := make([]AVal, len(results))
		for i, a := range results {
			avals[i] = a.WithShape(withBatch(bt, a.Shape))
		}
		q["result_avals"] = avals
		return q
	}
	var args []Atom
	var err error
	switch method {
	case "sequential":
		return sequentialCall(bt, in, dims, p)
	case "expand_dims":
		args = make([]Atom, len(in))
		for i, x := range in {
			if dims[i] != NotBatched {
				args[i], err = MoveAxis(bt, x, dims[i], 0)
			} else {
				args[i], err = batchBind(bt, "reshape", Params{"new_sizes": append([]int{1}, x.Aval().Shape...)}, x)
			}
			if err != nil {
				return nil, nil, err
			}
		}
	case "broadcast_all":
		if args, err = allAtFront(bt, in, dims); err != nil {
			return nil, nil, err
		}
	case "":
		if p.Bool("ordered") {
			return nil, nil, fmt.Errorf("cannot vmap the ordered call(%s) (JAX: \"Cannot `vmap` ordered IO callback.\")", callbackName(p))
		}
		fallthrough
	default:
		return nil, nil, fmt.Errorf("call(%s) needs vmap_method='sequential', 'expand_dims' or 'broadcast_all' to be batched "+
			"(as JAX's pure_callback: vmap_method=None is an error under vmap)", callbackName(p))
	}
	outs, err := bt.Builder().Bind("call", args, batchedResults(), bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), sameDims(len(outs), 0), nil
}

func callbackName(p Params) string {
	if c, ok := p["callback"].(Callback); ok {
		return c.CallbackName()
	}
	return "?"
}

// sequentialCall maps the call over the batch with a scan: unbatched
// operands are its consts, batched ones its xs, the results its ys.
func sequentialCall(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	body := NewBuilder()
	var consts, xs []Atom
	inner := make([]Atom, len(in))
	for i, x := range in {
		if dims[i] == NotBatched {
			inner[i] = body.Input(x.Aval())
			consts = append(consts, x)
		}
	}
	for i, x := range in {
		if dims[i] != NotBatched {
			moved, err := MoveAxis(bt, x, dims[i], 0)
			if err != nil {
				return nil, nil, err
			}
			xs = append(xs, moved)
			inner[i] = body.Input(unbatchedAval(x.Aval(), dims[i]))
		}
	}
	outs, err := body.Bind("call", inner, p, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	j, err := body.Build(varsAsAtoms(outs))
	if err != nil {
		return nil, nil, err
	}
	ys, err := bt.Builder().Bind("scan", append(consts, xs...), Params{
		"jaxpr": j, "length": bt.Size(), "reverse": false, "num_consts": len(consts), "num_carry": 0, "unroll": 1,
	}, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(ys), sameDims(len(ys), 0), nil
}

// sequentialPrint prints each element of the batch from a scan over it, as
// sequentialCall calls; the print's token result is a fresh token, which
// nothing reads (the compiler threads its own).
func sequentialPrint(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	body := NewBuilder()
	var consts, xs []Atom
	inner := make([]Atom, len(in))
	for i, x := range in {
		if dims[i] == NotBatched {
			inner[i] = body.Input(x.Aval())
			consts = append(consts, x)
		}
	}
	for i, x := range in {
		if dims[i] != NotBatched {
			moved, err := MoveAxis(bt, x, dims[i], 0)
			if err != nil {
				return nil, nil, err
			}
			xs = append(xs, moved)
			inner[i] = body.Input(unbatchedAval(x.Aval(), dims[i]))
		}
	}
	if _, err := body.Bind("debug_print", inner, p, bt.Pos()); err != nil {
		return nil, nil, err
	}
	j, err := body.Build(nil)
	if err != nil {
		return nil, nil, err
	}
	if _, err := bt.Builder().Bind("scan", append(consts, xs...), Params{
		"jaxpr": j, "length": bt.Size(), "reverse": false, "num_consts": len(consts), "num_carry": 0, "unroll": 1,
	}, bt.Pos()); err != nil {
		return nil, nil, err
	}
	tok, err := bt.Builder().Bind("create_token", nil, Params{}, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(tok), sameDims(1, NotBatched), nil
}

// jitBatch batches the nested jaxpr and keeps the call.
func jitBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	args, err := batchedOnlyAtFront(bt, in, dims)
	if err != nil {
		return nil, nil, err
	}
	j := p.Jaxpr("jaxpr")
	batched, outBatched, err := bt.BatchJaxpr(j, asBools(dims), make([]bool, len(j.OutVars)))
	if err != nil {
		return nil, nil, err
	}
	q := cloneParams(p)
	q["jaxpr"] = batched
	outs, err := bt.Builder().Bind("jit", args, q, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), fromBools(outBatched), nil
}

// barrierBatch passes values through where they are.
func barrierBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	outs, err := bt.Builder().Bind("optimization_barrier", in, p, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), slices.Clone(dims), nil
}

func cloneParams(p Params) Params {
	q := make(Params, len(p)+1)
	for k, v := range p {
		q[k] = v
	}
	return q
}
