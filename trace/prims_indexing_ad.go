package trace

import "slices"

// Autodiff rules of gather and the scatters. gather and scatter-add are
// linear and transpose into each other; scatter, scatter-mul and the
// extremal scatters express their tangents with them.

func indexingAD() map[string]adRules {
	return map[string]adRules{
		"gather":      {jvp: gatherJVP, transpose: gatherTranspose},
		"scatter-add": {jvp: scatterAddJVP, transpose: scatterAddTranspose},
		"scatter":     {jvp: scatterJVP},
		"scatter-mul": {jvp: scatterMulJVP},
		"scatter-min": {jvp: scatterExtremalJVP("scatter-min")},
		"scatter-max": {jvp: scatterExtremalJVP("scatter-max")},
	}
}

// tangentGather is the gather of a tangent: out-of-bounds windows, which
// the primal fills with fill_value, get zeros.
func tangentGather(p Params) Params {
	q := Params{}
	for k, v := range p {
		q[k] = v
	}
	q["fill_value"] = 0.0
	return q
}

func gatherJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("gather", in, p)
	if tangents[0] == nil {
		return out, []Atom{nil}
	}
	return out, []Atom{e.Bind1("gather", tangentGather(p), tangents[0], in[1])}
}

// scatterDimsOfGather are the dimension numbers of the scatter that sends
// a gather's output windows back where they came from.
func scatterDimsOfGather(g GatherDimensionNumbers) ScatterDimensionNumbers {
	return ScatterDimensionNumbers{
		UpdateWindowDims: g.OffsetDims, InsertedWindowDims: g.CollapsedSliceDims,
		ScatterDimsToOperandDims: g.StartIndexMap, OperandBatchingDims: g.OperandBatchingDims,
		ScatterIndicesBatchingDims: g.StartIndicesBatchingDims,
	}
}

// gatherOfScatter is the gather reading the windows a scatter writes, with
// its slice sizes.
func gatherOfScatter(s ScatterDimensionNumbers, operand, updates AVal) (GatherDimensionNumbers, []int) {
	sizes := make([]int, operand.Rank())
	window := 0
	for i := range sizes {
		if slices.Contains(s.InsertedWindowDims, i) || slices.Contains(s.OperandBatchingDims, i) {
			sizes[i] = 1
			continue
		}
		sizes[i] = updates.Shape[s.UpdateWindowDims[window]]
		window++
	}
	return GatherDimensionNumbers{
		OffsetDims: s.UpdateWindowDims, CollapsedSliceDims: s.InsertedWindowDims,
		StartIndexMap: s.ScatterDimsToOperandDims, OperandBatchingDims: s.OperandBatchingDims,
		StartIndicesBatchingDims: s.ScatterIndicesBatchingDims,
	}, sizes
}

func scatterParams(p Params, dn ScatterDimensionNumbers) Params {
	return Params{"dimension_numbers": dn, "indices_are_sorted": p.Bool("indices_are_sorted"),
		"unique_indices": p.Bool("unique_indices"), "mode": p["mode"]}
}

// gatherAt reads the windows of x that a scatter with params p writes.
func gatherAt(e *Emitter, x, indices Atom, updates AVal, p Params) Atom {
	sdn, _ := ParamAs[ScatterDimensionNumbers](p, "dimension_numbers")
	gdn, sizes := gatherOfScatter(sdn, x.Aval(), updates)
	return e.Bind1("gather", Params{"dimension_numbers": gdn, "slice_sizes": sizes,
		"indices_are_sorted": p.Bool("indices_are_sorted"), "unique_indices": p.Bool("unique_indices"),
		"mode": p["mode"], "fill_value": 0.0}, x, indices)
}

func gatherTranspose(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom {
	if linear[1] {
		e.Failf("gather is not linear in its indices")
	}
	if cts[0] == nil {
		return []Atom{nil, nil}
	}
	gdn, _ := ParamAs[GatherDimensionNumbers](p, "dimension_numbers")
	params := scatterParams(p, scatterDimsOfGather(gdn))
	zeros := e.Zeros(in[0].Aval())
	return []Atom{e.Bind1("scatter-add", params, zeros, in[1], cts[0]), nil}
}

func scatterAddJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("scatter-add", in, p)
	if tangents[0] == nil && tangents[2] == nil {
		return out, []Atom{nil}
	}
	tx := e.Instantiate(tangents[0], in[0].Aval())
	tu := e.Instantiate(tangents[2], in[2].Aval())
	return out, []Atom{e.Bind1("scatter-add", p, tx, in[1], tu)}
}

func scatterAddTranspose(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom {
	if linear[1] {
		e.Failf("scatter-add is not linear in its indices")
	}
	out := make([]Atom, 3)
	if cts[0] == nil {
		return out
	}
	if linear[0] {
		out[0] = cts[0]
	}
	if linear[2] {
		out[2] = gatherAt(e, cts[0], in[1], in[2].Aval(), p)
	}
	return out
}

// scatterJVP follows JAX: with repeated indices only one update reaches
// each operand element, so the rule tags every update element with an id,
// scatters the ids, and keeps the tangents of the updates whose id
// arrived (and of the operand elements no update overwrote); the tangent
// is then a scatter-add of those, which is linear.
func scatterJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("scatter", in, p)
	if tangents[0] == nil && tangents[2] == nil {
		return out, []Atom{nil}
	}
	x, indices, updates := in[0].Aval(), in[1], in[2].Aval()
	ids := e.Add(e.Reshape(e.Iota(Shape{updates.Size()}, 0), updates.Shape), e.Lit(1, Int32))
	scattered := e.Bind1("scatter", p, e.Zeros(AVal{Shape: x.Shape, DType: Int32}), indices, ids)
	arrived := gatherAt(e, scattered, indices, AVal{Shape: updates.Shape, DType: Int32}, p)
	won := e.Compare("eq", arrived, ids)
	untouched := e.Compare("eq", scattered, e.Lit(0, Int32))
	tx := e.Select(untouched, e.Zeros(x), e.Instantiate(tangents[0], x))
	tu := e.Select(won, e.Zeros(updates), e.Instantiate(tangents[2], updates))
	addParams := scatterParams(p, p["dimension_numbers"].(ScatterDimensionNumbers))
	return out, []Atom{e.Bind1("scatter-add", addParams, tx, indices, tu)}
}

// scatterMulJVP: the operand's tangent scales by the product of the
// updates; the updates' tangent needs unique indices, as in JAX.
func scatterMulJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("scatter-mul", in, p)
	x, indices, u := in[0], in[1], in[2]
	if !HasTangent(out[0].Aval()) {
		return out, []Atom{nil}
	}
	var t Atom
	if tangents[0] != nil {
		t = e.Mul(tangents[0], e.Bind1("scatter-mul", p, e.Full(1, x.Aval()), indices, u))
	}
	if tangents[2] != nil {
		if !p.Bool("unique_indices") {
			e.Failf("scatter_mul gradients with respect to the updates are only implemented where unique_indices=True")
		}
		// With unique indices each element gets at most one factor u, so
		// d(x * u) = x * du there.
		addParams := scatterParams(p, p["dimension_numbers"].(ScatterDimensionNumbers))
		du := e.Bind1("scatter-add", addParams, e.Zeros(x.Aval()), indices, tangents[2])
		c := e.Mul(x, du)
		if t == nil {
			t = c
		} else {
			t = e.Add(t, c)
		}
	}
	return out, []Atom{t}
}

// scatterExtremalJVP is JAX's tie rule for scatter-min and scatter-max: the
// tangent of each output element is the mean of the tangents of the values
// (operand element and updates) equal to it.
func scatterExtremalJVP(name string) JVPRule {
	return func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
		out := e.Bind(name, in, p)
		if !HasTangent(out[0].Aval()) || (tangents[0] == nil && tangents[2] == nil) {
			return out, []Atom{nil}
		}
		x, indices, u := in[0], in[1], in[2]
		dt := x.Aval().DType
		addParams := scatterParams(p, p["dimension_numbers"].(ScatterDimensionNumbers))
		fromX := e.AsFloat(e.Compare("eq", x, out[0]), dt)
		fromU := e.AsFloat(e.Compare("eq", u, gatherAt(e, out[0], indices, u.Aval(), p)), dt)
		count := e.Bind1("scatter-add", addParams, fromX, indices, fromU)
		tx := e.Mul(fromX, e.Instantiate(tangents[0], x.Aval()))
		tu := e.Mul(fromU, e.Instantiate(tangents[2], u.Aval()))
		sum := e.Bind1("scatter-add", addParams, tx, indices, tu)
		return out, []Atom{e.Div(sum, count)}
	}
}
