package trace

import "slices"

// Batching rules of reductions, cumulative reductions, sort and
// dot_general. Reductions keep the batch axis where it is and shift their
// axes around it; sort sorts along its shifted dimension; dot_general gains
// a batch dimension when both sides are batched, and otherwise carries the
// batch axis as a free dimension of the batched side.

var _ = addBatchRules(func() map[string]BatchRule {
	rules := map[string]BatchRule{"sort": sortBatch, "dot_general": dotGeneralBatch}
	for _, row := range reductionTable {
		rules[row.name] = reduceBatch(row.name)
	}
	for _, name := range []string{"argmax", "argmin"} {
		rules[name] = reduceBatch(name)
	}
	for _, name := range cumulativeNames {
		rules[name] = func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
			out, err := batchBind(bt, name, Params{"axis": shiftAxis(p.Int("axis"), dims[0]), "reverse": p.Bool("reverse")}, in[0])
			return []Atom{out}, dims[:1:1], err
		}
	}
	return rules
}())

// reduceBatch reduces the shifted axes; the batch axis moves left by the
// number of reduced axes before it.
func reduceBatch(name string) BatchRule {
	return func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		bdim := dims[0]
		axes := shiftAxes(p.Ints("axes"), bdim)
		q := Params{}
		for k, v := range p {
			q[k] = v
		}
		q["axes"] = axes
		out, err := batchBind(bt, name, q, in[0])
		if err != nil {
			return nil, nil, err
		}
		outDim := bdim
		for _, a := range axes {
			if a < bdim {
				outDim--
			}
		}
		return []Atom{out}, []int{outDim}, nil
	}
}

// sortBatch sorts operands of one shape together, so all go batched with
// the batch axis first.
func sortBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	args, err := allAtFront(bt, in, dims)
	if err != nil {
		return nil, nil, err
	}
	outs, err := bt.Builder().Bind("sort", args, Params{
		"dimension": p.Int("dimension") + 1, "is_stable": p.Bool("is_stable"), "num_keys": p.Int("num_keys"),
	}, bt.Pos())
	if err != nil {
		return nil, nil, err
	}
	return varsAsAtoms(outs), sameDims(len(outs), 0), nil
}

// dotGeneralBatch follows JAX's rule. Both sides batched: a new leading
// batch dimension, first in the result. One side batched: its batch axis is
// a free dimension of that side, which the result lists after the batch
// dimensions, lhs free dimensions before rhs ones, each in order.
func dotGeneralBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	dn, _ := ParamAs[DotDimensionNumbers](p, "dimension_numbers")
	lhs, rhs := in[0], in[1]
	ld, rd := dims[0], dims[1]
	q := Params{}
	for k, v := range p {
		q[k] = v
	}
	var outDim int
	switch {
	case ld != NotBatched && rd != NotBatched:
		var err error
		if lhs, err = MoveAxis(bt, lhs, ld, 0); err != nil {
			return nil, nil, err
		}
		if rhs, err = MoveAxis(bt, rhs, rd, 0); err != nil {
			return nil, nil, err
		}
		q["dimension_numbers"] = DotDimensionNumbers{
			LhsContracting: plusOne(dn.LhsContracting), RhsContracting: plusOne(dn.RhsContracting),
			LhsBatch: append([]int{0}, plusOne(dn.LhsBatch)...), RhsBatch: append([]int{0}, plusOne(dn.RhsBatch)...),
		}
		outDim = 0
	case ld != NotBatched:
		q["dimension_numbers"] = DotDimensionNumbers{
			LhsContracting: shiftAxes(dn.LhsContracting, ld), RhsContracting: slices.Clone(dn.RhsContracting),
			LhsBatch: shiftAxes(dn.LhsBatch, ld), RhsBatch: slices.Clone(dn.RhsBatch),
		}
		outDim = len(dn.LhsBatch) + freeBefore(ld, dn.LhsContracting, dn.LhsBatch)
	case rhs.Aval().Rank()-1 == len(dn.RhsContracting)+len(dn.RhsBatch):
		// The batch axis is the rhs's only free dimension (a matrix times a
		// batch of vectors): swapping the operands puts it before the lhs's
		// free dimensions, where the result wants it, instead of after them
		// (which would cost a transpose of the whole result).
		q["dimension_numbers"] = DotDimensionNumbers{
			LhsContracting: shiftAxes(dn.RhsContracting, rd), RhsContracting: slices.Clone(dn.LhsContracting),
			LhsBatch: shiftAxes(dn.RhsBatch, rd), RhsBatch: slices.Clone(dn.LhsBatch),
		}
		if pc, ok := p["precision"].(PrecisionConfig); ok {
			q["precision"] = PrecisionConfig{pc[1], pc[0]}
		}
		lhs, rhs = rhs, lhs
		outDim = len(dn.LhsBatch)
	default:
		q["dimension_numbers"] = DotDimensionNumbers{
			LhsContracting: slices.Clone(dn.LhsContracting), RhsContracting: shiftAxes(dn.RhsContracting, rd),
			LhsBatch: slices.Clone(dn.LhsBatch), RhsBatch: shiftAxes(dn.RhsBatch, rd),
		}
		lhsFree := lhs.Aval().Rank() - len(dn.LhsContracting) - len(dn.LhsBatch)
		outDim = len(dn.LhsBatch) + lhsFree + freeBefore(rd, dn.RhsContracting, dn.RhsBatch)
	}
	out, err := batchBind(bt, "dot_general", q, lhs, rhs)
	return []Atom{out}, []int{outDim}, err
}

// freeBefore counts the free dimensions (neither contracting nor batch, in
// the unbatched numbering) before position bdim of the batched operand.
func freeBefore(bdim int, contracting, batch []int) int {
	n := 0
	for d := range bdim {
		if !containsInt(contracting, d) && !containsInt(batch, d) {
			n++
		}
	}
	return n
}
