package trace

import "slices"

// Batching rules of the elementwise primitives: the batch axis is one more
// elementwise axis.

var _ = addBatchRules(elementwiseBatchRules())

func elementwiseBatchRules() map[string]BatchRule {
	rules := map[string]BatchRule{}
	for _, row := range unaryTable {
		rules[row.name] = elementwiseBatch(row.name)
	}
	for _, row := range binaryTable {
		rules[row.name] = elementwiseBatch(row.name)
	}
	for _, name := range []string{"pow", "select_n", "clamp", "convert_element_type", "threefry2x32"} {
		rules[name] = elementwiseBatch(name)
	}
	// A narrower dtype adds a trailing axis and a wider one consumes it,
	// so the batch axis goes first, out of the way.
	rules["bitcast_convert_type"] = func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		x, err := MoveAxis(bt, in[0], dims[0], 0)
		if err != nil {
			return nil, nil, err
		}
		out, err := batchBind(bt, "bitcast_convert_type", p, x)
		return []Atom{out}, []int{0}, err
	}
	return rules
}

// elementwiseBatch applies an elementwise primitive to the whole batch.
// When every operand is batched along the same axis with the result's rank
// the primitive applies as it is; otherwise batch axes go first, unbatched
// operands broadcast along it, and scalars stay scalars where the shape
// rule lets them broadcast (threefry2x32 over a batch of keys thus draws
// one stream per key: it is elementwise in the key words).
func elementwiseBatch(prim string) BatchRule {
	return func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		return batchElementwise(bt, prim, in, dims, p)
	}
}

func batchElementwise(bt Batcher, prim string, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	if d, ok := sharedBatchAxis(in, dims); ok {
		outs, err := bt.Builder().Bind(prim, in, p, bt.Pos())
		if err != nil {
			return nil, nil, err
		}
		return varsAsAtoms(outs), sameDims(len(outs), d), nil
	}
	// The per-element result shape, from the shape rule on per-element
	// operands.
	per := make([]AVal, len(in))
	for i, x := range in {
		per[i] = unbatchedAval(x.Aval(), dims[i])
	}
	outAvals, _, err := Lookup(prim).Infer(per, p)
	if err != nil {
		return nil, nil, err
	}
	full := withBatch(bt, outAvals[0].Shape)
	args := make([]Atom, len(in))
	for i, x := range in {
		rank := x.Aval().Rank()
		switch {
		case dims[i] == NotBatched && rank == 0 && scalarBroadcasts(prim, i):
			args[i] = x
		case dims[i] == NotBatched:
			args[i], err = batchBind(bt, "broadcast_in_dim", Params{"shape": full, "broadcast_dimensions": plusOne(iotaInts(rank))}, x)
		default:
			if args[i], err = MoveAxis(bt, x, dims[i], 0); err != nil {
				return nil, nil, err
			}
			if !args[i].Aval().Shape.Equal(full) {
				args[i], err = batchBind(bt, "broadcast_in_dim", Params{"shape": full, "broadcast_dimensions": iotaInts(rank)}, args[i])
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	outs, err := bt.Builder().Bind(prim, args, p, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), sameDims(len(outs), 0), nil
}

// sharedBatchAxis reports whether every operand is batched along one axis
// and all have one rank, so the primitive applies unchanged.
func sharedBatchAxis(in []Atom, dims []int) (int, bool) {
	for i, x := range in {
		if dims[i] != dims[0] || dims[i] == NotBatched || x.Aval().Rank() != in[0].Aval().Rank() {
			return 0, false
		}
	}
	return dims[0], true
}

// scalarBroadcasts says whether operand i of an elementwise primitive may
// be a scalar against arrays: select_n's cases and clamp's operand must
// have the result's shape.
func scalarBroadcasts(prim string, i int) bool {
	switch prim {
	case "select_n":
		return i == 0
	case "clamp":
		return i != 1
	}
	return true
}

func iotaInts(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func sameDims(n, d int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = d
	}
	return out
}

func varsAsAtoms(vs []*Var) []Atom {
	out := make([]Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return slices.Clip(out)
}
