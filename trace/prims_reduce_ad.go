package trace

import "slices"

// Autodiff rules of reductions, cumulative reductions, sort and
// dot_general.

func reductionAD() map[string]adRules {
	return map[string]adRules{
		"reduce_sum":  {jvp: linearJVP("reduce_sum"), transpose: reduceSumTranspose},
		"reduce_prod": {jvp: reduceProdJVP},
		"reduce_max":  {jvp: reduceExtremalJVP("reduce_max")},
		"reduce_min":  {jvp: reduceExtremalJVP("reduce_min")},
		"reduce_and":  {nonDiff: true},
		"reduce_or":   {nonDiff: true},
		"argmax":      {nonDiff: true},
		"argmin":      {nonDiff: true},
		"cumsum": {jvp: linearJVP("cumsum"), transpose: func(e *Emitter, cts, _ []Atom, _ []bool, p Params) []Atom {
			if cts[0] == nil {
				return []Atom{nil}
			}
			return []Atom{e.Bind1("cumsum", Params{"axis": p.Int("axis"), "reverse": !p.Bool("reverse")}, cts[0])}
		}},
		"cumprod":     {jvp: cumprodJVP},
		"cummax":      {jvp: cumulativeExtremalJVP("cummax")},
		"cummin":      {jvp: cumulativeExtremalJVP("cummin")},
		"sort":        {jvp: sortJVP},
		"dot_general": {jvp: dotGeneralJVP, transpose: dotGeneralTranspose},
	}
}

// keptAxes lists the axes of a rank-n array not in axes.
func keptAxes(n int, axes []int) []int {
	var kept []int
	for d := range n {
		if !slices.Contains(axes, d) {
			kept = append(kept, d)
		}
	}
	return kept
}

func reduceSumTranspose(e *Emitter, cts, in []Atom, _ []bool, p Params) []Atom {
	if cts[0] == nil {
		return []Atom{nil}
	}
	x := in[0].Aval()
	return []Atom{e.BroadcastInDim(cts[0], x.Shape, keptAxes(x.Rank(), p.Ints("axes")))}
}

// reduceExtremalJVP is JAX's tie rule for reduce_max and reduce_min: the
// output's tangent is the mean of the tangents of the elements equal to
// it.
func reduceExtremalJVP(name string) JVPRule {
	return func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
		out := e.Bind(name, in, p)
		if tangents[0] == nil || !HasTangent(out[0].Aval()) {
			return out, []Atom{nil}
		}
		x := in[0].Aval()
		axes := p.Ints("axes")
		spread := e.BroadcastInDim(out[0], x.Shape, keptAxes(x.Rank(), axes))
		mask := e.AsFloat(e.Compare("eq", in[0], spread), x.DType)
		count := e.ReduceSum(mask, axes)
		return out, []Atom{e.Div(e.ReduceSum(e.Mul(tangents[0], mask), axes), count)}
	}
}

// reduceProdJVP: the derivative of a product in each factor is the product
// of the others, computed as exclusive running products from both ends so
// that zeros are exact (no division).
func reduceProdJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("reduce_prod", in, p)
	if tangents[0] == nil || !HasTangent(out[0].Aval()) {
		return out, []Atom{nil}
	}
	x := in[0].Aval()
	axes := p.Ints("axes")
	kept := keptAxes(x.Rank(), axes)
	n := 1
	var flat Shape
	for _, d := range kept {
		flat = append(flat, x.Shape[d])
	}
	for _, d := range axes {
		n *= x.Shape[d]
	}
	flat = append(flat, n)
	last := len(kept)
	perm := append(slices.Clone(kept), axes...)
	gather := func(a Atom) Atom { return e.Reshape(e.Transpose(a, perm), flat) }
	xs, gs := gather(in[0]), gather(tangents[0])
	others := exclusiveProducts(e, xs, last)
	return out, []Atom{e.ReduceSum(e.Mul(others, gs), []int{last})}
}

// exclusiveProducts is, along axis, the product of every other element:
// the running product before each element times the one after it.
func exclusiveProducts(e *Emitter, x Atom, axis int) Atom {
	a := x.Aval()
	shift := func(v Atom, lo, hi int) Atom {
		config := make(PaddingConfig, a.Rank())
		config[axis] = PadDim{Lo: lo, Hi: hi}
		return e.Bind1("pad", Params{"padding_config": config}, v, e.Lit(1, a.DType))
	}
	before := shift(e.Bind1("cumprod", Params{"axis": axis, "reverse": false}, x), 1, -1)
	after := shift(e.Bind1("cumprod", Params{"axis": axis, "reverse": true}, x), -1, 1)
	return e.Mul(before, after)
}

// cumprodJVP differentiates the running product as JAX does, through an
// associative scan of (factor, tangent) pairs combined by the product
// rule: no division, so a zero factor has finite derivatives (each
// output's tangent is the sum over factors of that factor's tangent times
// the product of the others). The primal output is the primitive's own.
func cumprodJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("cumprod", in, p)
	if tangents[0] == nil || !HasTangent(out[0].Aval()) {
		return out, []Atom{nil}
	}
	axis, reverse := p.Int("axis"), p.Bool("reverse")
	x, t := in[0], tangents[0]
	rev := func(a Atom) Atom { return e.Bind1("rev", Params{"dimensions": []int{axis}}, a) }
	if reverse {
		x, t = rev(x), rev(t)
	}
	productRule := func(a, b []Atom) []Atom {
		return []Atom{e.Mul(a[0], b[0]), e.Add(e.Mul(a[1], b[0]), e.Mul(a[0], b[1]))}
	}
	tOut := associativeScan(e, productRule, []Atom{x, t}, axis)[1]
	if reverse {
		tOut = rev(tOut)
	}
	return out, []Atom{tOut}
}

// associativeScan is the inclusive scan of elems (parallel operands of one
// shape, combined together) along axis, by JAX's associative_scan: combine
// adjacent pairs, scan the half as long result, then fill in the elements
// between — log depth, built from strided slices, concatenation and
// interior padding. combine(a, b) combines an earlier a with a later b.
func associativeScan(e *Emitter, combine func(a, b []Atom) []Atom, elems []Atom, axis int) []Atom {
	n := elems[0].Aval().Shape[axis]
	if n < 2 {
		return elems
	}
	slice := func(x Atom, start, limit, stride int) Atom {
		a := x.Aval()
		starts, limits, strides := make([]int, a.Rank()), slices.Clone([]int(a.Shape)), make([]int, a.Rank())
		for d := range strides {
			strides[d] = 1
		}
		starts[axis], limits[axis], strides[axis] = start, limit, stride
		return e.Bind1("slice", Params{"start_indices": starts, "limit_indices": limits, "strides": strides}, x)
	}
	each := func(xs []Atom, f func(Atom) Atom) []Atom {
		out := make([]Atom, len(xs))
		for i, x := range xs {
			out[i] = f(x)
		}
		return out
	}
	// odd[i] is the scan at 2i+1: the pairs (2i, 2i+1) combined, scanned.
	odd := associativeScan(e, combine,
		combine(each(elems, func(x Atom) Atom { return slice(x, 0, n-1, 2) }),
			each(elems, func(x Atom) Atom { return slice(x, 1, n, 2) })), axis)
	// The scan at 2i+2 is the scan at 2i+1 combined with element 2i+2.
	prev := odd
	if n%2 == 0 {
		prev = each(odd, func(x Atom) Atom { return slice(x, 0, x.Aval().Shape[axis]-1, 1) })
	}
	even := combine(prev, each(elems, func(x Atom) Atom { return slice(x, 2, n, 2) }))
	out := make([]Atom, len(elems))
	for i := range elems {
		first := slice(elems[i], 0, 1, 1)
		evens := e.Bind1("concatenate", Params{"dimension": axis}, first, even[i])
		out[i] = interleave(e, evens, odd[i], axis)
	}
	return out
}

// interleave places a's elements at the even positions along axis and b's
// at the odd ones (a has as many elements as b, or one more).
func interleave(e *Emitter, a, b Atom, axis int) Atom {
	same := a.Aval().Shape[axis] == b.Aval().Shape[axis]
	pad := func(x Atom, lo, hi int) Atom {
		config := make(PaddingConfig, x.Aval().Rank())
		config[axis] = PadDim{Lo: lo, Hi: hi, Interior: 1}
		return e.Bind1("pad", Params{"padding_config": config}, x, e.Lit(0, x.Aval().DType))
	}
	if same {
		return e.Add(pad(a, 0, 1), pad(b, 1, 0))
	}
	return e.Add(pad(a, 0, 0), pad(b, 1, 1))
}

// cumulativeExtremalJVP: each output takes the tangent of the element that
// last set the running extremum.
func cumulativeExtremalJVP(name string) JVPRule {
	return func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
		out := e.Bind(name, in, p)
		if tangents[0] == nil || !HasTangent(out[0].Aval()) {
			return out, []Atom{nil}
		}
		x := in[0].Aval()
		axis, reverse := p.Int("axis"), p.Bool("reverse")
		iota := e.Iota(x.Shape, axis)
		setter := e.Compare("eq", in[0], out[0])
		var where Atom
		if !reverse {
			// the largest j <= i where x[j] is the running extremum
			where = e.Bind1("cummax", p, e.Select(setter, e.Zeros(iota.Aval()), iota))
		} else {
			where = e.Bind1("cummin", p, e.Select(setter, e.Full(float64(x.Shape[axis]), iota.Aval()), iota))
		}
		return out, []Atom{e.TakeAlongAxis(tangents[0], where, axis)}
	}
}

// sortJVP sorts an iota along with the operands to learn the permutation,
// and applies it to the tangents.
func sortJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	dim := p.Int("dimension")
	iota := e.Iota(in[0].Aval().Shape, dim)
	outs := e.Bind("sort", append(slices.Clone(in), iota), p)
	perm := outs[len(in)]
	ts := make([]Atom, len(in))
	for i, t := range tangents {
		if t != nil && HasTangent(in[i].Aval()) {
			ts[i] = e.TakeAlongAxis(t, perm, dim)
		}
	}
	return outs[:len(in)], ts
}

func dotGeneralJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("dot_general", in, p)
	if !HasTangent(out[0].Aval()) {
		return out, []Atom{nil}
	}
	var t Atom
	add := func(c Atom) {
		c = e.Convert(c, out[0].Aval().DType)
		if t == nil {
			t = c
		} else {
			t = e.Add(t, c)
		}
	}
	if tangents[0] != nil {
		add(e.Bind1("dot_general", p, tangents[0], in[1]))
	}
	if tangents[1] != nil {
		add(e.Bind1("dot_general", p, in[0], tangents[1]))
	}
	return out, []Atom{t}
}

func dotGeneralTranspose(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom {
	if linear[0] && linear[1] {
		e.Failf("dot_general is not linear in both operands at once")
	}
	out := make([]Atom, 2)
	if cts[0] == nil {
		return out
	}
	dn, _ := ParamAs[DotDimensionNumbers](p, "dimension_numbers")
	precision := p["precision"]
	if linear[0] {
		out[0] = dotTransposeLHS(e, cts[0], in[0].Aval(), in[1], dn, precision, false)
	}
	if linear[1] {
		swapped := DotDimensionNumbers{
			LhsContracting: dn.RhsContracting, RhsContracting: dn.LhsContracting,
			LhsBatch: dn.RhsBatch, RhsBatch: dn.LhsBatch,
		}
		out[1] = dotTransposeLHS(e, cts[0], in[1].Aval(), in[0], swapped, precision, true)
	}
	return out
}

// dotTransposeLHS is the cotangent of dot_general's lhs x given the output
// cotangent ct and the rhs y (JAX's _dot_general_transpose_lhs). With
// swapAns the output's free dimensions are y's first (the rhs case).
func dotTransposeLHS(e *Emitter, ct Atom, x AVal, y Atom, dn DotDimensionNumbers, precision any, swapAns bool) Atom {
	xKept := keptAxes(x.Rank(), append(slices.Clone(dn.LhsContracting), dn.LhsBatch...))
	yKept := keptAxes(y.Aval().Rank(), append(slices.Clone(dn.RhsContracting), dn.RhsBatch...))
	nb := len(dn.LhsBatch)
	ansBatch := AllAxes(nb)
	var ansY []int
	if swapAns {
		ansY = rangeFrom(nb, len(yKept))
	} else {
		ansY = rangeFrom(nb+len(xKept), len(yKept))
	}
	dims := DotDimensionNumbers{LhsContracting: ansY, RhsContracting: yKept, LhsBatch: ansBatch, RhsBatch: dn.RhsBatch}
	byY := argsort(dn.RhsContracting)
	xContractByY := make([]int, len(byY))
	for i, k := range byY {
		xContractByY[i] = dn.LhsContracting[k]
	}
	layout := append(append(slices.Clone(dn.LhsBatch), xKept...), xContractByY...)
	params := Params{"dimension_numbers": dims, "precision": precision, "preferred_element_type": nil}
	// With the operands swapped the product comes out as (batch, y's free
	// dimensions, ct's free dimensions); when that is x's layout (the
	// cotangent of a matmul's rhs: x^T @ ct) no transpose is needed.
	swappedLayout := append(append(slices.Clone(dn.LhsBatch), xContractByY...), xKept...)
	if perm := argsort(swappedLayout); slices.Equal(perm, AllAxes(len(perm))) && !slices.Equal(argsort(layout), perm) {
		swapped := DotDimensionNumbers{LhsContracting: yKept, RhsContracting: ansY, LhsBatch: dn.RhsBatch, RhsBatch: ansBatch}
		params["dimension_numbers"] = swapped
		return e.Convert(e.Bind1("dot_general", params, y, ct), x.DType)
	}
	prod := e.Bind1("dot_general", params, ct, y)
	return e.Convert(e.Transpose(prod, argsort(layout)), x.DType)
}

func rangeFrom(start, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = start + i
	}
	return out
}

func argsort(xs []int) []int {
	idx := AllAxes(len(xs))
	slices.SortStableFunc(idx, func(a, b int) int { return xs[a] - xs[b] })
	return idx
}
