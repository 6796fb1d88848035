package trace

import "slices"

// Autodiff rules of the structural primitives: all are linear in their
// array operands, so tangents go through the primitive itself and
// cotangents through its transpose.

func shapeAD() map[string]adRules {
	return map[string]adRules{
		"broadcast_in_dim": {jvp: linearJVP("broadcast_in_dim"), transpose: broadcastInDimTranspose},
		"reshape": {jvp: linearJVP("reshape"), transpose: func(e *Emitter, cts, in []Atom, _ []bool, _ Params) []Atom {
			return []Atom{reshapeLike(e, cts[0], in[0])}
		}},
		"squeeze": {jvp: linearJVP("squeeze"), transpose: func(e *Emitter, cts, in []Atom, _ []bool, _ Params) []Atom {
			return []Atom{reshapeLike(e, cts[0], in[0])}
		}},
		"transpose": {jvp: linearJVP("transpose"), transpose: func(e *Emitter, cts, _ []Atom, _ []bool, p Params) []Atom {
			if cts[0] == nil {
				return []Atom{nil}
			}
			perm := p.Ints("permutation")
			inverse := make([]int, len(perm))
			for i, d := range perm {
				inverse[d] = i
			}
			return []Atom{e.Transpose(cts[0], inverse)}
		}},
		"rev":                  {jvp: linearJVP("rev"), transpose: linearTranspose("rev")},
		"slice":                {jvp: linearJVP("slice"), transpose: sliceTranspose},
		"dynamic_slice":        {jvp: linearJVP("dynamic_slice"), transpose: dynamicSliceTranspose},
		"dynamic_update_slice": {jvp: dynamicUpdateSliceJVP, transpose: dynamicUpdateSliceTranspose},
		"concatenate":          {jvp: concatenateJVP, transpose: concatenateTranspose},
		"pad":                  {jvp: padJVP, transpose: padTranspose},
		"iota":                 {nonDiff: true},
	}
}

func reshapeLike(e *Emitter, ct, like Atom) Atom {
	if ct == nil {
		return nil
	}
	return e.Reshape(ct, like.Aval().Shape)
}

// broadcastInDimTranspose sums the cotangent over the dimensions the
// broadcast added or stretched.
func broadcastInDimTranspose(e *Emitter, cts, in []Atom, _ []bool, p Params) []Atom {
	if cts[0] == nil {
		return []Atom{nil}
	}
	x := in[0].Aval()
	shape, bdims := p.Ints("shape"), p.Ints("broadcast_dimensions")
	var axes []int
	for d := range shape {
		i := slices.Index(bdims, d)
		if i < 0 || (x.Shape[i] == 1 && shape[d] != 1) {
			axes = append(axes, d)
		}
	}
	return []Atom{e.Reshape(e.ReduceSum(cts[0], axes), x.Shape)}
}

// sliceTranspose pads the cotangent back to the operand's shape, strides
// becoming interior padding.
func sliceTranspose(e *Emitter, cts, in []Atom, _ []bool, p Params) []Atom {
	if cts[0] == nil {
		return []Atom{nil}
	}
	x := in[0].Aval()
	start, strides := p.Ints("start_indices"), p.Ints("strides")
	outShape := cts[0].Aval().Shape
	config := make(PaddingConfig, x.Rank())
	for i := range config {
		stride := 1
		if strides != nil {
			stride = strides[i]
		}
		if outShape[i] == 0 {
			config[i] = PadDim{Lo: start[i], Hi: x.Shape[i] - start[i]}
			continue
		}
		end := start[i] + (outShape[i]-1)*stride + 1
		config[i] = PadDim{Lo: start[i], Hi: x.Shape[i] - end, Interior: stride - 1}
	}
	zero := e.Lit(0, cts[0].Aval().DType)
	return []Atom{e.Bind1("pad", Params{"padding_config": config}, cts[0], zero)}
}

func dynamicSliceTranspose(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
	out := make([]Atom, len(in))
	if cts[0] == nil {
		return out
	}
	for _, l := range linear[1:] {
		if l {
			e.Failf("dynamic_slice is not linear in its start indices")
		}
	}
	args := append([]Atom{e.Zeros(in[0].Aval()), cts[0]}, in[1:]...)
	out[0] = e.Bind1("dynamic_update_slice", nil, args...)
	return out
}

func dynamicUpdateSliceJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("dynamic_update_slice", in, p)
	if tangents[0] == nil && tangents[1] == nil {
		return out, []Atom{nil}
	}
	args := append([]Atom{e.Instantiate(tangents[0], in[0].Aval()), e.Instantiate(tangents[1], in[1].Aval())}, in[2:]...)
	return out, []Atom{e.Bind1("dynamic_update_slice", nil, args...)}
}

func dynamicUpdateSliceTranspose(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
	out := make([]Atom, len(in))
	if cts[0] == nil {
		return out
	}
	update := in[1].Aval()
	indices := in[2:]
	if linear[0] {
		out[0] = e.Bind1("dynamic_update_slice", nil, append([]Atom{cts[0], e.Zeros(update)}, indices...)...)
	}
	if linear[1] {
		out[1] = e.Bind1("dynamic_slice", Params{"slice_sizes": []int(update.Shape.Clone())}, append([]Atom{cts[0]}, indices...)...)
	}
	return out
}

func concatenateJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("concatenate", in, p)
	if !HasTangent(out[0].Aval()) {
		return out, []Atom{nil}
	}
	ts := make([]Atom, len(in))
	for i, t := range tangents {
		ts[i] = e.Instantiate(t, in[i].Aval())
	}
	return out, []Atom{e.Bind1("concatenate", p, ts...)}
}

func concatenateTranspose(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom {
	out := make([]Atom, len(in))
	if cts[0] == nil {
		return out
	}
	dim := p.Int("dimension")
	shape := cts[0].Aval().Shape
	offset := 0
	for i, x := range in {
		a := x.Aval()
		if linear[i] {
			start := make([]int, len(shape))
			limit := shape.Clone()
			start[dim], limit[dim] = offset, offset+a.Shape[dim]
			out[i] = e.Bind1("slice", Params{"start_indices": start, "limit_indices": []int(limit), "strides": nil}, cts[0])
		}
		offset += a.Shape[dim]
	}
	return out
}

func padJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("pad", in, p)
	if tangents[0] == nil && tangents[1] == nil {
		return out, []Atom{nil}
	}
	tx := e.Instantiate(tangents[0], in[0].Aval())
	tv := e.Instantiate(tangents[1], in[1].Aval())
	return out, []Atom{e.Bind1("pad", p, tx, tv)}
}

// padTranspose cuts the padding off the cotangent (negative padding, then
// a strided slice for interior padding); the padding value's cotangent is
// what the operand's leaves.
func padTranspose(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom {
	out := make([]Atom, 2)
	if cts[0] == nil {
		return out
	}
	config, _ := ParamAs[PaddingConfig](p, "padding_config")
	ct := cts[0]
	dt := ct.Aval().DType
	cut := make(PaddingConfig, len(config))
	for i, c := range config {
		cut[i] = PadDim{Lo: -c.Lo, Hi: -c.Hi}
	}
	unpadded := e.Bind1("pad", Params{"padding_config": cut}, ct, e.Lit(0, dt))
	strides := make([]int, len(config))
	limit := unpadded.Aval().Shape.Clone()
	strided := false
	for i, c := range config {
		strides[i] = c.Interior + 1
		strided = strided || c.Interior > 0
	}
	ctX := unpadded
	if strided {
		ctX = e.Bind1("slice", Params{"start_indices": make([]int, len(config)), "limit_indices": []int(limit), "strides": strides}, unpadded)
	}
	if linear[0] {
		out[0] = ctX
	}
	if linear[1] {
		all := AllAxes(ct.Aval().Rank())
		out[1] = e.Sub(e.ReduceSum(ct, all), e.ReduceSum(ctX, all))
	}
	return out
}
