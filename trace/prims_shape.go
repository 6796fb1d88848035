package trace

import (
	"fmt"
	"slices"
)

// Primitives that change shapes or move data: broadcasting, reshaping,
// slicing, concatenation, padding, and iota. Their rules follow lax's.

func shapePrims() []*Primitive {
	ints := func(names ...string) []ParamSpec {
		specs := make([]ParamSpec, len(names))
		for i, n := range names {
			specs[i] = ParamSpec{Name: n, Kind: ParamInts}
		}
		return specs
	}
	return []*Primitive{
		{Name: "broadcast_in_dim", Props: Structural, MinIn: 1, MaxIn: 1,
			Params: ints("shape", "broadcast_dimensions"), Rule: broadcastInDimRule},
		{Name: "reshape", Props: Structural, MinIn: 1, MaxIn: 1, Params: ints("new_sizes"), Rule: reshapeRule},
		{Name: "transpose", Props: Structural, MinIn: 1, MaxIn: 1, Params: ints("permutation"), Rule: transposeRule},
		{Name: "squeeze", Props: Structural, MinIn: 1, MaxIn: 1, Params: ints("dimensions"), Rule: squeezeRule},
		{Name: "rev", Props: Structural, MinIn: 1, MaxIn: 1, Params: ints("dimensions"), Rule: revRule},
		{Name: "slice", Props: Structural, MinIn: 1, MaxIn: 1,
			Params: []ParamSpec{{Name: "start_indices", Kind: ParamInts}, {Name: "limit_indices", Kind: ParamInts},
				{Name: "strides", Kind: ParamInts, Optional: true}},
			Rule: sliceRule},
		{Name: "dynamic_slice", Props: Structural, MinIn: 1, MaxIn: -1, Params: ints("slice_sizes"), Rule: dynamicSliceRule},
		{Name: "dynamic_update_slice", Props: Structural, MinIn: 2, MaxIn: -1, Rule: dynamicUpdateSliceRule},
		{Name: "concatenate", Props: Structural, MinIn: 1, MaxIn: -1,
			Params: []ParamSpec{{Name: "dimension", Kind: ParamInt}}, Rule: concatenateRule},
		{Name: "pad", Props: Structural, MinIn: 2, MaxIn: 2,
			Params: []ParamSpec{{Name: "padding_config", Kind: ParamPadding}}, Rule: padRule},
		{Name: "iota", MinIn: 0, MaxIn: 0,
			Params: []ParamSpec{{Name: "dtype", Kind: ParamDType}, {Name: "shape", Kind: ParamInts}, {Name: "dimension", Kind: ParamInt}},
			Rule:   iotaRule},
	}
}

// checkArray rejects tokens where an array is needed.
func checkArray(in []AVal) error { return checkDTypes(in, setAny) }

func checkShapeLike(what string, dims []int) error {
	for _, d := range dims {
		if !dimValid(d) {
			return fmt.Errorf("%s must be non-negative, got %s", what, pyIntTuple(dims))
		}
	}
	return nil
}

func broadcastInDimRule(in []AVal, p Params) ([]AVal, error) {
	x, shape, bdims := in[0], Shape(p.Ints("shape")), p.Ints("broadcast_dimensions")
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if err := checkShapeLike("shape", shape); err != nil {
		return nil, err
	}
	if len(bdims) != x.Rank() {
		return nil, fmt.Errorf("broadcast_dimensions must have one entry per operand dimension, got %s for rank %d", pyIntTuple(bdims), x.Rank())
	}
	for i, d := range bdims {
		switch {
		case d < 0 || d >= len(shape):
			return nil, fmt.Errorf("broadcast_dimensions %s must index the %d output dimensions", pyIntTuple(bdims), len(shape))
		case i > 0 && d <= bdims[i-1]:
			return nil, fmt.Errorf("broadcast_dimensions %s must be strictly increasing", pyIntTuple(bdims))
		case !dimIsOne(x.Shape[i]) && !dimEqual(x.Shape[i], shape[d]):
			return nil, fmt.Errorf("operand dimension %d has size %d, which is neither 1 nor the size %d of output dimension %d", i, x.Shape[i], shape[d], d)
		}
	}
	return one(AVal{Shape: shape, DType: x.DType, Weak: x.Weak}), nil
}

func reshapeRule(in []AVal, p Params) ([]AVal, error) {
	x, sizes := in[0], Shape(p.Ints("new_sizes"))
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if err := checkShapeLike("new_sizes", sizes); err != nil {
		return nil, err
	}
	if sizes.Size() != x.Size() {
		return nil, fmt.Errorf("cannot reshape %d elements into shape %s", x.Size(), sizes)
	}
	return one(AVal{Shape: sizes, DType: x.DType, Weak: x.Weak}), nil
}

func isPermutation(perm []int, n int) bool {
	if len(perm) != n {
		return false
	}
	return checkAxes("", perm, n) == nil
}

func transposeRule(in []AVal, p Params) ([]AVal, error) {
	x, perm := in[0], p.Ints("permutation")
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if !isPermutation(perm, x.Rank()) {
		return nil, fmt.Errorf("permutation %s is not a permutation of the operand's %d dimensions", pyIntTuple(perm), x.Rank())
	}
	out := make(Shape, len(perm))
	for i, d := range perm {
		out[i] = x.Shape[d]
	}
	return one(AVal{Shape: out, DType: x.DType, Weak: x.Weak}), nil
}

func squeezeRule(in []AVal, p Params) ([]AVal, error) {
	x, dims := in[0], p.Ints("dimensions")
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if err := checkAxes("dimensions", dims, x.Rank()); err != nil {
		return nil, err
	}
	for _, d := range dims {
		if !dimIsOne(x.Shape[d]) {
			return nil, fmt.Errorf("cannot squeeze dimension %d of size %d", d, x.Shape[d])
		}
	}
	return one(AVal{Shape: x.Shape.deleteDims(dims), DType: x.DType, Weak: x.Weak}), nil
}

func revRule(in []AVal, p Params) ([]AVal, error) {
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if err := checkAxes("dimensions", p.Ints("dimensions"), in[0].Rank()); err != nil {
		return nil, err
	}
	return one(in[0]), nil
}

func sliceRule(in []AVal, p Params) ([]AVal, error) {
	x, start, limit, strides := in[0], p.Ints("start_indices"), p.Ints("limit_indices"), p.Ints("strides")
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if len(start) != x.Rank() || len(limit) != x.Rank() || (strides != nil && len(strides) != x.Rank()) {
		return nil, fmt.Errorf("start_indices %s, limit_indices %s and strides %s must each have one entry per dimension (%d)",
			pyIntTuple(start), pyIntTuple(limit), paramRepr(p["strides"]), x.Rank())
	}
	out := make(Shape, x.Rank())
	for i := range out {
		stride := 1
		if strides != nil {
			stride = strides[i]
		}
		switch {
		case stride < 1:
			return nil, fmt.Errorf("strides must be positive, got %s", pyIntTuple(strides))
		case start[i] < 0 || start[i] > limit[i] || limit[i] > x.Shape[i]:
			return nil, fmt.Errorf("slice [%d:%d] of dimension %d (size %d) needs 0 <= start <= limit <= size", start[i], limit[i], i, x.Shape[i])
		}
		out[i] = (limit[i] - start[i] + stride - 1) / stride
	}
	return one(AVal{Shape: out, DType: x.DType, Weak: x.Weak}), nil
}

// checkIndexScalars requires start indices to be integer scalars of one dtype.
func checkIndexScalars(indices []AVal) error {
	for _, a := range indices {
		if !a.DType.IsInteger() || a.Rank() != 0 || a.DType != indices[0].DType {
			return fmt.Errorf("start indices must be integer scalars of one dtype, got %s", avalList(indices))
		}
	}
	return nil
}

func dynamicSliceRule(in []AVal, p Params) ([]AVal, error) {
	x, indices, sizes := in[0], in[1:], Shape(p.Ints("slice_sizes"))
	if err := checkArray(in[:1]); err != nil {
		return nil, err
	}
	if len(indices) != x.Rank() || len(sizes) != x.Rank() {
		return nil, fmt.Errorf("needs one start index and one slice size per dimension (%d), got %d and %s", x.Rank(), len(indices), sizes)
	}
	if err := checkIndexScalars(indices); err != nil {
		return nil, err
	}
	for i, s := range sizes {
		if s < 0 || s > x.Shape[i] {
			return nil, fmt.Errorf("slice_sizes %s must lie within the operand shape %s", sizes, x.Shape)
		}
	}
	return one(AVal{Shape: sizes, DType: x.DType, Weak: x.Weak}), nil
}

func dynamicUpdateSliceRule(in []AVal, _ Params) ([]AVal, error) {
	x, update, indices := in[0], in[1], in[2:]
	if err := checkArray(in[:2]); err != nil {
		return nil, err
	}
	if err := checkSameDTypes(in[:2]); err != nil {
		return nil, err
	}
	if update.Rank() != x.Rank() || len(indices) != x.Rank() {
		return nil, fmt.Errorf("needs an update of the operand's rank %d and one start index per dimension, got rank %d and %d indices", x.Rank(), update.Rank(), len(indices))
	}
	if err := checkIndexScalars(indices); err != nil {
		return nil, err
	}
	for i, d := range update.Shape {
		if d > x.Shape[i] {
			return nil, fmt.Errorf("update shape %s must fit in operand shape %s", update.Shape, x.Shape)
		}
	}
	return one(AVal{Shape: x.Shape, DType: x.DType, Weak: allWeak(in)}), nil
}

func concatenateRule(in []AVal, p Params) ([]AVal, error) {
	dim := p.Int("dimension")
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if err := checkSameDTypes(in); err != nil {
		return nil, err
	}
	first := in[0]
	if dim < 0 || dim >= first.Rank() {
		return nil, fmt.Errorf("dimension %d out of range for rank %d", dim, first.Rank())
	}
	total := 0
	for _, a := range in {
		if a.Rank() != first.Rank() {
			return nil, fmt.Errorf("cannot concatenate arrays of different ranks: %s", shapeList(avalShapes(in)))
		}
		for i := range a.Shape {
			if i != dim && !dimEqual(a.Shape[i], first.Shape[i]) {
				return nil, fmt.Errorf("shapes differ outside dimension %d: %s", dim, shapeList(avalShapes(in)))
			}
		}
		total += a.Shape[dim]
	}
	out := first.Shape.Clone()
	out[dim] = total
	return one(AVal{Shape: out, DType: first.DType, Weak: allWeak(in)}), nil
}

func padRule(in []AVal, p Params) ([]AVal, error) {
	x, value := in[0], in[1]
	config, _ := ParamAs[PaddingConfig](p, "padding_config")
	if err := checkArray(in); err != nil {
		return nil, err
	}
	if err := checkSameDTypes(in); err != nil {
		return nil, err
	}
	if value.Rank() != 0 {
		return nil, fmt.Errorf("padding value must be a scalar, got shape %s", value.Shape)
	}
	if len(config) != x.Rank() {
		return nil, fmt.Errorf("padding_config %s must have one entry per dimension (%d)", config.pyRepr(), x.Rank())
	}
	out := make(Shape, x.Rank())
	for i, c := range config {
		if c.Interior < 0 {
			return nil, fmt.Errorf("interior padding must be non-negative, got %s", config.pyRepr())
		}
		d := x.Shape[i]
		if d > 0 {
			d += (d - 1) * c.Interior
		}
		out[i] = c.Lo + c.Hi + d
		if out[i] < 0 {
			return nil, fmt.Errorf("padding_config %s leaves dimension %d with negative size %d", config.pyRepr(), i, out[i])
		}
	}
	return one(AVal{Shape: out, DType: x.DType, Weak: allWeak(in)}), nil
}

func iotaRule(_ []AVal, p Params) ([]AVal, error) {
	dt, shape, dim := p.DType("dtype"), Shape(p.Ints("shape")), p.Int("dimension")
	if !dt.IsNumeric() {
		return nil, fmt.Errorf("does not accept dtype %s; accepted: %s", dt, setNum)
	}
	if err := checkShapeLike("shape", shape); err != nil {
		return nil, err
	}
	if dim < 0 || dim >= len(shape) {
		return nil, fmt.Errorf("dimension %d out of range for shape %s", dim, shape)
	}
	return one(AVal{Shape: slices.Clone(shape), DType: dt}), nil
}
