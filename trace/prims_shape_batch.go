package trace

// Batching rules of the structural primitives: the batch axis goes first
// and the params gain a leading entry for it. dynamic_slice and
// dynamic_update_slice with batched start indices become a gather and a
// scatter (a different window per element), as in JAX.

var _ = addBatchRules(map[string]BatchRule{
	"broadcast_in_dim": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		return frontUnary(bt, "broadcast_in_dim", in[0], dims[0], Params{
			"shape":                withBatch(bt, p.Ints("shape")),
			"broadcast_dimensions": append([]int{0}, plusOne(p.Ints("broadcast_dimensions"))...),
		})
	},
	"reshape": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		return frontUnary(bt, "reshape", in[0], dims[0], Params{"new_sizes": withBatch(bt, p.Ints("new_sizes"))})
	},
	"transpose": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		return frontUnary(bt, "transpose", in[0], dims[0], Params{"permutation": append([]int{0}, plusOne(p.Ints("permutation"))...)})
	},
	"squeeze": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		return frontUnary(bt, "squeeze", in[0], dims[0], Params{"dimensions": plusOne(p.Ints("dimensions"))})
	},
	"rev": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		return frontUnary(bt, "rev", in[0], dims[0], Params{"dimensions": plusOne(p.Ints("dimensions"))})
	},
	"slice": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		q := Params{
			"start_indices": append([]int{0}, p.Ints("start_indices")...),
			"limit_indices": append([]int{bt.Size()}, p.Ints("limit_indices")...),
			"strides":       nil,
		}
		if s := p.Ints("strides"); s != nil {
			q["strides"] = append([]int{1}, s...)
		}
		return frontUnary(bt, "slice", in[0], dims[0], q)
	},
	"concatenate": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		args, err := allAtFront(bt, in, dims)
		if err != nil {
			return nil, nil, err
		}
		out, err := batchBind(bt, "concatenate", Params{"dimension": p.Int("dimension") + 1}, args...)
		return []Atom{out}, []int{0}, err
	},
	"pad":                  padBatch,
	"dynamic_slice":        dynamicSliceBatch,
	"dynamic_update_slice": dynamicUpdateSliceBatch,
})

// frontUnary applies a one-operand primitive with the batch axis first.
func frontUnary(bt Batcher, prim string, x Atom, dim int, p Params) ([]Atom, []int, error) {
	x, err := MoveAxis(bt, x, dim, 0)
	if err != nil {
		return nil, nil, err
	}
	out, err := batchBind(bt, prim, p, x)
	return []Atom{out}, []int{0}, err
}

// padBatch pads along a leading batch axis by nothing. A batched padding
// value (one per element) cannot be a pad operand: pad with a placeholder,
// then select the padding value where a padded mask says so (JAX's rule).
func padBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	config, _ := ParamAs[PaddingConfig](p, "padding_config")
	batched := append(PaddingConfig{{}}, config...)
	x, err := BatchAtFront(bt, in[0], dims[0])
	if err != nil {
		return nil, nil, err
	}
	if dims[1] == NotBatched {
		out, err := batchBind(bt, "pad", Params{"padding_config": batched}, x, in[1])
		return []Atom{out}, []int{0}, err
	}
	zero, err := zeroLiteral(in[1].Aval().DType)
	if err != nil {
		return nil, nil, err
	}
	padded, err := batchBind(bt, "pad", Params{"padding_config": batched}, x, zero)
	if err != nil {
		return nil, nil, err
	}
	// mask: True inside the original operand, False in the padding.
	inside, err := NewLiteral(true, Bool, false)
	if err != nil {
		return nil, nil, err
	}
	outside, _ := NewLiteral(false, Bool, false)
	ones, err := batchBind(bt, "broadcast_in_dim", Params{"shape": []int(x.Aval().Shape), "broadcast_dimensions": []int{}}, inside)
	if err != nil {
		return nil, nil, err
	}
	mask, err := batchBind(bt, "pad", Params{"padding_config": batched}, ones, outside)
	if err != nil {
		return nil, nil, err
	}
	value, err := batchBind(bt, "broadcast_in_dim", Params{"shape": []int(padded.Aval().Shape), "broadcast_dimensions": []int{0}}, in[1])
	if err != nil {
		return nil, nil, err
	}
	out, err := batchBind(bt, "select_n", Params{}, mask, value, padded)
	return []Atom{out}, []int{0}, err
}

// zeroLiteral is a scalar zero (False) of dt.
func zeroLiteral(dt DType) (*Literal, error) {
	switch {
	case dt == Bool:
		return NewLiteral(false, dt, false)
	case dt.IsComplex():
		return NewLiteral(complex128(0), dt, false)
	case dt.IsFloat():
		return NewLiteral(0.0, dt, false)
	}
	return NewLiteral(int64(0), dt, false)
}

// startIndexVectors stacks scalar start indices (each batched along its
// only axis or not) into one [batch, n] array of index vectors.
func startIndexVectors(bt Batcher, starts []Atom, dims []int) (Atom, error) {
	cols := make([]Atom, len(starts))
	for i, s := range starts {
		var err error
		if cols[i], err = batchBind(bt, "broadcast_in_dim", Params{
			"shape": []int{bt.Size(), 1}, "broadcast_dimensions": frontIfBatched(dims[i]),
		}, s); err != nil {
			return nil, err
		}
	}
	return batchBind(bt, "concatenate", Params{"dimension": 1}, cols...)
}

// frontIfBatched is the broadcast_dimensions of a [batch] or scalar index.
func frontIfBatched(dim int) []int {
	if dim == NotBatched {
		return []int{}
	}
	return []int{0}
}

// indexDType is the dtype of the start indices (int32 when there are none:
// the operand is a scalar).
func indexDType(starts []Atom) DType {
	if len(starts) == 0 {
		return Int32
	}
	return starts[0].Aval().DType
}

func anyBatched(dims []int) bool {
	for _, d := range dims {
		if d != NotBatched {
			return true
		}
	}
	return false
}

// dynamicSliceBatch: with unbatched starts, a leading start of 0 for the
// batch axis; with batched starts, a gather of one window per element
// (clamped into bounds, as dynamic_slice clamps).
func dynamicSliceBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	x, starts, sizes := in[0], in[1:], p.Ints("slice_sizes")
	if !anyBatched(dims[1:]) {
		zero, err := zeroLiteral(indexDType(starts))
		if err != nil {
			return nil, nil, err
		}
		x, err := MoveAxis(bt, x, dims[0], 0)
		if err != nil {
			return nil, nil, err
		}
		out, err := batchBind(bt, "dynamic_slice", Params{"slice_sizes": withBatch(bt, sizes)},
			append([]Atom{x, zero}, starts...)...)
		return []Atom{out}, []int{0}, err
	}
	indices, err := startIndexVectors(bt, starts, dims[1:])
	if err != nil {
		return nil, nil, err
	}
	rank := len(sizes)
	dn := GatherDimensionNumbers{OffsetDims: plusOne(iotaInts(rank)), StartIndexMap: iotaInts(rank)}
	gatherSizes := sizes
	if dims[0] != NotBatched {
		if x, err = MoveAxis(bt, x, dims[0], 0); err != nil {
			return nil, nil, err
		}
		dn.StartIndexMap = plusOne(dn.StartIndexMap)
		dn.OperandBatchingDims, dn.StartIndicesBatchingDims = []int{0}, []int{0}
		gatherSizes = append([]int{1}, sizes...)
	}
	out, err := batchBind(bt, "gather", Params{
		"dimension_numbers": dn, "slice_sizes": gatherSizes, "indices_are_sorted": false,
		"unique_indices": false, "mode": GatherClip, "fill_value": nil,
	}, x, indices)
	return []Atom{out}, []int{0}, err
}

// dynamicUpdateSliceBatch: with unbatched starts, a leading start of 0;
// with batched ones, a scatter of one update window per element, clamped as
// dynamic_update_slice clamps.
func dynamicUpdateSliceBatch(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
	x, err := BatchAtFront(bt, in[0], dims[0])
	if err != nil {
		return nil, nil, err
	}
	update, err := BatchAtFront(bt, in[1], dims[1])
	if err != nil {
		return nil, nil, err
	}
	starts := in[2:]
	if !anyBatched(dims[2:]) {
		zero, err := zeroLiteral(indexDType(starts))
		if err != nil {
			return nil, nil, err
		}
		out, err := batchBind(bt, "dynamic_update_slice", Params{}, append([]Atom{x, update, zero}, starts...)...)
		return []Atom{out}, []int{0}, err
	}
	indices, err := startIndexVectors(bt, starts, dims[2:])
	if err != nil {
		return nil, nil, err
	}
	rank := len(starts)
	out, err := batchBind(bt, "scatter", Params{
		"dimension_numbers": ScatterDimensionNumbers{
			UpdateWindowDims: plusOne(iotaInts(rank)), ScatterDimsToOperandDims: plusOne(iotaInts(rank)),
			OperandBatchingDims: []int{0}, ScatterIndicesBatchingDims: []int{0},
		},
		"indices_are_sorted": true, "unique_indices": true, "mode": GatherClip,
	}, x, indices, update)
	return []Atom{out}, []int{0}, err
}
