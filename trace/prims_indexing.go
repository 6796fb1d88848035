package trace

import "fmt"

// gather and the scatter family, with XLA's dimension numbers as JAX spells
// them (jax/_src/lax/slicing.py). The index vector is always the last
// dimension of the indices. These cover NumPy indexing and every .at[]
// update.

// scatter overwrites; the others combine the update with the operand
// (add, mul, min, max).
var scatterNames = []string{"scatter", "scatter-add", "scatter-mul", "scatter-min", "scatter-max"}

func indexingPrims() []*Primitive {
	out := []*Primitive{{
		Name: "gather", Props: Structural, MinIn: 2, MaxIn: 2,
		Params: []ParamSpec{
			{Name: "dimension_numbers", Kind: ParamGatherDims},
			{Name: "slice_sizes", Kind: ParamInts},
			{Name: "indices_are_sorted", Kind: ParamBool},
			{Name: "unique_indices", Kind: ParamBool},
			{Name: "mode", Kind: ParamGatherMode},
			{Name: "fill_value", Kind: ParamNumber, Optional: true},
		},
		Rule: gatherRule,
	}}
	for _, name := range scatterNames {
		props := Structural
		if name != "scatter" {
			props = 0
		}
		out = append(out, &Primitive{
			Name: name, Props: props, MinIn: 3, MaxIn: 3,
			Params: []ParamSpec{
				{Name: "dimension_numbers", Kind: ParamScatterDims},
				{Name: "indices_are_sorted", Kind: ParamBool},
				{Name: "unique_indices", Kind: ParamBool},
				{Name: "mode", Kind: ParamGatherMode},
			},
			Rule: scatterRule(name),
		})
	}
	return out
}

// dimList checks a list of dimension numbers: sorted (if required), distinct,
// each in [0, rank).
func dimList(op, name string, dims []int, rank int, sorted bool) error {
	for i, d := range dims {
		switch {
		case sorted && i > 0 && d < dims[i-1]:
			return fmt.Errorf("%s in %s must be sorted, got %s", name, op, pyIntTuple(dims))
		case containsInt(dims[:i], d):
			return fmt.Errorf("%s in %s must not repeat, got %s", name, op, pyIntTuple(dims))
		case d < 0 || d >= rank:
			return fmt.Errorf("%s in %s must lie in [0, %d), got %s", name, op, rank, pyIntTuple(dims))
		}
	}
	return nil
}

func disjoint(op, name1 string, dims1 []int, name2 string, dims2 []int) error {
	for _, d := range dims1 {
		if containsInt(dims2, d) {
			return fmt.Errorf("%s and %s in %s must be disjoint, got %s and %s", name1, name2, op, pyIntTuple(dims1), pyIntTuple(dims2))
		}
	}
	return nil
}

func checkIndices(indices AVal) error {
	if !indices.DType.IsInteger() {
		return fmt.Errorf("indices must have an integer dtype, got %s", indices.DType)
	}
	if indices.Rank() < 1 {
		return fmt.Errorf("indices need a trailing index vector dimension, got a scalar")
	}
	return nil
}

func gatherRule(in []AVal, p Params) ([]AVal, error) {
	operand, indices := in[0], in[1]
	dn, _ := ParamAs[GatherDimensionNumbers](p, "dimension_numbers")
	sizes := p.Ints("slice_sizes")
	if err := checkArray(in[:1]); err != nil {
		return nil, err
	}
	if err := checkIndices(indices); err != nil {
		return nil, err
	}
	if fill, ok := p["fill_value"].(float64); ok && !operand.DType.IsInexact() && fill != float64(int64(fill)) {
		return nil, fmt.Errorf("fill_value %s does not fit dtype %s", pyFloat(fill), operand.DType)
	}
	vectorDim := indices.Rank() - 1
	outRank := len(dn.OffsetDims) + indices.Rank() - 1
	const op = "gather"
	checks := []error{
		dimList(op, "offset_dims", dn.OffsetDims, outRank, true),
		dimList(op, "start_index_map", dn.StartIndexMap, operand.Rank(), false),
		dimList(op, "collapsed_slice_dims", dn.CollapsedSliceDims, operand.Rank(), true),
		dimList(op, "operand_batching_dims", dn.OperandBatchingDims, operand.Rank(), true),
		dimList(op, "start_indices_batching_dims", dn.StartIndicesBatchingDims, indices.Rank(), false),
		disjoint(op, "collapsed_slice_dims", dn.CollapsedSliceDims, "operand_batching_dims", dn.OperandBatchingDims),
		disjoint(op, "start_index_map", dn.StartIndexMap, "operand_batching_dims", dn.OperandBatchingDims),
	}
	for _, err := range checks {
		if err != nil {
			return nil, err
		}
	}
	if len(dn.StartIndexMap) != indices.Shape[vectorDim] {
		return nil, fmt.Errorf("start_index_map %s has %d entries but the index vector dimension of the indices has size %d",
			pyIntTuple(dn.StartIndexMap), len(dn.StartIndexMap), indices.Shape[vectorDim])
	}
	if containsInt(dn.StartIndicesBatchingDims, vectorDim) {
		return nil, fmt.Errorf("the index vector dimension %d cannot be a batching dimension", vectorDim)
	}
	if err := batchShapesMatch(op, operand, dn.OperandBatchingDims, "indices", indices, dn.StartIndicesBatchingDims); err != nil {
		return nil, err
	}
	if len(sizes) != operand.Rank() {
		return nil, fmt.Errorf("slice_sizes %s must have one entry per operand dimension (%d)", pyIntTuple(sizes), operand.Rank())
	}
	if len(sizes) != len(dn.OffsetDims)+len(dn.CollapsedSliceDims)+len(dn.OperandBatchingDims) {
		return nil, fmt.Errorf("every operand dimension must be an offset, collapsed or batching dimension: %d slice sizes, offset_dims %s, collapsed_slice_dims %s, operand_batching_dims %s",
			len(sizes), pyIntTuple(dn.OffsetDims), pyIntTuple(dn.CollapsedSliceDims), pyIntTuple(dn.OperandBatchingDims))
	}
	for i, s := range sizes {
		if indices.Size() > 0 && (s < 0 || s > operand.Shape[i]) {
			return nil, fmt.Errorf("slice size %d of dimension %d must lie in [0, %d]", s, i, operand.Shape[i])
		}
		if containsInt(dn.CollapsedSliceDims, i) && s != 1 {
			return nil, fmt.Errorf("collapsed dimension %d must have slice size 1, got %d", i, s)
		}
		if containsInt(dn.OperandBatchingDims, i) && s > 1 {
			return nil, fmt.Errorf("batching dimension %d must have slice size 0 or 1, got %d", i, s)
		}
	}
	// Output: offset dims take the remaining slice sizes in order, the other
	// dims take the indices' batch dims (all but the index vector) in order.
	var windowSizes []int
	for i, s := range sizes {
		if !containsInt(dn.CollapsedSliceDims, i) && !containsInt(dn.OperandBatchingDims, i) {
			windowSizes = append(windowSizes, s)
		}
	}
	batch := indices.Shape[:vectorDim]
	out := make(Shape, outRank)
	for i := range out {
		if containsInt(dn.OffsetDims, i) {
			out[i], windowSizes = windowSizes[0], windowSizes[1:]
		} else {
			out[i], batch = batch[0], batch[1:]
		}
	}
	return one(AVal{Shape: out, DType: operand.DType, Weak: operand.Weak}), nil
}

// batchShapesMatch requires the operand's batching dims to have the sizes
// of the other array's corresponding ones.
func batchShapesMatch(op string, operand AVal, operandDims []int, otherName string, other AVal, otherDims []int) error {
	if len(operandDims) != len(otherDims) {
		return fmt.Errorf("%s needs as many operand batching dims as %s batching dims, got %s and %s",
			op, otherName, pyIntTuple(operandDims), pyIntTuple(otherDims))
	}
	for i := range operandDims {
		if !dimEqual(operand.Shape[operandDims[i]], other.Shape[otherDims[i]]) {
			return fmt.Errorf("%s batching dimensions of the operand and %s must have equal sizes, got %d and %d",
				op, otherName, operand.Shape[operandDims[i]], other.Shape[otherDims[i]])
		}
	}
	return nil
}

func scatterRule(name string) func([]AVal, Params) ([]AVal, error) {
	accepts := setAny
	if name == "scatter-add" || name == "scatter-mul" {
		accepts = setNum
	}
	return func(in []AVal, p Params) ([]AVal, error) {
		operand, indices, updates := in[0], in[1], in[2]
		dn, _ := ParamAs[ScatterDimensionNumbers](p, "dimension_numbers")
		if err := checkDTypes([]AVal{operand, updates}, accepts); err != nil {
			return nil, err
		}
		if err := checkSameDTypes([]AVal{operand, updates}); err != nil {
			return nil, err
		}
		if err := checkIndices(indices); err != nil {
			return nil, err
		}
		vectorDim := indices.Rank() - 1
		if want := indices.Rank() - 1 + len(dn.UpdateWindowDims); updates.Rank() != want {
			return nil, fmt.Errorf("updates must have rank %d, got %d", want, updates.Rank())
		}
		checks := []error{
			dimList(name, "update_window_dims", dn.UpdateWindowDims, updates.Rank(), true),
			dimList(name, "inserted_window_dims", dn.InsertedWindowDims, operand.Rank(), true),
			dimList(name, "operand_batching_dims", dn.OperandBatchingDims, operand.Rank(), true),
			dimList(name, "scatter_indices_batching_dims", dn.ScatterIndicesBatchingDims, indices.Rank(), false),
			dimList(name, "scatter_dims_to_operand_dims", dn.ScatterDimsToOperandDims, operand.Rank(), false),
			disjoint(name, "inserted_window_dims", dn.InsertedWindowDims, "operand_batching_dims", dn.OperandBatchingDims),
			disjoint(name, "scatter_dims_to_operand_dims", dn.ScatterDimsToOperandDims, "operand_batching_dims", dn.OperandBatchingDims),
		}
		for _, err := range checks {
			if err != nil {
				return nil, err
			}
		}
		if containsInt(dn.ScatterIndicesBatchingDims, vectorDim) {
			return nil, fmt.Errorf("the index vector dimension %d cannot be a batching dimension", vectorDim)
		}
		if err := batchShapesMatch(name, operand, dn.OperandBatchingDims, "indices", indices, dn.ScatterIndicesBatchingDims); err != nil {
			return nil, err
		}
		// The updates' scatter dims (those that are not window dims) match
		// the indices' batch dims (all but the last) in order.
		var updateScatterDims []int
		for d := 0; d < updates.Rank(); d++ {
			if !containsInt(dn.UpdateWindowDims, d) {
				updateScatterDims = append(updateScatterDims, d)
			}
		}
		updatesBatching := make([]int, len(dn.ScatterIndicesBatchingDims))
		for i, d := range dn.ScatterIndicesBatchingDims {
			updatesBatching[i] = updateScatterDims[d]
		}
		if err := batchShapesMatch(name, operand, dn.OperandBatchingDims, "updates", updates, updatesBatching); err != nil {
			return nil, err
		}
		if window := len(dn.UpdateWindowDims) + len(dn.InsertedWindowDims) + len(dn.OperandBatchingDims); window != operand.Rank() {
			return nil, fmt.Errorf("window of size %d does not match operand rank %d", window, operand.Rank())
		}
		if len(dn.ScatterDimsToOperandDims) != indices.Shape[vectorDim] {
			return nil, fmt.Errorf("scatter_dims_to_operand_dims %s has %d entries but the index vector dimension of the indices has size %d",
				pyIntTuple(dn.ScatterDimsToOperandDims), len(dn.ScatterDimsToOperandDims), indices.Shape[vectorDim])
		}
		var maxWindow []int
		for i, d := range operand.Shape {
			if !containsInt(dn.InsertedWindowDims, i) && !containsInt(dn.OperandBatchingDims, i) {
				maxWindow = append(maxWindow, d)
			}
		}
		for i, d := range dn.UpdateWindowDims {
			if updates.Shape[d] > maxWindow[i] {
				return nil, fmt.Errorf("window dimension %d of the updates has size %d, more than the operand's %d", d, updates.Shape[d], maxWindow[i])
			}
		}
		batch := indices.Shape[:vectorDim]
		for i, d := range updateScatterDims {
			if !dimEqual(updates.Shape[d], batch[i]) {
				return nil, fmt.Errorf("scatter dimension %d of the updates has size %d, but the indices' dimension %d has size %d", d, updates.Shape[d], i, batch[i])
			}
		}
		return one(AVal{Shape: operand.Shape, DType: operand.DType, Weak: operand.Weak}), nil
	}
}
