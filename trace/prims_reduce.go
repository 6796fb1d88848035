package trace

import (
	"fmt"
	"slices"
)

// Reductions, cumulative reductions, argmin/argmax, sort and dot_general.

var reductionTable = []struct {
	name    string
	accepts dtypeSet
	// keepsWeak: the result is weak when the operand is; logical reductions
	// strip the flag as lax does.
	keepsWeak bool
}{
	{"reduce_sum", setNum, true},
	{"reduce_prod", setNum, true},
	{"reduce_max", setAny, true},
	{"reduce_min", setAny, true},
	{"reduce_and", setBoolInt, false},
	{"reduce_or", setBoolInt, false},
}

var cumulativeNames = []string{"cumsum", "cumprod", "cummax", "cummin"}

func reductionPrims() []*Primitive {
	axes := []ParamSpec{{Name: "axes", Kind: ParamInts}}
	var out []*Primitive
	for _, row := range reductionTable {
		out = append(out, &Primitive{
			Name: row.name, Props: Reduction, MinIn: 1, MaxIn: 1, Params: axes,
			Rule: reduceRule(row.accepts, row.keepsWeak),
		})
	}
	for _, name := range []string{"argmax", "argmin"} {
		out = append(out, &Primitive{
			Name: name, Props: Reduction, MinIn: 1, MaxIn: 1,
			Params: []ParamSpec{{Name: "axes", Kind: ParamInts}, {Name: "index_dtype", Kind: ParamDType}},
			Rule:   argRule,
		})
	}
	for _, name := range cumulativeNames {
		out = append(out, &Primitive{
			Name: name, Props: Cumulative, MinIn: 1, MaxIn: 1,
			Params: []ParamSpec{{Name: "axis", Kind: ParamInt}, {Name: "reverse", Kind: ParamBool}},
			Rule:   cumulativeRule,
		})
	}
	return append(out,
		&Primitive{Name: "sort", MinIn: 1, MaxIn: -1,
			Params: []ParamSpec{{Name: "dimension", Kind: ParamInt}, {Name: "is_stable", Kind: ParamBool}, {Name: "num_keys", Kind: ParamInt}},
			Rule:   sortRule},
		&Primitive{Name: "dot_general", MinIn: 2, MaxIn: 2,
			Params: []ParamSpec{
				{Name: "dimension_numbers", Kind: ParamDotDims},
				{Name: "precision", Kind: ParamPrecision, Optional: true},
				{Name: "preferred_element_type", Kind: ParamDType, Optional: true},
			},
			Rule: dotGeneralRule},
	)
}

func reduceRule(accepts dtypeSet, keepsWeak bool) func([]AVal, Params) ([]AVal, error) {
	return func(in []AVal, p Params) ([]AVal, error) {
		x, axes := in[0], p.Ints("axes")
		if err := checkDTypes(in, accepts); err != nil {
			return nil, err
		}
		if err := checkAxes("axes", axes, x.Rank()); err != nil {
			return nil, err
		}
		return one(AVal{Shape: x.Shape.deleteDims(axes), DType: x.DType, Weak: keepsWeak && x.Weak}), nil
	}
}

// argRule: argmax/argmin reduce exactly one non-empty axis to indices of
// index_dtype.
func argRule(in []AVal, p Params) ([]AVal, error) {
	x, axes, indexDType := in[0], p.Ints("axes"), p.DType("index_dtype")
	if err := checkDTypes(in, setOrdered); err != nil {
		return nil, err
	}
	if len(axes) != 1 {
		return nil, fmt.Errorf("reduces exactly one axis, got axes %s", pyIntTuple(axes))
	}
	if err := checkAxes("axes", axes, x.Rank()); err != nil {
		return nil, err
	}
	if x.Shape[axes[0]] < 1 {
		return nil, fmt.Errorf("needs a non-empty reduced dimension, got shape %s with axis %d", x.Shape, axes[0])
	}
	if !indexDType.IsInteger() {
		return nil, fmt.Errorf("index_dtype must be an integer type, got %s", indexDType)
	}
	return one(AVal{Shape: x.Shape.deleteDims(axes), DType: indexDType}), nil
}

func cumulativeRule(in []AVal, p Params) ([]AVal, error) {
	if err := checkDTypes(in, setNum); err != nil {
		return nil, err
	}
	if err := checkAxes("axis", []int{p.Int("axis")}, in[0].Rank()); err != nil {
		return nil, err
	}
	return one(in[0]), nil
}

// sortRule sorts operands of one shape together along dimension, comparing
// the first num_keys operands lexicographically.
func sortRule(in []AVal, p Params) ([]AVal, error) {
	if err := checkDTypes(in, setOrdered); err != nil {
		return nil, err
	}
	for _, a := range in[1:] {
		if !a.Shape.Equal(in[0].Shape) {
			return nil, fmt.Errorf("operands must have equal shapes, got %s", shapeList(avalShapes(in)))
		}
	}
	if err := checkAxes("dimension", []int{p.Int("dimension")}, in[0].Rank()); err != nil {
		return nil, err
	}
	if k := p.Int("num_keys"); k < 1 || k > len(in) {
		return nil, fmt.Errorf("num_keys must lie in [1, %d], got %d", len(in), k)
	}
	return slices.Clone(in), nil
}

func dotGeneralRule(in []AVal, p Params) ([]AVal, error) {
	lhs, rhs := in[0], in[1]
	dn, _ := ParamAs[DotDimensionNumbers](p, "dimension_numbers")
	if err := checkDTypes(in, setAny); err != nil {
		return nil, err
	}
	for _, side := range []struct {
		name       string
		rank       int
		contr, bat []int
	}{{"lhs", lhs.Rank(), dn.LhsContracting, dn.LhsBatch}, {"rhs", rhs.Rank(), dn.RhsContracting, dn.RhsBatch}} {
		if err := checkAxes(side.name+" contracting dimensions", side.contr, side.rank); err != nil {
			return nil, err
		}
		if err := checkAxes(side.name+" batch dimensions", side.bat, side.rank); err != nil {
			return nil, err
		}
		for _, d := range side.contr {
			if containsInt(side.bat, d) {
				return nil, fmt.Errorf("%s dimension %d is both a batch and a contracting dimension", side.name, d)
			}
		}
	}
	if len(dn.LhsBatch) != len(dn.RhsBatch) || len(dn.LhsContracting) != len(dn.RhsContracting) {
		return nil, fmt.Errorf("lhs and rhs need as many batch and contracting dimensions, got %s", dn.pyRepr())
	}
	pick := func(s Shape, dims []int) Shape {
		out := make(Shape, len(dims))
		for i, d := range dims {
			out[i] = s[d]
		}
		return out
	}
	if l, r := pick(lhs.Shape, dn.LhsBatch), pick(rhs.Shape, dn.RhsBatch); !l.Equal(r) {
		return nil, fmt.Errorf("batch dimensions must have the same sizes, got %s and %s", l, r)
	}
	if l, r := pick(lhs.Shape, dn.LhsContracting), pick(rhs.Shape, dn.RhsContracting); !l.Equal(r) {
		return nil, fmt.Errorf("contracting dimensions must have the same sizes, got %s and %s", l, r)
	}
	dt, err := dotResultDType(lhs.DType, rhs.DType, p.DType("preferred_element_type"))
	if err != nil {
		return nil, err
	}
	// Output: batch dims, then lhs's free dims, then rhs's free dims.
	out := pick(lhs.Shape, dn.LhsBatch)
	out = append(out, lhs.Shape.deleteDims(append(slices.Clone(dn.LhsBatch), dn.LhsContracting...))...)
	out = append(out, rhs.Shape.deleteDims(append(slices.Clone(dn.RhsBatch), dn.RhsContracting...))...)
	return one(AVal{Shape: out, DType: dt, Weak: allWeak(in)}), nil
}

// dotResultDType is lax's (and XLA's HigherPrecisionType) rule: of two
// different dtypes the one with more range, precision and width wins;
// preferred_element_type then widens the result, but never narrows a
// non-floating one.
func dotResultDType(l, r, preferred DType) (DType, error) {
	width := func(d DType) int {
		if d == Bool {
			return 1 // lax's _bit_width: a bool is one bit, below int8
		}
		return d.Bits()
	}
	rank := func(d DType) []int {
		c := d.ComplexPart()
		signed := 1
		if c.IsUnsigned() {
			signed = 0
		}
		return []int{int(boolToInt(d.IsComplex())), c.info().maxExp, c.info().mantBits, width(c), signed}
	}
	result := l
	if cmp := slices.Compare(rank(l), rank(r)); cmp < 0 {
		result = r
	} else if cmp == 0 && l != r {
		return 0, fmt.Errorf("operand dtypes %s and %s have no common result dtype", l, r)
	}
	if preferred == InvalidDType || preferred == result {
		return result, nil
	}
	if !preferred.IsArray() {
		return 0, fmt.Errorf("preferred_element_type %s is not an array dtype", preferred)
	}
	if !result.IsFloat() && width(preferred) < width(result) {
		return 0, fmt.Errorf("preferred_element_type %s must not be narrower than the result dtype %s", preferred, result)
	}
	return preferred, nil
}
