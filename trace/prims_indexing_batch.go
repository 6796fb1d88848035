package trace

import "slices"

// Batching rules of gather and the scatters. The batch axis goes first on
// every batched array. A batched operand with unbatched indices gains a
// leading window dimension; batched indices gain a leading batch dimension
// of index vectors; both batched use XLA's batching dimensions, so no index
// arithmetic is needed (JAX's rules do the same).

var _ = addBatchRules(func() map[string]BatchRule {
	rules := map[string]BatchRule{"gather": gatherBatch}
	for _, name := range scatterNames {
		rules[name] = scatterBatch(name)
	}
	return rules
}())

func gatherBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	dn, _ := ParamAs[GatherDimensionNumbers](p, "dimension_numbers")
	sizes := p.Ints("slice_sizes")
	operand, indices, err := frontPair(bt, in, dims)
	if err != nil {
		return nil, nil, err
	}
	q := Params{}
	for k, v := range p {
		q[k] = v
	}
	switch {
	case dims[1] == NotBatched:
		// The batch axis is the operand's first window dimension, and so
		// the result's first offset dimension.
		q["dimension_numbers"] = GatherDimensionNumbers{
			OffsetDims:               append([]int{0}, plusOne(dn.OffsetDims)...),
			CollapsedSliceDims:       plusOne(dn.CollapsedSliceDims),
			StartIndexMap:            plusOne(dn.StartIndexMap),
			OperandBatchingDims:      plusOne(dn.OperandBatchingDims),
			StartIndicesBatchingDims: slices.Clone(dn.StartIndicesBatchingDims),
		}
		q["slice_sizes"] = withBatch(bt, sizes)
	case dims[0] == NotBatched:
		// The batch axis is the indices' first batch dimension, and so the
		// result's first non-offset dimension.
		q["dimension_numbers"] = GatherDimensionNumbers{
			OffsetDims:               plusOne(dn.OffsetDims),
			CollapsedSliceDims:       slices.Clone(dn.CollapsedSliceDims),
			StartIndexMap:            slices.Clone(dn.StartIndexMap),
			OperandBatchingDims:      slices.Clone(dn.OperandBatchingDims),
			StartIndicesBatchingDims: plusOne(dn.StartIndicesBatchingDims),
		}
	default:
		q["dimension_numbers"] = GatherDimensionNumbers{
			OffsetDims:               plusOne(dn.OffsetDims),
			CollapsedSliceDims:       plusOne(dn.CollapsedSliceDims),
			StartIndexMap:            plusOne(dn.StartIndexMap),
			OperandBatchingDims:      append([]int{0}, plusOne(dn.OperandBatchingDims)...),
			StartIndicesBatchingDims: append([]int{0}, plusOne(dn.StartIndicesBatchingDims)...),
		}
		q["slice_sizes"] = append([]int{1}, sizes...)
	}
	out, err := batchBind(bt, "gather", q, operand, indices)
	return []Atom{out}, []int{0}, err
}

// frontPair moves the batch axes of the first two operands first, leaving
// an unbatched one as it is.
func frontPair(bt Batcher, in []Atom, dims []int) (Atom, Atom, error) {
	out, err := batchedOnlyAtFront(bt, in[:2], dims[:2])
	if err != nil {
		return nil, nil, err
	}
	return out[0], out[1], nil
}

// scatterBatch: the result is batched whenever anything is, so the operand
// is always batched (broadcast if need be).
func scatterBatch(name string) BatchRule {
	return func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		dn, _ := ParamAs[ScatterDimensionNumbers](p, "dimension_numbers")
		operand, err := BatchAtFront(bt, in[0], dims[0])
		if err != nil {
			return nil, nil, err
		}
		updates, err := BatchAtFront(bt, in[2], dims[2])
		if err != nil {
			return nil, nil, err
		}
		indices := in[1]
		q := Params{}
		for k, v := range p {
			q[k] = v
		}
		if dims[1] == NotBatched {
			// The batch axis is a window dimension: the first of the
			// updates' and of the operand's.
			q["dimension_numbers"] = ScatterDimensionNumbers{
				UpdateWindowDims:           append([]int{0}, plusOne(dn.UpdateWindowDims)...),
				InsertedWindowDims:         plusOne(dn.InsertedWindowDims),
				ScatterDimsToOperandDims:   plusOne(dn.ScatterDimsToOperandDims),
				OperandBatchingDims:        plusOne(dn.OperandBatchingDims),
				ScatterIndicesBatchingDims: slices.Clone(dn.ScatterIndicesBatchingDims),
			}
		} else {
			if indices, err = MoveAxis(bt, indices, dims[1], 0); err != nil {
				return nil, nil, err
			}
			q["dimension_numbers"] = ScatterDimensionNumbers{
				UpdateWindowDims:           plusOne(dn.UpdateWindowDims),
				InsertedWindowDims:         plusOne(dn.InsertedWindowDims),
				ScatterDimsToOperandDims:   plusOne(dn.ScatterDimsToOperandDims),
				OperandBatchingDims:        append([]int{0}, plusOne(dn.OperandBatchingDims)...),
				ScatterIndicesBatchingDims: append([]int{0}, plusOne(dn.ScatterIndicesBatchingDims)...),
			}
		}
		out, err := batchBind(bt, name, q, operand, indices, updates)
		return []Atom{out}, []int{0}, err
	}
}
