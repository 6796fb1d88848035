package trace

import "fmt"

// unaryResult says what dtype an elementwise unary primitive returns.
type unaryResult uint8

const (
	sameDType    unaryResult = iota
	boolResult               // is_finite
	realOfResult             // abs: complex64 -> float32
)

// The elementwise unary primitives, with the dtypes JAX's lax accepts
// (jax/_src/lax/lax.py).
var unaryTable = []struct {
	name    string
	accepts dtypeSet
	result  unaryResult
	props   Props
	params  []ParamSpec
	check   func(x AVal, p Params) error // params' constraints, if any
}{
	{"neg", setNum, sameDType, 0, nil, nil},
	{"sign", setNum, sameDType, 0, nil, nil},
	{"floor", setFloat, sameDType, 0, nil, nil},
	{"ceil", setFloat, sameDType, 0, nil, nil},
	{"round", setFloat, sameDType, 0, []ParamSpec{{Name: "rounding_method", Kind: ParamRounding}}, nil},
	{"is_finite", setFloat, boolResult, 0, nil, nil},
	{"exp", setInexact, sameDType, Transcendental, nil, nil},
	{"exp2", setInexact, sameDType, Transcendental, nil, nil},
	{"log", setInexact, sameDType, Transcendental, nil, nil},
	{"log1p", setInexact, sameDType, Transcendental, nil, nil},
	{"expm1", setInexact, sameDType, Transcendental, nil, nil},
	{"tanh", setInexact, sameDType, Transcendental, nil, nil},
	{"logistic", setInexact, sameDType, Transcendental, nil, nil},
	{"sin", setInexact, sameDType, Transcendental, nil, nil},
	{"cos", setInexact, sameDType, Transcendental, nil, nil},
	{"tan", setInexact, sameDType, Transcendental, nil, nil},
	{"asin", setInexact, sameDType, Transcendental, nil, nil},
	{"acos", setInexact, sameDType, Transcendental, nil, nil},
	{"atan", setInexact, sameDType, Transcendental, nil, nil},
	{"sinh", setInexact, sameDType, Transcendental, nil, nil},
	{"cosh", setInexact, sameDType, Transcendental, nil, nil},
	{"asinh", setInexact, sameDType, Transcendental, nil, nil},
	{"acosh", setInexact, sameDType, Transcendental, nil, nil},
	{"atanh", setInexact, sameDType, Transcendental, nil, nil},
	{"sqrt", setInexact, sameDType, Transcendental, nil, nil},
	{"rsqrt", setInexact, sameDType, Transcendental, nil, nil},
	{"cbrt", setFloat, sameDType, Transcendental, nil, nil},
	{"erf", setFloat, sameDType, Transcendental, nil, nil},
	{"erfc", setFloat, sameDType, Transcendental, nil, nil},
	{"erf_inv", setFloat, sameDType, Transcendental, nil, nil},
	{"abs", setSigned | setInexact, realOfResult, 0, nil, nil},
	{"square", setNum, sameDType, 0, nil, nil},
	{"not", setBoolInt, sameDType, 0, nil, nil},
	{"population_count", setInt, sameDType, 0, nil, nil},
	{"integer_pow", setNum, sameDType, 0, []ParamSpec{{Name: "y", Kind: ParamInt}}, checkIntegerPow},
	{"reduce_precision", setFloat, sameDType, 0, []ParamSpec{
		{Name: "exponent_bits", Kind: ParamInt}, {Name: "mantissa_bits", Kind: ParamInt}}, checkReducePrecision},
	{"copy", setAny, sameDType, Structural, nil, nil},
}

// The elementwise binary primitives. Operands share one dtype (pow excepted)
// and broadcast as lax does (see elementwiseShape).
var binaryTable = []struct {
	name    string
	accepts dtypeSet
	props   Props
}{
	{"add", setNum, Commutative},
	{"sub", setNum, 0},
	{"mul", setNum, Commutative},
	{"div", setNum, 0},
	{"rem", setInt | setFloat, 0},
	{"max", setAny, Commutative},
	{"min", setAny, Commutative},
	{"atan2", setFloat, Transcendental},
	{"nextafter", setFloat, 0},
	{"and", setBoolInt, Commutative},
	{"or", setBoolInt, Commutative},
	{"xor", setBoolInt, Commutative},
	{"shift_left", setInt, 0},
	{"shift_right_logical", setInt, 0},
	{"shift_right_arithmetic", setInt, 0},
	{"eq", setAny, Comparison | Commutative},
	{"ne", setAny, Comparison | Commutative},
	{"lt", setOrdered, Comparison},
	{"le", setOrdered, Comparison},
	{"gt", setOrdered, Comparison},
	{"ge", setOrdered, Comparison},
}

func elementwisePrims() []*Primitive {
	var out []*Primitive
	for _, row := range unaryTable {
		out = append(out, &Primitive{
			Name: row.name, Props: Elementwise | row.props, MinIn: 1, MaxIn: 1,
			Params: row.params, Rule: unaryRule(row.accepts, row.result, row.check),
		})
	}
	for _, row := range binaryTable {
		out = append(out, &Primitive{
			Name: row.name, Props: Elementwise | row.props, MinIn: 2, MaxIn: 2,
			Rule: binaryRule(row.accepts, row.props&Comparison != 0),
		})
	}
	return append(out,
		&Primitive{Name: "pow", Props: Elementwise | Transcendental, MinIn: 2, MaxIn: 2, Rule: powRule},
		&Primitive{Name: "select_n", Props: Elementwise, MinIn: 2, MaxIn: -1, Rule: selectRule},
		&Primitive{Name: "clamp", Props: Elementwise, MinIn: 3, MaxIn: 3, Rule: clampRule},
		&Primitive{Name: "convert_element_type", Props: Elementwise, MinIn: 1, MaxIn: 1,
			Params: []ParamSpec{{Name: "new_dtype", Kind: ParamDType}, {Name: "weak_type", Kind: ParamBool}},
			Rule:   convertRule},
		&Primitive{Name: "bitcast_convert_type", Props: Structural, MinIn: 1, MaxIn: 1,
			Params: []ParamSpec{{Name: "new_dtype", Kind: ParamDType}}, Rule: bitcastRule},
		// JAX's threefry2x32 hash, which the random module lowers to.
		&Primitive{Name: "threefry2x32", Props: Elementwise, MinIn: 4, MaxIn: 4, Rule: threefryRule},
	)
}

func unaryRule(accepts dtypeSet, result unaryResult, check func(AVal, Params) error) func([]AVal, Params) ([]AVal, error) {
	return func(in []AVal, p Params) ([]AVal, error) {
		x := in[0]
		if err := checkDTypes(in, accepts); err != nil {
			return nil, err
		}
		if check != nil {
			if err := check(x, p); err != nil {
				return nil, err
			}
		}
		out := AVal{Shape: x.Shape, DType: x.DType, Weak: x.Weak}
		switch result {
		case boolResult:
			out.DType, out.Weak = Bool, false
		case realOfResult:
			out.DType = x.DType.ComplexPart()
		}
		return one(out), nil
	}
}

func checkIntegerPow(x AVal, p Params) error {
	if y := p.Int("y"); y < 0 && x.DType.IsInteger() {
		return fmt.Errorf("integers cannot be raised to negative powers, got y=%d", y)
	}
	return nil
}

func checkReducePrecision(_ AVal, p Params) error {
	if e := p.Int("exponent_bits"); e < 1 {
		return fmt.Errorf("exponent_bits must be positive, got %d", e)
	}
	if m := p.Int("mantissa_bits"); m < 0 {
		return fmt.Errorf("mantissa_bits must be non-negative, got %d", m)
	}
	return nil
}

// elementwiseShape is lax's broadcasting_shape_rule: scalar operands
// broadcast to any shape; the others must have one rank, and along each
// dimension equal sizes or 1. (jnp inserts broadcast_in_dim for NumPy's
// rank promotion before binding.)
func elementwiseShape(in []AVal) (Shape, error) {
	var shapes []Shape
	for _, a := range in {
		if len(a.Shape) > 0 {
			shapes = append(shapes, a.Shape)
		}
	}
	if len(shapes) == 0 {
		return Shape{}, nil
	}
	for _, s := range shapes[1:] {
		if len(s) != len(shapes[0]) {
			return nil, fmt.Errorf("arrays must have the same number of dimensions, got %s", shapeList(shapes))
		}
	}
	return BroadcastShapes(shapes...)
}

func binaryRule(accepts dtypeSet, comparison bool) func([]AVal, Params) ([]AVal, error) {
	return func(in []AVal, _ Params) ([]AVal, error) {
		if err := checkDTypes(in, accepts); err != nil {
			return nil, err
		}
		if err := checkSameDTypes(in); err != nil {
			return nil, err
		}
		shape, err := elementwiseShape(in)
		if err != nil {
			return nil, err
		}
		if comparison {
			return one(AVal{Shape: shape, DType: Bool}), nil
		}
		return one(AVal{Shape: shape, DType: in[0].DType, Weak: allWeak(in)}), nil
	}
}

// powRule: the base is inexact; the exponent is an integer or the base's
// own dtype.
func powRule(in []AVal, _ Params) ([]AVal, error) {
	x, y := in[0], in[1]
	if !x.DType.IsInexact() || !(y.DType.IsInteger() || y.DType == x.DType) {
		return nil, fmt.Errorf("the base must be floating or complex, and the exponent an integer or of the base's dtype; got %s and %s", x.DType, y.DType)
	}
	shape, err := elementwiseShape(in)
	if err != nil {
		return nil, err
	}
	return one(AVal{Shape: shape, DType: x.DType, Weak: allWeak(in)}), nil
}

// selectRule: select_n(which, *cases) picks cases[which]; a bool which
// chooses between two cases.
func selectRule(in []AVal, _ Params) ([]AVal, error) {
	which, cases := in[0], in[1:]
	if err := checkDTypes(cases, setAny); err != nil {
		return nil, err
	}
	if err := checkSameDTypes(cases); err != nil {
		return nil, err
	}
	for _, c := range cases[1:] {
		if !c.Shape.Equal(cases[0].Shape) {
			return nil, fmt.Errorf("cases must have the same shapes, got %s", shapeList(avalShapes(cases)))
		}
	}
	if len(which.Shape) > 0 && !which.Shape.Equal(cases[0].Shape) {
		return nil, fmt.Errorf("which must be a scalar or have the cases' shape, got %s for cases of shape %s", which.Shape, cases[0].Shape)
	}
	switch {
	case which.DType == Bool && len(cases) > 2:
		return nil, fmt.Errorf("a bool which selects between at most 2 cases, got %d", len(cases))
	case which.DType != Bool && !which.DType.IsInteger():
		return nil, fmt.Errorf("which must be bool or an integer, got %s", which.DType)
	}
	return one(AVal{Shape: cases[0].Shape, DType: cases[0].DType, Weak: allWeak(cases)}), nil
}

func avalShapes(avals []AVal) []Shape {
	out := make([]Shape, len(avals))
	for i, a := range avals {
		out[i] = a.Shape
	}
	return out
}

// clampRule: clamp(min, x, max), where min and max are scalars or x's shape.
func clampRule(in []AVal, _ Params) ([]AVal, error) {
	lo, x, hi := in[0], in[1], in[2]
	if err := checkDTypes(in, setOrdered); err != nil {
		return nil, err
	}
	if err := checkSameDTypes(in); err != nil {
		return nil, err
	}
	for _, bound := range []struct {
		name string
		a    AVal
	}{{"min", lo}, {"max", hi}} {
		if len(bound.a.Shape) > 0 && !bound.a.Shape.Equal(x.Shape) {
			return nil, fmt.Errorf("%s must be a scalar or have the operand's shape %s, got %s", bound.name, x.Shape, bound.a.Shape)
		}
	}
	return one(AVal{Shape: x.Shape, DType: x.DType, Weak: allWeak(in)}), nil
}

func convertRule(in []AVal, p Params) ([]AVal, error) {
	to := p.DType("new_dtype")
	if err := checkDTypes(in, setAny); err != nil {
		return nil, err
	}
	if !to.IsArray() {
		return nil, fmt.Errorf("cannot convert to %s", to)
	}
	return one(AVal{Shape: in[0].Shape, DType: to, Weak: p.Bool("weak_type") && to != Bool}), nil
}

// bitcastRule reinterprets bits: a narrower new dtype adds a trailing
// dimension, a wider one consumes it (lax.bitcast_convert_type).
func bitcastRule(in []AVal, p Params) ([]AVal, error) {
	x, to := in[0], p.DType("new_dtype")
	if err := checkDTypes(in, setAny); err != nil {
		return nil, err
	}
	if !to.IsArray() {
		return nil, fmt.Errorf("cannot bitcast to %s", to)
	}
	from, toBits := x.DType.Bits(), to.Bits()
	switch {
	case from == toBits:
		return one(AVal{Shape: x.Shape, DType: to}), nil
	case from > toBits:
		return one(AVal{Shape: append(x.Shape.Clone(), from/toBits), DType: to}), nil
	}
	last := 1
	if len(x.Shape) > 0 {
		last = x.Shape[len(x.Shape)-1]
	}
	if last*from != toBits {
		return nil, fmt.Errorf("converting %s bits to %s needs a last dimension of %d, got shape %s", x.DType, to, toBits/from, x.Shape)
	}
	return one(AVal{Shape: x.Shape[:len(x.Shape)-1].Clone(), DType: to}), nil
}

func threefryRule(in []AVal, _ Params) ([]AVal, error) {
	if err := checkDTypes(in, setOf(Uint32)); err != nil {
		return nil, err
	}
	shape, err := elementwiseShape(in)
	if err != nil {
		return nil, err
	}
	out := AVal{Shape: shape, DType: Uint32}
	return []AVal{out, out}, nil
}
